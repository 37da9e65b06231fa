import { Box, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { BRAND_BLUE } from '../layout/theme';

export const TAGLINE = 'Grow, explore and succeed with us';

/** The frame of the signed-out screens: brand panel with the tagline, and the form card. */
export function AuthShell({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: { xs: 'column', md: 'row' }, bgcolor: 'background.default' }}>
      <Box
        sx={{
          flex: { md: '0 0 42%' },
          background: `linear-gradient(135deg, ${BRAND_BLUE} 0%, #0d5ea8 100%)`,
          color: '#fff',
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'center',
          px: { xs: 3, md: 6 },
          py: { xs: 3, md: 6 },
        }}
      >
        <Typography variant="h4" component="div" sx={{ fontWeight: 700, fontSize: { xs: '1.6rem', md: '2.4rem' } }}>
          PartnerHub
        </Typography>
        <Typography variant="h6" component="p" sx={{ mt: 1, fontWeight: 400, opacity: 0.92, fontSize: { xs: '1rem', md: '1.25rem' } }}>
          {TAGLINE}
        </Typography>
        <Typography variant="body2" sx={{ mt: 2, opacity: 0.8, display: { xs: 'none', md: 'block' }, maxWidth: 420 }}>
          The partner-channel portal for deal registrations, orders, rebates and support.
        </Typography>
      </Box>
      <Box sx={{ flex: 1, display: 'flex', alignItems: { xs: 'flex-start', md: 'center' }, justifyContent: 'center', p: { xs: 2, sm: 4 } }}>
        <Paper elevation={0} sx={{ width: '100%', maxWidth: 440, p: { xs: 2.5, sm: 4 }, border: 1, borderColor: 'divider' }}>
          {children}
        </Paper>
      </Box>
    </Box>
  );
}
