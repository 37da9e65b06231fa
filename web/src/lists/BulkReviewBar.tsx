import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { Button } from '@mui/material';
import type { BulkDecision } from './BulkReviewDialog';
import { BulkBar } from './ListToolbar';
import type { Selection } from './selection';

/** Approve and Reject for the ticked records, each opening the BulkReviewDialog with its decision. */
export function BulkReviewButtons({ onReview }: { onReview: (decision: BulkDecision) => void }) {
  return (
    <>
      <Button size="small" variant="contained" color="success" startIcon={<CheckIcon />} onClick={() => onReview('approved')}>
        Approve
      </Button>
      <Button size="small" variant="outlined" color="error" startIcon={<CloseIcon />} onClick={() => onReview('rejected')}>
        Reject
      </Button>
    </>
  );
}

/** The bulk bar of a list without a ListToolbar, while records awaiting a decision are ticked. */
export function BulkReviewBar({ selection, onReview }: { selection: Selection; onReview: (decision: BulkDecision) => void }) {
  return (
    <BulkBar selection={selection}>
      <BulkReviewButtons onReview={onReview} />
    </BulkBar>
  );
}
