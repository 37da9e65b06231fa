import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useState } from 'react';

/** Asks for one line of text (a reason, a title) before an action; the action's refusal stays in the dialog. */
export function TextDialog({ open, title, label, confirm, required = true, extra, onClose, onConfirm }: {
  open: boolean;
  title: string;
  label: string;
  confirm: string;
  required?: boolean;
  extra?: { label: string; type: string };
  onClose: () => void;
  onConfirm: (text: string, extra: string) => Promise<void>;
}) {
  const [text, setText] = useState('');
  const [second, setSecond] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (required && !text.trim()) return setError(`${label} is required.`);
    setBusy(true);
    try {
      await onConfirm(text.trim(), second);
      setText('');
      setSecond('');
      setError(null);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <TextField autoFocus fullWidth margin="dense" label={label} value={text} onChange={(e) => setText(e.target.value)} error={Boolean(error)} helperText={error ?? ' '} inputProps={{ 'data-testid': 'dialog-text' }} />
        {extra ? <TextField fullWidth margin="dense" type={extra.type} label={extra.label} value={second} onChange={(e) => setSecond(e.target.value)} InputLabelProps={{ shrink: true }} inputProps={{ 'data-testid': 'dialog-extra' }} /> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={busy} data-testid="dialog-confirm">
          {confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
