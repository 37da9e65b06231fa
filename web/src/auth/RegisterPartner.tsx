import { Alert, Box, Button, Link as MuiLink, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { usePageTitle } from '../layout/pageTitle';
import { useToast } from '../layout/toast';
import { messageOf } from '../providers/errorMapper';
import { AuthShell } from './AuthShell';
import { registerAccount } from './registration';
import { saveOnboardingHandoff, type OnboardingHandoff } from './onboardingHandoff';
import { PasswordField } from './PasswordField';
import { validateRegisterPartner, type RegisterPartnerValues } from './validation';

export const REGISTER_PARTNER_TITLE = 'Register as a Partner';

/** /register-partner: company name, email and password; on success to /partner-onboarding. */
export default function RegisterPartner() {
  usePageTitle(REGISTER_PARTNER_TITLE);
  const navigate = useNavigate();
  const toast = useToast();
  const [values, setValues] = useState<RegisterPartnerValues>({ company_name: '', email: '', password: '' });
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const set = (field: keyof RegisterPartnerValues) => (event: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateRegisterPartner(values);
    if (invalid) {
      setError(invalid);
      return;
    }
    setSubmitting(true);
    try {
      const company = values.company_name.trim();
      const answer = await registerAccount({
        full_name: company,
        company_name: company,
        email: values.email.trim(),
        password: values.password,
      });
      const handoff: OnboardingHandoff = {
        userId: String(answer.data?.id ?? ''),
        email: values.email.trim(),
        full_name: company,
        company_name: company,
        onboardingToken: answer.onboardingToken,
      };
      saveOnboardingHandoff(handoff);
      toast(answer.message || 'Registration successful', 'success');
      navigate('/partner-onboarding', { state: handoff });
    } catch (e) {
      // The server says why it failed, e.g. that the e-mail is already in use.
      const message = messageOf(e, 'Registration failed. Please try again.');
      setError(message);
      toast(message, 'error');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthShell>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {REGISTER_PARTNER_TITLE}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        Create your partner account, then tell us about your company.
      </Typography>
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <TextField
          label="Company Name"
          name="company_name"
          autoComplete="organization"
          value={values.company_name}
          onChange={set('company_name')}
          required
          fullWidth
        />
        <TextField label="Email" name="email" type="email" autoComplete="email" value={values.email} onChange={set('email')} required fullWidth />
        <PasswordField label="Password" name="password" autoComplete="new-password" value={values.password} onChange={set('password')} required fullWidth />
        {error ? (
          <Alert severity="error" data-testid="register-error">
            {error}
          </Alert>
        ) : null}
        <Button type="submit" variant="contained" size="large" disabled={submitting} fullWidth>
          {submitting ? 'Registering...' : 'Register'}
        </Button>
      </Box>
      <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }} color="text.secondary">
        Already a partner?{' '}
        <MuiLink component={Link} to="/signin?type=partner">
          Sign in
        </MuiLink>
      </Typography>
    </AuthShell>
  );
}
