import { Alert, Box, Button, TextField, Typography } from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { AuthShell } from '../auth/AuthShell';
import { PasswordField } from '../auth/PasswordField';
import { signUpPasswordError } from '../auth/validation';
import { usePageTitle } from '../layout/pageTitle';
import { messageOf } from '../providers/errorMapper';
import { acceptInvitation, invitationDetails } from './teamApi';

type Invitation = Awaited<ReturnType<typeof invitationDetails>>;

/** /team-invitation?token=…: an invited team member chooses a password, once, before the link expires. */
export default function TeamInvitation() {
  usePageTitle('Join your team');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [problem, setProblem] = useState<string | null>(token ? null : 'This invitation link is not valid. Ask your team administrator for a new one.');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  useEffect(() => {
    if (!token) return;
    invitationDetails(token)
      .then(setInvitation)
      .catch((error) => setProblem(messageOf(error)));
  }, [token]);

  const passwordError = signUpPasswordError(password);
  const confirmError = confirm && confirm !== password ? 'Passwords do not match' : null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (passwordError || confirmError || !confirm || busy) return;
    setBusy(true);
    try {
      setDone((await acceptInvitation(token, password)).message);
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthShell>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 1 }}>
        Join your team
      </Typography>
      {done ? (
        <>
          <Alert severity="success" sx={{ mb: 2 }}>
            {done}
          </Alert>
          <Button component={Link} to="/signin" variant="contained" fullWidth>
            Sign in
          </Button>
        </>
      ) : problem ? (
        <>
          <Alert severity="error" sx={{ mb: 2 }}>
            {problem}
          </Alert>
          <Button component={Link} to="/signin" fullWidth>
            Go to sign in
          </Button>
        </>
      ) : !invitation ? (
        <Typography color="text.secondary">Checking your invitation...</Typography>
      ) : (
        <Box component="form" onSubmit={(e) => void submit(e)} noValidate sx={{ display: 'grid', gap: 2 }}>
          <Typography variant="body2">
            {invitation.full_name}, you are invited to join {invitation.company_name ?? 'your team'} on PartnerHub. Choose the password you will sign in with.
          </Typography>
          <TextField label="Email" value={invitation.email} slotProps={{ input: { readOnly: true } }} />
          <PasswordField
            label="Password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            onBlur={() => setTouched(true)}
            error={touched && Boolean(passwordError)}
            helperText={touched ? (passwordError ?? ' ') : 'At least 6 characters, an uppercase letter and a number'}
            autoComplete="new-password"
          />
          <PasswordField
            label="Confirm Password"
            toggleLabel="confirmation"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            error={Boolean(confirmError)}
            helperText={confirmError ?? ' '}
            autoComplete="new-password"
          />
          <Button type="submit" variant="contained" disabled={busy || Boolean(passwordError) || !confirm || Boolean(confirmError)}>
            {busy ? 'Saving...' : 'Set password'}
          </Button>
        </Box>
      )}
    </AuthShell>
  );
}
