import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * A dialog that asks for one action: its title, what it will do, Cancel and the action's button.
 * While the action runs the dialog stays open (no click outside, no Cancel) and the button says so.
 */
export function ActionDialog({
  open,
  titleId,
  title,
  message,
  children,
  busy,
  onClose,
  onConfirm,
  confirmLabel,
  busyLabel,
  color = 'error',
  confirmDisabled = false,
  maxWidth,
  fullScreen,
  dividers,
}: {
  open: boolean;
  /** The title's id, which labels the dialog. */
  titleId: string;
  title: ReactNode;
  /** The question or warning, above any fields of the dialog. */
  message?: ReactNode;
  children?: ReactNode;
  busy: boolean;
  onClose: () => void;
  onConfirm: () => unknown;
  confirmLabel: string;
  busyLabel: string;
  color?: 'error' | 'warning' | 'success' | 'primary';
  /** Until the dialog's fields are complete. */
  confirmDisabled?: boolean;
  /** A full-width dialog of that size; the dialog fits its text otherwise. */
  maxWidth?: 'sm' | 'md';
  fullScreen?: boolean;
  dividers?: boolean;
}) {
  return (
    <Dialog
      open={open}
      onClose={() => !busy && onClose()}
      fullWidth={maxWidth !== undefined}
      maxWidth={maxWidth}
      fullScreen={fullScreen}
      aria-labelledby={titleId}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers={dividers}>
        {message !== undefined ? <DialogContentText sx={children ? { mb: 2 } : undefined}>{message}</DialogContentText> : null}
        {children}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button color={color} variant="contained" onClick={() => void onConfirm()} disabled={busy || confirmDisabled}>
          {busy ? busyLabel : confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
