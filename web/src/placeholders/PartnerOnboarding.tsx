import { Alert, Box, Button, Paper, Typography } from '@mui/material';
import { useLocation, useNavigate } from 'react-router-dom';
import { AuthShell } from '../auth/AuthShell';
import { readOnboardingHandoff, type OnboardingHandoff } from '../auth/onboardingHandoff';
import { usePageTitle } from '../layout/PageTitle';

/** /partner-onboarding (signed out): the questionnaire a new partner fills in before approval. */
export default function PartnerOnboarding() {
  usePageTitle('Partner Onboarding');
  const navigate = useNavigate();
  const state = useLocation().state as OnboardingHandoff | null;
  const handoff = state?.userId ? state : readOnboardingHandoff();
  return (
    <AuthShell>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
        Partner Onboarding
      </Typography>
      {handoff ? (
        <Alert severity="success" sx={{ mt: 2 }}>
          Account created for {handoff.email}. It stays inactive until an administrator approves your application.
        </Alert>
      ) : null}
      <Paper variant="outlined" sx={{ p: 2, mt: 2 }} data-testid="coming-soon">
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          Coming soon
        </Typography>
        <Typography variant="body2" color="text.secondary">
          The onboarding questionnaire (basic information, business type, business description, registration and
          financial information) is being built and will be available in an upcoming release.
        </Typography>
      </Paper>
      <Box sx={{ mt: 2 }}>
        <Button variant="outlined" fullWidth onClick={() => navigate('/signin?type=partner')}>
          Back to sign in
        </Button>
      </Box>
    </AuthShell>
  );
}
