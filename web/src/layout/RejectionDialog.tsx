import type { SxProps, Theme } from '@mui/material';
import { useEffect, useState, type ReactNode } from 'react';
import { useDialogAction } from '../lists/useDialogAction';
import { ActionDialog } from './ActionDialog';
import { RejectionReasonField } from './RejectionReasonField';

/**
 * Rejecting one record with a reason its owner reads: open while there is a `subject`, each
 * subject starting with an empty reason and no error. A failure keeps the dialog open with the
 * server's reason; success hands over the answer and closes.
 */
export function RejectionDialog<Subject, Answer>({
  subject,
  titleId,
  title,
  confirmLabel,
  summary,
  reasonName,
  reasonMax,
  reasonSx,
  failure,
  failed,
  reject,
  onRejected,
  onClose,
}: {
  subject: Subject | null;
  titleId: string;
  title: string;
  confirmLabel: string;
  /** What is being rejected, above the reason. */
  summary: ReactNode;
  reasonName: string;
  reasonMax: number;
  reasonSx?: SxProps<Theme>;
  /** The message when the server gave none of its own. */
  failure: string;
  /** How the failure is shown below the reason. */
  failed: (error: string) => ReactNode;
  reject: (subject: Subject, reason: string) => Promise<Answer>;
  onRejected: (answer: Answer) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const { busy, error, setError, run } = useDialogAction(failure);

  useEffect(() => {
    if (!subject) return;
    setReason('');
    setError(null);
  }, [subject, setError]);

  const blank = reason.trim() === '';
  const submit = async () => {
    if (!subject || blank) return;
    await run(
      () => reject(subject, reason.trim()),
      (answer) => {
        onRejected(answer);
        onClose();
      },
    );
  };

  return (
    <ActionDialog
      open={Boolean(subject)}
      titleId={titleId}
      title={title}
      busy={busy}
      onClose={onClose}
      onConfirm={submit}
      confirmLabel={confirmLabel}
      busyLabel="Rejecting..."
      confirmDisabled={blank}
      maxWidth="sm"
      dividers
    >
      {summary}
      <RejectionReasonField name={reasonName} value={reason} onChange={setReason} max={reasonMax} sx={reasonSx} />
      {error ? failed(error) : null}
    </ActionDialog>
  );
}
