import CancelIcon from '@mui/icons-material/Cancel';
import VerifiedIcon from '@mui/icons-material/Verified';
import { Alert, Box, Button, CircularProgress, Paper, Stack, TextField, Typography } from '@mui/material';
import type { VerificationAnswer } from '@contracts/learning';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { usePageTitle } from '../layout/PageTitle';
import { formatDay } from './learningApi';

/**
 * /verify-certificate/:code, open to anyone (an employer, a customer): whether the code belongs to a
 * valid certification, of which course and for which dates. The server tells nothing about the person.
 */
export default function VerifyCertificate() {
  usePageTitle('Verify a certificate');
  const { code = '' } = useParams();
  const navigate = useNavigate();
  const [typed, setTyped] = useState(code);
  const [answer, setAnswer] = useState<VerificationAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setAnswer(null);
    setError(null);
    if (!code) return;
    fetch(`/api/certifications/verify/${encodeURIComponent(code)}`, { headers: { accept: 'application/json' } })
      .then(async (response) => {
        if (response.status === 429) throw new Error('Too many checks from this address: wait a minute and try again.');
        if (response.status === 400) throw new Error('That is not a verification code: it has letters, digits and dashes only, as printed on the certificate.');
        if (!response.ok) throw new Error('The code could not be checked. Please try again.');
        setAnswer((await response.json()) as VerificationAnswer);
      })
      .catch((caught: Error) => setError(caught.message));
  }, [code]);

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'flex-start', justifyContent: 'center', bgcolor: 'grey.100', p: 2, pt: { xs: 4, sm: 10 } }}>
      <Paper sx={{ p: { xs: 2.5, sm: 4 }, width: '100%', maxWidth: 520 }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 2 }}>
          Verify a certificate
        </Typography>
        <Stack
          component="form"
          direction="row"
          spacing={1}
          sx={{ mb: 2 }}
          onSubmit={(event) => {
            event.preventDefault();
            if (typed.trim()) navigate(`/verify-certificate/${encodeURIComponent(typed.trim())}`);
          }}
        >
          <TextField
            size="small"
            label="Verification code"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            fullWidth
            slotProps={{ htmlInput: { maxLength: 64 } }}
          />
          <Button type="submit" variant="contained">
            Check
          </Button>
        </Stack>
        {error ? <Alert severity="error">{error}</Alert> : null}
        {code && !answer && !error ? <CircularProgress size={28} /> : null}
        {answer ? (
          answer.valid ? (
            <Alert severity="success" icon={<VerifiedIcon />} data-testid="verification-valid">
              <strong>Valid.</strong> {answer.course} — issued {formatDay(answer.issued_at)}, valid until {formatDay(answer.expires_at)}.
            </Alert>
          ) : (
            <Alert severity="warning" icon={<CancelIcon />} data-testid="verification-invalid">
              {answer.course
                ? `Not valid: this certification of ${answer.course} expired on ${formatDay(answer.expires_at)}.`
                : 'No valid certification has this code.'}
            </Alert>
          )
        ) : null}
      </Paper>
    </Box>
  );
}
