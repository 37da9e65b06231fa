import KeyIcon from '@mui/icons-material/Key';
import PhonelinkLockIcon from '@mui/icons-material/PhonelinkLock';
import type { MessageAnswer, SecondFactors, TotpConfirmAnswer } from '@contracts/identity';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Link as MuiLink,
  List,
  ListItem,
  ListItemText,
  Paper,
  TextField,
  Typography,
} from '@mui/material';
import { startRegistration } from '@simplewebauthn/browser';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../formatting';
import { LoadError, Loading } from '../layout/ListStates';
import { PageTitle } from '../layout/PageTitle';
import { useToast } from '../layout/toast';
import { API_URL, httpClient } from '../providers/httpClient';
import { errorText, RecoveryCodes, startTotpEnrolment, TotpSetup, type TotpEnrolment } from './secondFactor';

const api = {
  factors: async () => (await httpClient<{ data: SecondFactors }>(`${API_URL}/auth/mfa`)).json.data,
  confirmTotp: async (code: string) => (await httpClient<TotpConfirmAnswer>(`${API_URL}/auth/mfa/totp/confirm`, { method: 'POST', body: { code } })).json,
  remove: async (id: string) => (await httpClient<MessageAnswer>(`${API_URL}/auth/mfa/factors/${id}`, { method: 'DELETE' })).json,
  addPasskey: async (name: string) => {
    const { json } = await httpClient<{ data: Parameters<typeof startRegistration>[0]['optionsJSON'] }>(`${API_URL}/auth/mfa/passkeys/options`, {
      method: 'POST',
      body: {},
    });
    const response = await startRegistration({ optionsJSON: json.data });
    return (await httpClient<MessageAnswer>(`${API_URL}/auth/mfa/passkeys`, { method: 'POST', body: { name, response } })).json;
  },
};

