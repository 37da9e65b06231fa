import { Chip } from '@mui/material';

const STATUS_COLOURS: Record<string, 'info' | 'warning' | 'success' | 'default'> = {
  Open: 'info',
  'In Progress': 'warning',
  Resolved: 'success',
  Closed: 'default',
};
const PRIORITY_COLOURS: Record<string, 'default' | 'info' | 'warning' | 'error'> = { Low: 'default', Medium: 'info', High: 'warning', Critical: 'error' };

export function TicketStatusChip({ status }: { status: string }) {
  return <Chip size="small" label={status} color={STATUS_COLOURS[status] ?? 'default'} />;
}

export function TicketPriorityChip({ priority }: { priority: string }) {
  return <Chip size="small" variant="outlined" label={priority} color={PRIORITY_COLOURS[priority] ?? 'default'} />;
}

export function OverdueChip() {
  return <Chip size="small" label="Overdue" color="error" data-testid="overdue-chip" />;
}

/** Support staff and admins: they work tickets, see internal notes and the whole queue. */
export const isSupportStaffRole = (role: string | null | undefined) => role === 'support' || role === 'admin' || role === 'administrator';
