import { Alert, Button } from '@mui/material';
import { useSearchParams } from 'react-router-dom';

export type UrlFilter = Record<string, string | boolean>;

/**
 * The list filter a dashboard card links with (`?filter={"active":true}`, react-admin's own
 * parameter): the list then shows exactly the records the card counted. Null without one, or when
 * it is not a flat JSON object.
 */
export function useUrlFilter(): { filter: UrlFilter | null; clear: () => void } {
  const [params, setParams] = useSearchParams();
  const text = params.get('filter');
  let filter: UrlFilter | null = null;
  if (text) {
    try {
      const value: unknown = JSON.parse(text);
      if (value && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string' || typeof v === 'boolean'))
        filter = value as UrlFilter;
    } catch {
      filter = null;
    }
  }
  const clear = () => {
    const next = new URLSearchParams(params);
    next.delete('filter');
    setParams(next, { replace: true });
  };
  return { filter, clear };
}

/** Says that the list shows what a dashboard card counted, with the way back to the whole list. */
export function UrlFilterNotice({ filter, onClear, total }: { filter: UrlFilter | null; onClear: () => void; total?: number }) {
  if (!filter) return null;
  return (
    <Alert
      severity="info"
      sx={{ mb: 2 }}
      data-testid="url-filter-notice"
      action={
        <Button color="inherit" size="small" onClick={onClear}>
          Show all
        </Button>
      }
    >
      Showing {total === undefined ? 'the records' : `the ${total} record${total === 1 ? '' : 's'}`} the dashboard card counted ({describe(filter)}).
    </Alert>
  );
}

const LABELS: Record<string, string> = {
  active: 'active',
  expiring_soon: 'expiring soon',
  awaiting_shipment: 'awaiting shipment',
  urgent: 'urgent',
  overdue: 'overdue',
  open: 'awaiting a decision',
};

function describe(filter: UrlFilter): string {
  return Object.entries(filter)
    .map(([key, value]) => {
      if (typeof value === 'boolean') return value ? (LABELS[key] ?? key.replace(/_/g, ' ')) : `not ${LABELS[key] ?? key.replace(/_/g, ' ')}`;
      if (key === 'date_gte') return `from ${value}`;
      if (key === 'date_lte') return `to ${value}`;
      if (key === 'organisation_id') return 'one organisation';
      return `${key.replace(/_/g, ' ')}: ${value}`;
    })
    .join(', ');
}
