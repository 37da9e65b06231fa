import { Box, CircularProgress, Typography } from '@mui/material';
import { BRAND_BLUE } from './theme';

export const SPLASH_MS = 1000;

/** The start-up splash (1 second). */
export function Splash() {
  return (
    <Box
      role="status"
      aria-label="Loading PartnerHub"
      sx={{
        position: 'fixed',
        inset: 0,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
        bgcolor: BRAND_BLUE,
        color: '#fff',
        zIndex: 2000,
      }}
    >
      <Typography variant="h4" component="div" sx={{ fontWeight: 600 }}>
        PartnerHub
      </Typography>
      <Typography variant="body2" sx={{ opacity: 0.85 }}>
        Grow, explore and succeed with us
      </Typography>
    </Box>
  );
}

/** The full-screen loading spinner. */
export function FullScreenSpinner() {
  return (
    <Box role="progressbar" aria-label="Loading" sx={{ minHeight: '60vh', height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <CircularProgress />
    </Box>
  );
}
