import { Box, Button, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { TAGLINE } from '../auth/AuthShell';
import { BRAND_BLUE } from '../layout/theme';

/** The frame of the onboarding screens: a brand bar and a wide card for the form. */
export function OnboardingFrame({ children, maxWidth = 920 }: { children: ReactNode; maxWidth?: number }) {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box
        component="header"
        sx={{ background: `linear-gradient(135deg, ${BRAND_BLUE} 0%, #0d5ea8 100%)`, color: '#fff', px: { xs: 2, md: 4 }, py: { xs: 1.5, md: 2 } }}
      >
        <Box sx={{ maxWidth, mx: 'auto', display: 'flex', alignItems: 'baseline', gap: 2, flexWrap: 'wrap' }}>
          <Typography variant="h6" component="div" sx={{ fontWeight: 700 }}>
            PartnerHub
          </Typography>
          <Typography variant="body2" sx={{ opacity: 0.85 }}>
            {TAGLINE}
          </Typography>
        </Box>
      </Box>
      <Box sx={{ px: { xs: 1.5, sm: 3 }, py: { xs: 2, md: 4 } }}>
        <Paper elevation={0} sx={{ maxWidth, mx: 'auto', p: { xs: 2, sm: 4 }, border: 1, borderColor: 'divider', minWidth: 0 }}>
          {children}
        </Paper>
      </Box>
    </Box>
  );
}

/**
 * Shown when the page is opened without an application at hand (a new tab, a bookmark). An applicant
 * continues their own questionnaire by signing in: the sign-in answers an unfinished application with
 * its hand-over and a Continue button. Registering is for companies without an account.
 */
export function RegisterFirst() {
  const navigate = useNavigate();
  return (
    <Box data-testid="register-first">
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 1 }}>
        Partner Onboarding
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Already registered? Sign in with your partner account to continue your own application where you left it. New to PartnerHub? Register your company
        first; you will come straight back here.
      </Typography>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
        <Button variant="contained" onClick={() => navigate('/signin?type=partner')}>
          Sign in to continue
        </Button>
        <Button variant="outlined" onClick={() => navigate('/register-partner')}>
          Register as a Partner
        </Button>
      </Box>
    </Box>
  );
}
