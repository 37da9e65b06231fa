import type { RebateView } from '@contracts/rebates';
import { formatUsd } from '@domain/money';
import { REJECTION_REASON_MAX } from '@domain/rebates/rebates';
import { Alert, Box, InputAdornment, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { ActionDialog } from '../layout/ActionDialog';
import { RejectionDialog } from '../layout/RejectionDialog';
import { useDialogAction } from '../lists';
import { reviewRebate } from './rebatesApi';

/** The spec's alert for a failed status update, with the server's reason beneath when it gave one. */
export const UPDATE_FAILED = 'Failed to update status';

export function UpdateFailed({ reason }: { reason: string | null }) {
  return (
    <Alert severity="error" sx={{ mt: 2 }} role="alert" data-testid="update-failed">
      <strong>{UPDATE_FAILED}</strong>
      {reason && reason !== UPDATE_FAILED ? (
        <Box component="span" sx={{ display: 'block' }}>
          {reason}
        </Box>
      ) : null}
    </Alert>
  );
}

function Summary({ rebate }: { rebate: RebateView }) {
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
export function ApproveDialog({
  rebate,
  onClose,
  onDone,
}: {
  rebate: RebateView | null;
  onClose: () => void;
  onDone: (updated: RebateView, message: string) => void;
}) {
  const [amount, setAmount] = useState('');
  const [notes, setNotes] = useState('');
  const { busy, error, setError, run } = useDialogAction(UPDATE_FAILED);
  useEffect(() => {
    if (!rebate) return;
    setAmount(rebate.suggested_rebate_amount.toFixed(2));
    setNotes('Approved after review');
    setError(null);
  }, [rebate, setError]);

  const value = Number(amount);
  const invalid = amount.trim() === '' || !Number.isFinite(value) || value < 0 || !/^\d+(\.\d{1,2})?$/.test(amount.trim());
  const submit = async () => {
    if (!rebate || invalid) return;
    await run(
      () => reviewRebate(rebate.id, { status: 'approved', rebate_amount: value, notes }),
      (answer) => {
        onDone(answer.data, answer.message ?? 'Rebate approved successfully');
        onClose();
      },
    );
  };

  return (
    <ActionDialog
      open={Boolean(rebate)}
      titleId="approve-rebate-title"
      title="Approve Rebate"
      busy={busy}
      onClose={onClose}
      onConfirm={submit}
      confirmLabel="Approve Rebate"
      busyLabel="Approving..."
      color="success"
      confirmDisabled={invalid}
      maxWidth="sm"
      dividers
    >
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
        helperText={
          rebate
            ? `Suggested ${formatUsd(rebate.suggested_rebate_amount)}: ${rebate.suggested_rate}% of the purchase, the ${rebate.suggested_tier} rate the organisation holds for that quarter before this claim counts.`
            : ''
        }
        slotProps={{
          input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
          htmlInput: { min: 0, step: 0.01, 'data-testid': 'rebate-amount' },
        }}
      />
      <TextField
        label="Note"
        name="notes"
        value={notes}
        onChange={(event) => setNotes(event.target.value.slice(0, 1000))}
        fullWidth
        multiline
        minRows={2}
        sx={{ mt: 2 }}
      />
      {error ? <UpdateFailed reason={error} /> : null}
    </ActionDialog>
  );
}

/** Reject: a reason of at most 500 characters, which the organisation reads. */
export function RejectDialog({
  rebate,
  onClose,
  onDone,
}: {
  rebate: RebateView | null;
  onClose: () => void;
  onDone: (updated: RebateView, message: string) => void;
}) {
  return (
    <RejectionDialog
      subject={rebate}
      titleId="reject-rebate-title"
      title="Reject Rebate"
      confirmLabel="Reject Rebate"
      summary={rebate ? <Summary rebate={rebate} /> : null}
      reasonName="reason"
      reasonMax={REJECTION_REASON_MAX}
      failure={UPDATE_FAILED}
      failed={(error) => <UpdateFailed reason={error} />}
      reject={(rejected, reason) => reviewRebate(rejected.id, { status: 'rejected', notes: reason })}
      onRejected={(answer) => onDone(answer.data, answer.message ?? 'Rebate rejected successfully')}
      onClose={onClose}
    />
  );
}
