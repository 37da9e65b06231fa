import type { RebateOverview } from '@contracts/rebates';
import { Alert, Button } from '@mui/material';
import type { ReactElement } from 'react';
import { Loading } from '../layout/ListStates';

/** What the Overview and Progress tabs are given: the one overview RebatesPage reads for both. */
export interface OverviewTabProps {
  overview: RebateOverview | null;
  error: unknown;
  loading: boolean;
  onRetry: () => void;
}

/**
 * What a tab shows instead of the overview: the failure with Try again, or the spinner while the
 * first overview loads (a reload keeps the figures on screen). Null when the tab shows its own content.
 */
export function overviewPlaceholder({ overview, error, loading, onRetry }: OverviewTabProps): ReactElement | null {
  if (error) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            Try again
          </Button>
        }
      >
        Error loading data
      </Alert>
    );
  }
  if (loading && !overview) return <Loading />;
  return null;
}
