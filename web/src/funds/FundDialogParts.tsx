import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress, Stack, TextField } from '@mui/material';
import type { ReactNode } from 'react';
import { ApiError } from '../providers/errorMapper';

/** The server's own words when it gave any, so a refused request or claim says why. */
export const messageOf = (caught: unknown) => (caught instanceof ApiError || caught instanceof Error ? caught.message : 'Something went wrong.');

/**
 * The frame of every funds dialog: title, the last error above the fields, an upload bar while files
 * go up, Cancel and the submit button. While busy it cannot be closed, so a half-sent request is not lost.
 */
export function FundDialog({
  open = true,
  title,
  maxWidth = 'sm',
  busy,
  error,
  progress = null,
  onClose,
  onSubmit,
  submitLabel,
  submitTestId,
  submitColor,
  submitDisabled = false,
  children,
}: {
  open?: boolean;
  title: ReactNode;
  maxWidth?: 'sm' | 'md';
  busy: boolean;
  error: string | null;
  /** Upload progress (0–100) while files are sent. */
  progress?: number | null;
  onClose: () => void;
  onSubmit: () => unknown;
  submitLabel: string;
  submitTestId: string;
  submitColor?: 'warning';
  /** Until the dialog's fields allow sending. */
  submitDisabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth={maxWidth}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5} sx={{ pt: 1 }}>
          {error ? (
            <Alert severity="error" data-testid="form-error">
              {error}
            </Alert>
          ) : null}
          {children}
        </Stack>
        {progress !== null ? <LinearProgress variant="determinate" value={progress} sx={{ mt: 2 }} aria-label="Upload progress" /> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" color={submitColor} onClick={() => void onSubmit()} disabled={busy || submitDisabled} data-testid={submitTestId}>
          {submitLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

interface DateField {
  label: string;
  name: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
}

/** A first and a last day side by side (stacked on phones). */
export function DateRangeFields({ start, end }: { start: DateField; end: DateField }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
      {[start, end].map((field) => (
        <TextField
          key={field.name}
          label={field.label}
          name={field.name}
          type="date"
          value={field.value}
          onChange={field.onChange}
          InputLabelProps={{ shrink: true }}
          fullWidth
        />
      ))}
    </Stack>
  );
}
