import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useState } from 'react';
import { useDialogAction } from '../lists';

/** Asks for one line of text (a reason, a title) before an action; the action's refusal stays in the dialog. */
export function TextDialog({
  open,
  title,
  label,
  confirm,
  required = true,
  extra,
  onClose,
  onConfirm,
}: {
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
  // The action's refusal is an Error carrying the server's message.
  const { busy, error, setError, run } = useDialogAction((caught) => (caught as Error).message);
  const submit = async () => {
    if (required && !text.trim()) return setError(`${label} is required.`);
    await run(
      () => onConfirm(text.trim(), second),
      () => {
        setText('');
        setSecond('');
      },
    );
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          margin="dense"
          label={label}
          value={text}
          onChange={(e) => setText(e.target.value)}
          error={Boolean(error)}
          helperText={error ?? ' '}
          inputProps={{ 'data-testid': 'dialog-text' }}
        />
        {extra ? (
          <TextField
            fullWidth
            margin="dense"
            type={extra.type}
            label={extra.label}
            value={second}
            onChange={(e) => setSecond(e.target.value)}
            InputLabelProps={{ shrink: true }}
            inputProps={{ 'data-testid': 'dialog-extra' }}
          />
        ) : null}
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
