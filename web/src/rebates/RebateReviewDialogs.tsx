import { formatUsd } from '@domain/catalogue/catalogue';
import { REJECTION_REASON_MAX } from '@domain/rebates/rebates';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, InputAdornment, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { messageOf } from '../providers/errorMapper';
import { reviewRebate, type RebateRecord } from './rebatesApi';

/** The spec's alert for a failed status update, with the server's reason beneath when it gave one. */
export const UPDATE_FAILED = 'Failed to update status';

export function UpdateFailed({ reason }: { reason: string | null }) {
  return (
    <Alert severity="error" sx={{ mt: 2 }} role="alert" data-testid="update-failed">
      <strong>{UPDATE_FAILED}</strong>
      {reason && reason !== UPDATE_FAILED ? <Box component="span" sx={{ display: 'block' }}>{reason}</Box> : null}
    </Alert>
  );
}

function Summary({ rebate }: { rebate: RebateRecord }) {
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
        {rebate.company_name} · {rebate.invoice_number}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {rebate.product_name} · purchase {formatUsd(rebate.purchase_amount)}
      </Typography>
      {rebate.match_note ? (
        <Typography variant="body2" color="info.main" sx={{ mt: 0.5 }}>
          {rebate.match_note}
        </Typography>
      ) : null}
    </Box>
  );
}

/** Approve: the rebate amount starts at the suggested one (purchase × the organisation's rate) and may be changed. */
export function ApproveDialog({ rebate, onClose, onDone }: { rebate: RebateRecord | null; onClose: () => void; onDone: (updated: RebateRecord, message: string) => void }) {
  const [amount, setAmount] = useState('');
  const [notes, setNotes] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!rebate) return;
    setAmount(rebate.suggested_rebate_amount.toFixed(2));
    setNotes('Approved after review');
    setError(null);
  }, [rebate]);

  const value = Number(amount);
  const invalid = amount.trim() === '' || !Number.isFinite(value) || value < 0 || !/^\d+(\.\d{1,2})?$/.test(amount.trim());
  const submit = async () => {
    if (!rebate || invalid) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await reviewRebate(rebate.id, { status: 'approved', rebate_amount: value, notes });
      onDone(answer.data, answer.message ?? 'Rebate approved successfully');
      onClose();
    } catch (e) {
      setError(messageOf(e, UPDATE_FAILED));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={Boolean(rebate)} onClose={() => !busy && onClose()} fullWidth maxWidth="sm" aria-labelledby="approve-rebate-title">
      <DialogTitle id="approve-rebate-title">Approve Rebate</DialogTitle>
      <DialogContent dividers>
        {rebate ? <Summary rebate={rebate} /> : null}
        <TextField
          label="Rebate amount"
          name="rebate_amount"
          type="number"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          required
          fullWidth
          error={amount !== '' && invalid}
          helperText={rebate ? `Suggested ${formatUsd(rebate.suggested_rebate_amount)}: ${rebate.suggested_rate}% of the purchase, the ${rebate.suggested_tier} rate the organisation holds for that quarter before this claim counts.` : ''}
          slotProps={{ input: { startAdornment: <InputAdornment position="start">$</InputAdornment> }, htmlInput: { min: 0, step: 0.01, 'data-testid': 'rebate-amount' } }}
        />
        <TextField label="Note" name="notes" value={notes} onChange={(event) => setNotes(event.target.value.slice(0, 1000))} fullWidth multiline minRows={2} sx={{ mt: 2 }} />
        {error ? <UpdateFailed reason={error} /> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" color="success" onClick={() => void submit()} disabled={busy || invalid}>
          {busy ? 'Approving...' : 'Approve Rebate'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Reject: a reason of at most 500 characters, which the organisation reads. */
export function RejectDialog({ rebate, onClose, onDone }: { rebate: RebateRecord | null; onClose: () => void; onDone: (updated: RebateRecord, message: string) => void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!rebate) return;
    setReason('');
    setError(null);
  }, [rebate]);

  const blank = reason.trim() === '';
  const submit = async () => {
    if (!rebate || blank) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await reviewRebate(rebate.id, { status: 'rejected', notes: reason.trim() });
      onDone(answer.data, answer.message ?? 'Rebate rejected successfully');
      onClose();
    } catch (e) {
      setError(messageOf(e, UPDATE_FAILED));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={Boolean(rebate)} onClose={() => !busy && onClose()} fullWidth maxWidth="sm" aria-labelledby="reject-rebate-title">
      <DialogTitle id="reject-rebate-title">Reject Rebate</DialogTitle>
      <DialogContent dividers>
        {rebate ? <Summary rebate={rebate} /> : null}
        <TextField
          label="Reason for rejection"
          name="reason"
          value={reason}
          onChange={(event) => setReason(event.target.value.slice(0, REJECTION_REASON_MAX))}
          required
          multiline
          minRows={4}
          fullWidth
          slotProps={{ htmlInput: { maxLength: REJECTION_REASON_MAX } }}
          helperText={
            <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
              <span>The reason is shared with the partner.</span>
              <span data-testid="reason-counter">
                {reason.length}/{REJECTION_REASON_MAX}
              </span>
            </Box>
          }
        />
        {error ? <UpdateFailed reason={error} /> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" color="error" onClick={() => void submit()} disabled={busy || blank}>
          {busy ? 'Rejecting...' : 'Reject Rebate'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
