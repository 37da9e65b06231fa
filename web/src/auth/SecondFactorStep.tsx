import KeyIcon from '@mui/icons-material/Key';
import type { MfaRequiredAnswer } from '@contracts/identity';
import { Alert, Box, Button, Divider, Link as MuiLink, TextField, Typography } from '@mui/material';
import { startAuthentication } from '@simplewebauthn/browser';
import { useState, type FormEvent } from 'react';
import { answerSecondFactor, confirmTotpDuringSignIn } from '../providers/authProvider';
import { API_URL, httpClient } from '../providers/httpClient';
import { errorText, RecoveryCodes, sixDigits, startTotpEnrolment, TotpSetup, type TotpEnrolment } from './secondFactor';

type Mode = 'code' | 'recovery';

/**
 * The step after the password when a second factor is needed: a code from the authenticator app, a
 * recovery code or a passkey; or, for someone who must have a factor and has none, setting one up.
 * `onSignedIn` gets the success message once the session is stored.
 */
export function SecondFactorStep({
  answer,
  onSignedIn,
  onRestart,
}: {
  answer: MfaRequiredAnswer;
  onSignedIn: (message: string) => void;
  onRestart: () => void;
}) {
  const hasApp = answer.methods.includes('totp');
  const hasPasskey = answer.methods.includes('passkey');
  const [mode, setMode] = useState<Mode>('code');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<{ codes: string[]; message: string } | null>(null);

  const run = async (step: () => Promise<{ message: string }>) => {
    setBusy(true);
    setError(null);
    try {
      const { message } = await step();
      onSignedIn(message);
    } catch (failure) {
      setError(errorText(failure, 'That did not work. Please try again.'));
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode === 'code' && value.length !== 6) return setError('Enter the 6-digit code from your authenticator app.');
    if (mode === 'recovery' && value.replace(/[\s-]/g, '').length !== 10) return setError('A recovery code looks like ABCDE-12345.');
    void run(() => answerSecondFactor(answer.challenge, mode === 'code' ? { code: value } : { recovery_code: value.trim() }));
  };

  const signInWithPasskey = () =>
    run(async () => {
      const { json } = await httpClient<{ data: Parameters<typeof startAuthentication>[0]['optionsJSON'] }>(`${API_URL}/auth/mfa/passkey/options`, {
        method: 'POST',
        body: { challenge: answer.challenge },
        anonymous: true,
      });
      const passkey = await startAuthentication({ optionsJSON: json.data });
      return answerSecondFactor(answer.challenge, { passkey });
    });

  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes.codes} onDone={() => onSignedIn(recoveryCodes.message)} doneLabel="Continue to the portal" />;

  if (answer.enrolment_required) {
    return (
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="mfa-enrol">
        <Typography variant="h6" component="h2">
          Set up a second factor
        </Typography>
        <Alert severity="info">{answer.message}</Alert>
        {error ? <Alert severity="error">{error}</Alert> : null}
        {enrolment ? (
          <TotpSetup
            enrolment={enrolment}
            submitLabel="Confirm and sign in"
            confirm={async (code) => {
              const confirmed = await confirmTotpDuringSignIn(answer.challenge, code);
              setRecoveryCodes({ codes: confirmed.recoveryCodes, message: confirmed.message });
            }}
          />
        ) : (
          <Button
            variant="contained"
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              try {
                setEnrolment(await startTotpEnrolment(answer.challenge));
              } catch (failure) {
                setError(errorText(failure, 'The set-up could not start. Please sign in again.'));
              }
              setBusy(false);
            }}
          >
            Set up an authenticator app
          </Button>
        )}
        <MuiLink component="button" type="button" onClick={onRestart} sx={{ alignSelf: 'flex-start' }}>
          Start again
        </MuiLink>
      </Box>
    );
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="mfa-challenge">
      <Typography variant="h6" component="h2">
        Two-step verification
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {hasApp && mode === 'code' ? 'Enter the 6-digit code from your authenticator app.' : null}
        {hasApp && mode === 'recovery' ? 'Enter one of the recovery codes you saved when you set up your authenticator app. Each code works once.' : null}
        {!hasApp && hasPasskey ? 'Use your passkey to finish signing in.' : null}
      </Typography>
      {hasApp ? (
        <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <TextField
            key={mode}
            label={mode === 'code' ? 'Authentication code' : 'Recovery code'}
            name={mode === 'code' ? 'code' : 'recovery_code'}
            value={value}
            onChange={(e) => {
              setValue(mode === 'code' ? sixDigits(e.target.value) : e.target.value.toUpperCase().slice(0, 11));
              setError(null);
            }}
            autoComplete="one-time-code"
            slotProps={{ htmlInput: mode === 'code' ? { inputMode: 'numeric', maxLength: 6 } : { maxLength: 11, autoCapitalize: 'characters' } }}
            autoFocus
            fullWidth
          />
          <Button type="submit" variant="contained" size="large" disabled={busy} fullWidth>
            {busy ? 'VERIFYING...' : 'VERIFY'}
          </Button>
          <MuiLink
            component="button"
            type="button"
            onClick={() => {
              setMode(mode === 'code' ? 'recovery' : 'code');
              setValue('');
              setError(null);
            }}
            sx={{ alignSelf: 'flex-start' }}
          >
            {mode === 'code' ? 'Use a recovery code instead' : 'Use the authenticator app instead'}
          </MuiLink>
        </Box>
      ) : null}
      {error ? (
        <Alert severity="error" data-testid="mfa-error">
          {error}
        </Alert>
      ) : null}
      {hasPasskey ? (
        <>
          {hasApp ? <Divider>or</Divider> : null}
          <Button variant={hasApp ? 'outlined' : 'contained'} startIcon={<KeyIcon />} onClick={() => void signInWithPasskey()} disabled={busy} fullWidth>
            Use a passkey
          </Button>
        </>
      ) : null}
      <MuiLink component="button" type="button" onClick={onRestart} sx={{ alignSelf: 'flex-start' }}>
        Sign in as someone else
      </MuiLink>
    </Box>
  );
}
