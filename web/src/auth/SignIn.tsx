import { landingRouteFor } from '@domain/access';
import type { MfaRequiredAnswer, PublicProvider, PublicProvidersAnswer } from '@contracts/identity';
import LoginIcon from '@mui/icons-material/Login';
import { Alert, Box, Button, Divider, Link as MuiLink, TextField, Typography } from '@mui/material';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../layout/pageTitle';
import { useToast } from '../layout/toast';
import { completeSingleSignOn, LOGIN_SUCCESS_MESSAGE, OnboardingIncompleteError, SecondFactorRequired, signIn } from '../providers/authProvider';
import { API_URL, httpClient } from '../providers/httpClient';
import { SecondFactorStep } from './SecondFactorStep';
import { getRole } from '../providers/session';
import { AuthShell } from './AuthShell';
import { PasswordField } from './PasswordField';
import { canSubmitLogin, FILL_IN_ALL_FIELDS, validateLogin } from './validation';

export type SignInType = 'partner' | 'distributor' | 'general';

export const SIGN_IN_HEADINGS: Record<SignInType, string> = {
  partner: 'Partner Login',
  distributor: 'Distributor Login',
  general: 'Login',
};

export const REMEMBERED_EMAIL_KEY = 'remembered-email';

export function signInTypeOf(value: string | null): SignInType {
  return value === 'partner' || value === 'distributor' ? value : 'general';
}

/** /signin?type=partner|distributor */
export default function SignIn() {
  const [params] = useSearchParams();
  const type = signInTypeOf(params.get('type'));
  const heading = SIGN_IN_HEADINGS[type];
  usePageTitle(heading);
  const navigate = useNavigate();
  const toast = useToast();

  const [values, setValues] = useState({ email: localStorage.getItem(REMEMBERED_EMAIL_KEY) ?? '', password: '' });
  const [touched, setTouched] = useState({ email: false, password: false });
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [resumeOnboarding, setResumeOnboarding] = useState(false);

  const [secondFactor, setSecondFactor] = useState<MfaRequiredAnswer | null>(null);
  const [providers, setProviders] = useState<PublicProvider[]>([]);
  const [formErrorFromSso] = useState(() => params.get('sso_error'));
  const ticketUsed = useRef(false);

  const errors = validateLogin(values);
  const enabled = canSubmitLogin(values, submitting);

  /** Land on the role's screen with a fresh page, so the signed-in app starts from the new session. */
  const signedIn = (message: string) => {
    const text = message || LOGIN_SUCCESS_MESSAGE;
    setSecondFactor(null);
    setSuccess(text);
    toast(text, 'success');
    const returnTo = params.get('return_to');
    setTimeout(() => window.location.assign(returnTo && /^\/[^/\\]/.test(returnTo) ? returnTo : landingRouteFor(getRole())), 400);
  };

  useEffect(() => {
    httpClient<PublicProvidersAnswer>(`${API_URL}/auth/oidc/providers`, { anonymous: true })
      .then(({ json }) => setProviders(json.data.providers))
      .catch(() => setProviders([]));
  }, []);

  // Back from an identity provider: trade the one-time ticket for the session (once, even under StrictMode).
  useEffect(() => {
    const ticket = params.get('sso_ticket');
    if (!ticket || ticketUsed.current) return;
    ticketUsed.current = true;
    setSubmitting(true);
    completeSingleSignOn(ticket)
      .then(({ message }) => signedIn(message))
      .catch((error: Error) => {
        setFormError(error.message);
        setSubmitting(false);
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once on arrival: the ticket is single-use
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    if (!canSubmitLogin(values, false)) {
      setTouched({ email: true, password: true });
      setFormError(FILL_IN_ALL_FIELDS);
      return;
    }
    setSubmitting(true);
    setFormError(null);
    try {
      const { message } = await signIn(values.email, values.password);
      signedIn(message);
    } catch (error) {
      if (error instanceof SecondFactorRequired) {
        setSecondFactor(error.answer);
        setSubmitting(false);
        return;
      }
      const message = (error as Error).message;
      setResumeOnboarding(error instanceof OnboardingIncompleteError);
      setFormError(message);
      toast(message, 'error');
      setSubmitting(false);
    }
  };

  const change = (field: 'email' | 'password') => (event: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setFormError(null);
  };

  if (secondFactor && !success) {
    return (
      <AuthShell>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 2 }}>
          {heading}
        </Typography>
        <SecondFactorStep
          answer={secondFactor}
          onSignedIn={signedIn}
          onRestart={() => {
            setSecondFactor(null);
            setValues((v) => ({ ...v, password: '' }));
          }}
        />
      </AuthShell>
    );
  }

  const ssoError = formErrorFromSso && !formError ? formErrorFromSso : null;

  return (
    <AuthShell>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {heading}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        Sign in to your account
      </Typography>
      {providers.length ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, mb: 2 }} data-testid="sso-providers">
          {providers.map((provider) => (
            <Button
              key={provider.slug}
              variant="outlined"
              size="large"
              startIcon={<LoginIcon />}
              href={provider.start_url}
              fullWidth
              sx={{ textTransform: 'none' }}
            >
              Sign in with {provider.name}
            </Button>
          ))}
          <Divider sx={{ mt: 1 }}>or with your password</Divider>
        </Box>
      ) : null}
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={change('email')}
          onBlur={() => setTouched((t) => ({ ...t, email: true }))}
          error={touched.email && Boolean(errors.email)}
          helperText={touched.email ? errors.email : undefined}
          required
          fullWidth
          autoFocus
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={values.password}
          onChange={change('password')}
          onBlur={() => setTouched((t) => ({ ...t, password: true }))}
          error={touched.password && Boolean(errors.password)}
          helperText={touched.password ? errors.password : undefined}
          required
          fullWidth
        />
        {formError ? (
          <Alert
            severity="error"
            data-testid="signin-error"
            action={
              resumeOnboarding ? (
                <Button color="inherit" size="small" onClick={() => navigate('/partner-onboarding')}>
                  Continue
                </Button>
              ) : undefined
            }
          >
            {formError}
          </Alert>
        ) : null}
        {ssoError ? (
          <Alert severity="error" data-testid="sso-error">
            {ssoError}
          </Alert>
        ) : null}
        {success ? <Alert severity="success">{success}</Alert> : null}
        <Button type="submit" variant="contained" size="large" disabled={!enabled} fullWidth>
          {submitting ? 'SIGNING IN...' : 'SIGN IN'}
        </Button>
      </Box>
      {type !== 'distributor' ? (
        <>
          <Divider sx={{ my: 3 }}>or</Divider>
          <Button variant="outlined" fullWidth onClick={() => navigate('/register-partner')}>
            Register as a Partner
          </Button>
        </>
      ) : null}
      <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }} color="text.secondary">
        New here?{' '}
        <MuiLink component={Link} to="/SignUp">
          Create an account
        </MuiLink>
      </Typography>
      <Typography variant="body2" sx={{ mt: 1, textAlign: 'center' }} color="text.secondary">
        {type !== 'partner' ? (
          <MuiLink component={Link} to="/signin?type=partner" sx={{ mx: 1 }}>
            Partner login
          </MuiLink>
        ) : null}
        {type !== 'distributor' ? (
          <MuiLink component={Link} to="/signin?type=distributor" sx={{ mx: 1 }}>
            Distributor login
          </MuiLink>
        ) : null}
      </Typography>
    </AuthShell>
  );
}
