import { Button, Dialog, DialogActions, DialogContent, DialogTitle, useMediaQuery, type Theme } from '@mui/material';
import type { ReactNode } from 'react';
import { Form, type RaRecord } from 'react-admin';
import { useFormState } from 'react-hook-form';

/** Cancel and the submit button, both disabled while the form is being saved. */
function Actions({ onClose, submitLabel, busyLabel }: { onClose: () => void; submitLabel: string; busyLabel: string }) {
  const { isSubmitting } = useFormState();
  return (
    <DialogActions sx={{ px: 3, pb: 2 }}>
      <Button onClick={onClose} disabled={isSubmitting}>
        Cancel
      </Button>
      <Button type="submit" variant="contained" disabled={isSubmitting}>
        {isSubmitting ? busyLabel : submitLabel}
      </Button>
    </DialogActions>
  );
}

/**
 * The dialog of Add User and Edit User: full screen on phones, the form mounted only while open so
 * each opening starts from `record`. `onSubmit` answers the server's field errors, if any.
 */
export function UserFormDialog({
  record,
  titleId,
  title,
  submitLabel,
  busyLabel,
  onSubmit,
  onClose,
  children,
}: {
  /** The form's starting values; the dialog is closed without one. */
  record: Partial<RaRecord> | null;
  titleId: string;
  title: string;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (values: Record<string, unknown>) => Promise<Record<string, string> | undefined>;
  onClose: () => void;
  children: ReactNode;
}) {
  const fullScreen = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  return (
    <Dialog open={Boolean(record)} onClose={onClose} fullWidth maxWidth="md" fullScreen={fullScreen} aria-labelledby={titleId}>
      {record ? (
        <Form onSubmit={onSubmit} record={record} sanitizeEmptyValues={false}>
          <DialogTitle id={titleId}>{title}</DialogTitle>
          <DialogContent dividers>{children}</DialogContent>
          <Actions onClose={onClose} submitLabel={submitLabel} busyLabel={busyLabel} />
        </Form>
      ) : null}
    </Dialog>
  );
}
