import { CssBaseline, ThemeProvider, createTheme } from '@mui/material';
import { lazy, Suspense, useEffect, useState } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { FullScreenSpinner, Splash, SPLASH_MS } from './layout/Splash';
import { theme } from './layout/theme';
import { ToastHost } from './layout/toast';

// Signed-out screens: plain MUI, so the sign-in page never loads the admin framework.
const SignIn = lazy(() => import('./auth/SignIn'));
const SignUp = lazy(() => import('./auth/SignUp'));
const RegisterPartner = lazy(() => import('./auth/RegisterPartner'));
const PartnerOnboarding = lazy(() => import('./partneronboarding/OnboardingQuestionnaire'));
const OnboardingWizard = lazy(() => import('./partneronboarding/OnboardingWizard'));
const TeamInvitation = lazy(() => import('./team/TeamInvitation'));
const VerifyCertificate = lazy(() => import('./learning/VerifyCertificate'));

// Everything else is the signed-in portal (react-admin), loaded on the first visit to one of its routes.
const SignedInApp = lazy(() => import('./App').then((m) => ({ default: m.App })));

const signedOutTheme = createTheme(theme);
const loading = (element: React.ReactNode) => <Suspense fallback={<FullScreenSpinner />}>{element}</Suspense>;

export function Root() {
  const [splash, setSplash] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setSplash(false), SPLASH_MS);
    return () => clearTimeout(timer);
  }, []);
  if (splash) return <Splash />;

  return (
    <BrowserRouter>
      <ThemeProvider theme={signedOutTheme}>
        <CssBaseline />
        <ToastHost />
        <Routes>
          <Route path="/signin" element={loading(<SignIn />)} />
          <Route path="/SignUp" element={loading(<SignUp />)} />
          <Route path="/register-partner" element={loading(<RegisterPartner />)} />
          <Route path="/partner-onboarding" element={loading(<PartnerOnboarding />)} />
          <Route path="/partneronboarding" element={loading(<OnboardingWizard />)} />
          <Route path="/team-invitation" element={loading(<TeamInvitation />)} />
          <Route path="/verify-certificate" element={loading(<VerifyCertificate />)} />
          <Route path="/verify-certificate/:code" element={loading(<VerifyCertificate />)} />
          <Route path="*" element={loading(<SignedInApp />)} />
        </Routes>
      </ThemeProvider>
    </BrowserRouter>
  );
}
