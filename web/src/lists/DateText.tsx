import { Tooltip } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { exactTime, relativeTime } from './relativeTime';

/**
 * A date as a relative time ("3 days ago") with the exact moment on hover and focus, so a date is
 * never read the wrong way round (03/04) and the exact time is always one pointer away.
 */
export function DateText({ value, empty = '—' }: { value: string | Date | null | undefined; empty?: string }) {
  const label = relativeTime(value);
  const exact = exactTime(value);
  if (!label || !exact) return <>{empty}</>;
  const iso = (value instanceof Date ? value : new Date(value as string)).toISOString();
  return (
    <Tooltip title={exact} describeChild>
      <time dateTime={iso} tabIndex={0} style={{ whiteSpace: 'nowrap' }} data-exact={exact}>
        {label}
      </time>
    </Tooltip>
  );
}

/** DateText as a react-admin field, for Datagrid and SimpleList. */
export function RelativeDateField({ source }: { source: string; label?: string; sortable?: boolean }) {
  const record = useRecordContext();
  return <DateText value={record?.[source] as string | null | undefined} />;
}