/** /security: the signed-in person's second factors (authenticator app with recovery codes, passkeys), next to Change Password. */
export default function Security() {
  const toast = useToast();
  const [factors, setFactors] = useState<SecondFactors | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [passkeyName, setPasskeyName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);

  const reload = useCallback(() => {
    setLoadError(null);
    api.factors().then(setFactors, setLoadError);
  }, []);
  useEffect(reload, [reload]);

  const act = async (step: () => Promise<void>, fallback: string) => {
    setBusy(true);
    setError(null);
    try {
      await step();
    } catch (failure) {
      setError(errorText(failure, fallback));
    }
    setBusy(false);
  };

  const none = factors && !factors.totp && factors.passkeys.length === 0;

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 760 }}>
      <PageTitle title="Security" subtitle="Protect your account with a second factor: an authenticator app or a passkey." />
      <Typography variant="body2" sx={{ mb: 2 }}>
        <MuiLink component={Link} to="/change-password">
          Change your password
        </MuiLink>
      </Typography>
      {loadError ? <LoadError error={loadError} message="Your second factors could not be loaded." onRetry={reload} /> : null}
      {!factors && !loadError ? <Loading /> : null}
      {factors ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          {none && factors.required ? <Alert severity="warning">Your account must have a second factor. Set one up below.</Alert> : null}
          {none && !factors.required ? <Alert severity="info">No second factor yet: anyone with your password can sign in. Set one up below.</Alert> : null}
          {error ? <Alert severity="error">{error}</Alert> : null}

          <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }} component="section" aria-label="Authenticator app">
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
              <PhonelinkLockIcon color="primary" />
              <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
                Authenticator app
              </Typography>
              {factors.totp ? <Chip color="success" size="small" label="On" /> : <Chip size="small" label="Off" />}
            </Box>
            {codes ? (
              <RecoveryCodes
                codes={codes}
                onDone={() => {
                  setCodes(null);
                  reload();
                }}
              />
            ) : factors.totp ? (
              <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
                <Typography variant="body2">
                  Set up {formatDateTime(factors.totp.created_at)}. Sign-in asks for a code from the app after your password.
                </Typography>
                <Typography variant="body2" data-testid="recovery-codes-left">
                  Recovery codes left: <strong>{factors.recovery_codes_left}</strong> of 10
                </Typography>
                <Box>
                  <Button color="error" onClick={() => setRemoving({ id: factors.totp!.id, name: 'the authenticator app and its recovery codes' })}>
                    Remove
                  </Button>
                </Box>
              </Box>
            ) : enrolment ? (
              <TotpSetup
                enrolment={enrolment}
                confirm={async (code) => {
                  const answer = await api.confirmTotp(code);
                  setEnrolment(null);
                  setCodes(answer.data.recovery_codes);
                  toast(answer.message, 'success');
                }}
              />
            ) : (
              <Box>
                <Typography variant="body2" sx={{ mb: 1.5 }}>
                  Use an app on your phone that shows a new 6-digit code every 30 seconds. You also get ten single-use recovery codes.
                </Typography>
                <Button
                  variant="contained"
                  disabled={busy}
                  onClick={() => void act(async () => setEnrolment(await startTotpEnrolment()), 'The set-up could not start.')}
                >
                  Set up authenticator app
                </Button>
              </Box>
            )}
          </Paper>

          <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }} component="section" aria-label="Passkeys">
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
              <KeyIcon color="primary" />
              <Typography variant="h6" component="h2">
                Passkeys
              </Typography>
            </Box>
            <Typography variant="body2" sx={{ mb: 1.5 }}>
              A passkey uses your device's fingerprint, face or screen lock (or a security key) instead of a code.
            </Typography>
            {factors.passkeys.length ? (
              <List dense disablePadding data-testid="passkey-list">
                {factors.passkeys.map((passkey) => (
                  <ListItem
                    key={passkey.id}
                    disableGutters
                    secondaryAction={
                      <Button size="small" color="error" onClick={() => setRemoving({ id: passkey.id, name: `the passkey “${passkey.name}”` })}>
                        Remove
                      </Button>
                    }
                  >
                    <ListItemText
                      primary={passkey.name}
                      secondary={`Added ${formatDateTime(passkey.created_at)}${passkey.last_used_at ? ` · last used ${formatDateTime(passkey.last_used_at)}` : ''}`}
                    />
                  </ListItem>
                ))}
              </List>
            ) : (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                No passkeys yet.
              </Typography>
            )}
            <Box
              component="form"
              onSubmit={(e) => {
                e.preventDefault();
                void act(async () => {
                  const answer = await api.addPasskey(passkeyName.trim());
                  toast(answer.message, 'success');
                  setPasskeyName('');
                  reload();
                }, 'The passkey could not be added.');
              }}
              sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1 }}
            >
              <TextField
                size="small"
                label="Passkey name"
                placeholder="e.g. Work laptop"
                value={passkeyName}
                onChange={(e) => setPasskeyName(e.target.value)}
                slotProps={{ htmlInput: { maxLength: 80 } }}
                sx={{ flex: '1 1 200px' }}
              />
              <Button type="submit" variant="outlined" startIcon={<KeyIcon />} disabled={busy || !passkeyName.trim()}>
                Add a passkey
              </Button>
            </Box>
          </Paper>
        </Box>
      ) : null}

      <Dialog open={Boolean(removing)} onClose={() => setRemoving(null)} aria-labelledby="remove-factor">
        <DialogTitle id="remove-factor">Remove second factor?</DialogTitle>
        <DialogContent>
          <DialogContentText>Remove {removing?.name}? Sign-in will no longer accept it.</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRemoving(null)}>Cancel</Button>
          <Button
            color="error"
            variant="contained"
            onClick={() =>
              removing &&
              void act(async () => {
                const answer = await api.remove(removing.id);
                toast(answer.message, 'success');
                setRemoving(null);
                reload();
              }, 'The second factor could not be removed.').finally(() => setRemoving(null))
            }
          >
            Remove
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
