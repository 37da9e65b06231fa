import { useState } from 'react';
import { ActionDialog } from '../layout/ActionDialog';
import { useToast } from '../layout/toast';
import { useDialogAction } from './useDialogAction';

/**
 * Deleting one record of a list after the user confirms: `ask` opens the confirmation, `dialog`
 * is the dialog to render. A failure is shown as a toast and the dialog stays open to try again.
 */
export function useDeleteDialog<T>({
  titleId,
  title,
  confirmation,
  failure,
  remove,
  deleted,
  onDeleted,
}: {
  titleId: string;
  title: string;
  confirmation: (record: T) => string;
  failure: (error: unknown) => string;
  remove: (record: T) => Promise<unknown>;
  /** The success toast. */
  deleted: (record: T) => string;
  /** After the success toast, with the dialog closed: refresh the list. */
  onDeleted: () => void;
}) {
  const toast = useToast();
  const [deleting, setDeleting] = useState<T | null>(null);
  const deletion = useDialogAction(failure, (message) => toast(message, 'error'));

  const confirm = async () => {
    if (!deleting) return;
    await deletion.run(
      () => remove(deleting),
      () => {
        toast(deleted(deleting), 'success');
        setDeleting(null);
        onDeleted();
      },
    );
  };

  const dialog = (
    <ActionDialog
      open={Boolean(deleting)}
      titleId={titleId}
      title={title}
      message={deleting ? confirmation(deleting) : ''}
      busy={deletion.busy}
      onClose={() => setDeleting(null)}
      onConfirm={confirm}
      confirmLabel="Delete"
      busyLabel="Deleting..."
    />
  );
  return { ask: setDeleting, busy: deletion.busy, dialog };
}
