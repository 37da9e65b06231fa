import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import { Alert, Box, Button, Checkbox, FormControlLabel, Link as MuiLink, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { usePageTitle } from '../layout/pageTitle';
import { useToast } from '../layout/toast';
import { messageOf } from '../providers/errorMapper';
import { AuthShell } from './AuthShell';
import { registerAccount } from './registration';
import { saveOnboardingHandoff, type OnboardingHandoff } from './onboardingHandoff';
import { PasswordField } from './PasswordField';
import { REMEMBERED_EMAIL_KEY } from './SignIn';
import { canSubmitSignUp, validateSignUp, type SignUpValues } from './validation';

type Field = keyof SignUpValues;
const EMPTY: SignUpValues = { full_name: '', email: '', password: '', confirmPassword: '', rememberMe: false };

/** /SignUp: creates a partner account, then explains the onboarding and approval that follow. */
export default function SignUp() {
  usePageTitle('Sign Up');
  const navigate = useNavigate();
  const toast = useToast();
  const [values, setValues] = useState<SignUpValues>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ handoff: OnboardingHandoff; message: string } | null>(null);

  const errors = validateSignUp(values);
  const show = (field: Field) => (touched[field] ? errors[field] : undefined);

  const set = (field: Field) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = field === 'rememberMe' ? event.target.checked : event.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    setServerError(null);
  };
  const blur = (field: Field) => () => setTouched((t) => ({ ...t, [field]: true }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ full_name: true, email: true, password: true, confirmPassword: true });
    if (!canSubmitSignUp(values) || submitting) return;
    setSubmitting(true);
    try {
      const answer = await registerAccount({
        full_name: values.full_name.trim(),
        email: values.email.trim(),
        password: values.password,
      });
      if (values.rememberMe) localStorage.setItem(REMEMBERED_EMAIL_KEY, values.email.trim());
      else localStorage.removeItem(REMEMBERED_EMAIL_KEY);
      const handoff: OnboardingHandoff = {
        userId: String(answer.data?.id ?? ''),
        email: values.email.trim(),
        full_name: values.full_name.trim(),
        onboardingToken: answer.onboardingToken,
      };
      saveOnboardingHandoff(handoff);
      const message = answer.message || 'Your account has been created.';
      toast(message, 'success');
      setCreated({ handoff, message });
    } catch (error) {
      const message = messageOf(error, 'Registration failed. Please try again.');
      setServerError(message);
      toast(message, 'error');
    } finally {
      setSubmitting(false);
    }
  };

  if (created) {
    return (
      <AuthShell>
        <Box sx={{ textAlign: 'center' }}>
          <CheckCircleOutlineIcon color="success" sx={{ fontSize: 48 }} />
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mt: 1 }}>
            Account created
          </Typography>
        </Box>
        <Alert severity="success" sx={{ mt: 2 }}>
          {created.message}
        </Alert>
        <Typography variant="subtitle1" component="h2" sx={{ mt: 2, fontWeight: 600 }}>
          What happens next
        </Typography>
        <Box component="ol" sx={{ pl: 3, mt: 1, mb: 2, '& li': { mb: 0.75 } }}>
          <li>Complete the partner onboarding questionnaire about your company.</li>
          <li>An administrator reviews your application, usually within 2-3 business days.</li>
          <li>You receive an e-mail when it is approved, and can then sign in as a partner.</li>
        </Box>
        <Button variant="contained" fullWidth onClick={() => navigate('/partner-onboarding', { state: created.handoff })}>
          Continue to partner onboarding
        </Button>
        <Button fullWidth sx={{ mt: 1 }} onClick={() => navigate('/signin')}>
          Back to sign in
        </Button>
      </AuthShell>
    );
  }

  return (
    <AuthShell>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        Create your account
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        Register as a partner. An administrator approves new partner accounts.
      </Typography>
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <TextField
          label="Full name"
          name="full_name"
          autoComplete="name"
          value={values.full_name}
          onChange={set('full_name')}
          onBlur={blur('full_name')}
          error={Boolean(show('full_name'))}
          helperText={show('full_name')}
          required
          fullWidth
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
          onBlur={blur('email')}
          error={Boolean(show('email'))}
          helperText={show('email')}
          required
          fullWidth
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set('password')}
          onBlur={blur('password')}
          error={Boolean(show('password'))}
          helperText={show('password')}
          required
          fullWidth
        />
        <PasswordField
          label="Confirm Password"
          name="confirmPassword"
          toggleLabel="confirm password"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={set('confirmPassword')}
          onBlur={blur('confirmPassword')}
          error={Boolean(show('confirmPassword'))}
          helperText={show('confirmPassword')}
          required
          fullWidth
        />
        <FormControlLabel control={<Checkbox name="rememberMe" checked={values.rememberMe} onChange={set('rememberMe')} />} label="Remember me" />
        {serverError ? <Alert severity="error">{serverError}</Alert> : null}
        <Button type="submit" variant="contained" size="large" disabled={!canSubmitSignUp(values) || submitting} fullWidth>
          {submitting ? 'Creating account...' : 'Sign Up'}
        </Button>
      </Box>
      <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }} color="text.secondary">
        Already have an account?{' '}
        <MuiLink component={Link} to="/signin">
          Sign in
        </MuiLink>
      </Typography>
    </AuthShell>
  );
}
