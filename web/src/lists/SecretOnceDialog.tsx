import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useToast } from '../layout/toast';

/** A secret the server returns once (an API key): shown with a warning and a copy button, then never again. */
export interface SecretOnce {
  title: string;
  key: string;
  /** Something to know besides the warning (a rotation's overlap). */
  note?: string;
}

export function SecretOnceDialog({
  secret,
  onClose,
  warning,
  copied,
  testId,
  titleId,
}: {
  secret: SecretOnce | null;
  onClose: () => void;
  warning: string;
  /** The toast after a successful copy. */
  copied: string;
  testId: string;
  titleId: string;
}) {
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret?.key ?? '');
      toast(copied, 'success');
    } catch {
      toast('Select the key and copy it by hand.', 'info');
    }
  };
  return (
    <Dialog open={Boolean(secret)} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{secret?.title}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {warning}
        </Alert>
        {secret?.note ? (
          <Alert severity="info" sx={{ mb: 2 }}>
            {secret.note}
          </Alert>
        ) : null}
        <Box data-testid={testId} sx={{ fontFamily: 'monospace', p: 1.5, bgcolor: 'action.hover', borderRadius: 1, wordBreak: 'break-all', userSelect: 'all' }}>
          {secret?.key}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
