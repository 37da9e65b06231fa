import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useDialogAction } from '../lists';
import { messageOf } from '../providers/errorMapper';
import { byRank, listTiers, setOverride, type Standing, type Tier } from './programmeApi';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Holds an organisation at a tier until a date, whatever the evaluations measure, with the reason on record. */
export function OverrideDialog({
  standing,
  open,
  onClose,
  onDone,
}: {
  standing: Standing;
  open: boolean;
  onClose: () => void;
  onDone: (next: Standing, message: string) => void;
}) {
  const [tiers, setTiers] = useState<Tier[]>([]);
  const [tierId, setTierId] = useState('');
  const [reason, setReason] = useState('');
  const [endsOn, setEndsOn] = useState(inDays(90));
  const { busy, error, setError, run } = useDialogAction('The override could not be saved.');
  useEffect(() => {
    if (!open) return;
    setError(null);
    setReason('');
    setEndsOn(inDays(90));
    setTierId(standing.override?.tier.id ?? standing.tier.id);
    listTiers().then(setTiers, (e) => setError(messageOf(e, 'The tiers could not be loaded.')));
  }, [open, standing, setError]);
  const submit = () =>
    run(
      () => setOverride(standing.organisation_id, { tier_id: tierId, reason: reason.trim(), ends_on: endsOn }),
      (answer) => onDone(answer.data, answer.message),
    );
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>Override the tier of {standing.organisation_name}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        {error ? <Alert severity="error">{error}</Alert> : null}
        <TextField select label="Tier" value={tierId} onChange={(e) => setTierId(e.target.value)} data-testid="override-tier">
          {byRank(tiers).map((t) => (
            <MenuItem key={t.id} value={t.id}>
              {t.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          multiline
          minRows={2}
          required
          helperText="Recorded in the organisation's tier history."
          slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'override-reason' } }}
        />
        <TextField
          label="Holds until"
          type="date"
          value={endsOn}
          onChange={(e) => setEndsOn(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'override-ends' } }}
          helperText="After this day the measured tier applies again."
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy || !tierId || reason.trim().length < 3 || !endsOn} data-testid="override-save">
          Save override
        </Button>
      </DialogActions>
    </Dialog>
  );
}
