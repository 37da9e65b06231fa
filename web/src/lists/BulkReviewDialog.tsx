import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItem, ListItemText, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useDialogAction } from './useDialogAction';

export type BulkDecision = 'approved' | 'rejected';

/** The server's answer to a bulk action: which records were done, and which were refused and why. */
export interface BulkOutcome {
  succeeded: string[];
  refused: Array<{ id: string; code: string; message: string }>;
}

/**
 * Approve or reject the ticked records with one reason (required to reject). The server reviews
 * each record on its own; when some were refused the dialog stays open and names each one with
 * the server's reason, so nothing fails quietly.
 */
export function BulkReviewDialog({
  decision,
  count,
  noun,
  approveNote,
  reasonMax = 500,
  nameOf,
  onSubmit,
  onClose,
  onDone,
}: {
  /** Null while closed. */
  decision: BulkDecision | null;
  count: number;
  /** Singular and plural: ['registration', 'registrations']. */
  noun: [string, string];
  /** What approval does beyond the decision, shown above the note (for example the amount each claim gets). */
  approveNote?: string;
  reasonMax?: number;
  /** How a record is named in the list of refusals. */
  nameOf: (id: string) => string;
  onSubmit: (decision: BulkDecision, reason: string) => Promise<{ message?: string; data: BulkOutcome }>;
  onClose: () => void;
  /** After the server answered (some or all done): refresh the list, tell the user. */
  onDone: (outcome: BulkOutcome, message: string) => void;
}) {
  const [reason, setReason] = useState('');
  const { busy, error, setError, run } = useDialogAction('The review failed. Nothing was changed.');
  const [refused, setRefused] = useState<BulkOutcome['refused'] | null>(null);
  // The count as it was when sent: the list clears its ticks once the server has answered.
  const [sent, setSent] = useState(count);
  useEffect(() => {
    if (!decision) return;
    setReason('');
    setError(null);
    setRefused(null);
  }, [decision, setError]);

  const rejecting = decision === 'rejected';
  const trimmed = reason.trim();
  const invalid = (rejecting && !trimmed) || trimmed.length > reasonMax;
  const words = `${count} ${count === 1 ? noun[0] : noun[1]}`;
  const title = rejecting ? `Reject ${words}` : `Approve ${words}`;

  const submit = async () => {
    if (!decision || invalid) return;
    setSent(count);
    await run(
      () => onSubmit(decision, trimmed),
      (answer) => {
        onDone(answer.data, answer.message ?? title);
        if (answer.data.refused.length) setRefused(answer.data.refused);
        else onClose();
      },
    );
  };

  return (
    <Dialog
      open={Boolean(decision)}
      onClose={() => !busy && onClose()}
      fullWidth
      maxWidth="sm"
      aria-labelledby="bulk-review-title"
      data-testid="bulk-review-dialog"
    >
      <DialogTitle id="bulk-review-title">{refused ? 'Some could not be changed' : title}</DialogTitle>
      <DialogContent dividers>
        {refused ? (
          <>
            <Alert severity="warning" role="alert">
              {refused.length} of {sent} {sent === 1 ? noun[0] : noun[1]} {refused.length === 1 ? 'was' : 'were'} not {rejecting ? 'rejected' : 'approved'}; the
              others were.
            </Alert>
            <List dense data-testid="bulk-refusals">
              {refused.map((r) => (
                <ListItem key={r.id} disableGutters>
                  <ListItemText primary={nameOf(r.id)} secondary={r.message} slotProps={{ primary: { sx: { fontWeight: 600, overflowWrap: 'anywhere' } } }} />
                </ListItem>
              ))}
            </List>
          </>
        ) : (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {rejecting
                ? `The reason is recorded on each of the ${words} and shown to their partners.`
                : `Each of the ${words} is approved on its own; any that can no longer be approved is listed afterwards.`}
              {!rejecting && approveNote ? ` ${approveNote}` : ''}
            </Typography>
            <TextField
              autoFocus
              fullWidth
              multiline
              minRows={3}
              label={rejecting ? 'Reason for rejection' : 'Note (optional)'}
              name="reason"
              required={rejecting}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              error={trimmed.length > reasonMax}
              helperText={trimmed.length > reasonMax ? `At most ${reasonMax} characters.` : `${trimmed.length}/${reasonMax}`}
            />
            {error ? (
              <Alert severity="error" sx={{ mt: 2 }} role="alert">
                {error}
              </Alert>
            ) : null}
          </>
        )}
      </DialogContent>
      <DialogActions>
        {refused ? (
          <Button variant="contained" onClick={onClose}>
            Close
          </Button>
        ) : (
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button variant="contained" color={rejecting ? 'error' : 'success'} onClick={() => void submit()} disabled={busy || invalid}>
              {busy ? 'Working…' : rejecting ? 'Reject' : 'Approve'}
            </Button>
          </Box>
        )}
      </DialogActions>
    </Dialog>
  );
}
