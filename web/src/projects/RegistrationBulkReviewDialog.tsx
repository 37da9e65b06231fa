import { useToast } from '../layout/toast';
import { BulkReviewDialog, type BulkDecision, type Selection } from '../lists';
import { bulkReviewRegistrations, type ProjectRecord } from './projectsApi';

/**
 * Approves or rejects the ticked registrations with one reason. The toast warns when the server
 * refused some; the ticks are cleared either way, since what was done is done.
 */
export function RegistrationBulkReviewDialog({
  decision,
  selection,
  registrations,
  onClose,
  onReviewed,
}: {
  decision: BulkDecision | null;
  selection: Selection;
  /** The rows shown, to name the refused ones. */
  registrations: readonly ProjectRecord[];
  onClose: () => void;
  /** After the server answered: refresh the list. */
  onReviewed: () => void;
}) {
  const toast = useToast();
  return (
    <BulkReviewDialog
      decision={decision}
      count={selection.count}
      noun={['registration', 'registrations']}
      nameOf={(id) => registrations.find((p) => p.id === id)?.title ?? id}
      onSubmit={(chosen, reason) => bulkReviewRegistrations(selection.ids, chosen, reason)}
      onClose={onClose}
      onDone={(outcome, message) => {
        toast(message, outcome.refused.length ? 'warning' : 'success');
        selection.clear();
        onReviewed();
      }}
    />
  );
}
