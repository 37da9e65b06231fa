import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, Paper, TextField, Typography } from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import type { TotpEnrolAnswer } from '@contracts/identity';
import { ApiError, DEFAULT_RESPONSE_MESSAGE } from '../providers/errorMapper';
import { API_URL, httpClient } from '../providers/httpClient';

/** The authenticator app's set-up: its URI, the same as a QR code, and the secret for typing in. */
export type TotpEnrolment = TotpEnrolAnswer['data'];

export const errorText = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.message && error.message !== DEFAULT_RESPONSE_MESSAGE
    ? error.message
    : error instanceof Error && !(error instanceof ApiError) && error.message
      ? error.message
      : fallback;

/** Starts setting up an authenticator app: signed in, or (no session yet) with the sign-in's challenge. */
export async function startTotpEnrolment(challenge?: string): Promise<TotpEnrolment> {
  const { json } = await httpClient<TotpEnrolAnswer>(`${API_URL}/auth/mfa/totp/enrol`, {
    method: 'POST',
    body: challenge ? { challenge } : {},
    anonymous: Boolean(challenge),
  });
  return json.data;
}

/** Six digits, as an authenticator app shows them (spaces typed in are dropped). */
export const sixDigits = (value: string) => value.replace(/\D/g, '').slice(0, 6);

/**
 * The QR code of a new authenticator app, its secret for typing in by hand, and the code that confirms it.
 * `confirm` throws with the server's message when the code is wrong.
 */
export function TotpSetup({
  enrolment,
  confirm,
  submitLabel = 'Confirm',
}: {
  enrolment: TotpEnrolment;
  confirm: (code: string) => Promise<void>;
  submitLabel?: string;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== 6) {
      setError('Enter the 6-digit code from your authenticator app.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await confirm(code);
    } catch (failure) {
      setError(errorText(failure, 'The code could not be checked. Please try again.'));
      setBusy(false);
    }
  };
  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="totp-setup">
      <Typography variant="body2">1. Scan this QR code with your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, …).</Typography>
      <Box sx={{ display: 'flex', justifyContent: 'center' }}>
        <Box
          component="img"
          src={enrolment.qr_image}
          alt="QR code for your authenticator app"
          sx={{ width: 200, height: 200, border: 1, borderColor: 'divider', borderRadius: 1 }}
        />
      </Box>
      <Typography variant="body2" color="text.secondary">
        Cannot scan? Type this key in instead:
      </Typography>
      <Paper
        variant="outlined"
        sx={{ p: 1, fontFamily: 'monospace', wordBreak: 'break-all', textAlign: 'center', bgcolor: 'grey.50' }}
        data-testid="totp-secret"
      >
        {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
      </Paper>
      <Typography variant="body2">2. Enter the 6-digit code the app shows.</Typography>
      <TextField
        label="Code"
        name="code"
        value={code}
        onChange={(e) => {
          setCode(sixDigits(e.target.value));
          setError(null);
        }}
        autoComplete="one-time-code"
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6, 'aria-label': 'Code from your authenticator app' } }}
        fullWidth
      />
      {error ? <Alert severity="error">{error}</Alert> : null}
      <Button type="submit" variant="contained" disabled={busy || code.length !== 6}>
        {busy ? 'Checking…' : submitLabel}
      </Button>
    </Box>
  );
}

/** The ten recovery codes, shown this once: copy or download them before going on. */
export function RecoveryCodes({ codes, onDone, doneLabel = 'I have saved my recovery codes' }: { codes: string[]; onDone: () => void; doneLabel?: string }) {
  const [copied, setCopied] = useState(false);
  const text = `PartnerHub recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const [href, setHref] = useState<string | null>(null);
  useEffect(() => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    setHref(url);
    return () => URL.revokeObjectURL(url);
  }, [text]);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="recovery-codes">
      <Alert severity="warning">
        Save these recovery codes now: they are shown only this once. Each one signs you in once if your authenticator app is not at hand.
      </Alert>
      <Paper variant="outlined" sx={{ p: 1.5, bgcolor: 'grey.50' }}>
        <Box component="ol" sx={{ m: 0, pl: 3, columns: { xs: 1, sm: 2 }, fontFamily: 'monospace', fontSize: '1rem' }}>
          {codes.map((code) => (
            <li key={code} data-testid="recovery-code">
              {code}
            </li>
          ))}
        </Box>
      </Paper>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
        {href ? (
          <Button startIcon={<DownloadIcon />} component="a" href={href} download="partnerhub-recovery-codes.txt">
            Download
          </Button>
        ) : null}
      </Box>
      <Button variant="contained" onClick={onDone}>
        {doneLabel}
      </Button>
    </Box>
  );
}
