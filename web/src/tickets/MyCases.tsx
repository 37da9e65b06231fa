import type { Ticket, TicketAssignee, TicketStatistics } from '@contracts/tickets';
import { TICKET_PRIORITIES, TICKET_STATUSES } from '@domain/tickets/tickets';
import AddIcon from '@mui/icons-material/Add';
import { Box, Button, MenuItem, Pagination, Paper, TextField, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { UrlFilterNotice, useUrlFilter } from '../lists/useUrlFilter';
import { useAccess } from '../access/usePrincipal';
import { LoadError, Loading } from '../layout/ListStates';
import { useDebounced } from '../layout/useDebounced';
import { isSupportStaffRole, OverdueChip, TicketPriorityChip, TicketStatusChip } from './ticketLabels';
import { TicketCreateDialog } from './TicketCreateDialog';
import { TicketDetail } from './TicketDetail';
import { getAssignees, getTicketStatistics, listQueue, listTickets } from './ticketsApi';
import { DateText, EmptyState } from '../lists';

/** Spec 002 §9: tickets page size 10. */
/** A resolved or closed case has no due time left to show. */
const isSettled = (status: string) => status === 'Resolved' || status === 'Closed';

export const TICKETS_PAGE_SIZE = 10;

function Stat({ label, value, highlight }: { label: string; value: number | undefined; highlight?: boolean }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5, borderColor: highlight && value ? 'error.main' : undefined }}>
      <Typography variant="body2" color="text.secondary" noWrap>
        {label}
      </Typography>
      <Typography
        variant="h5"
        component="p"
        sx={{ fontWeight: 700, color: highlight && value ? 'error.main' : undefined }}
        data-testid={`ticket-stat-${label}`}
      >
        {value ?? '—'}
      </Typography>
    </Paper>
  );
}

function TicketRow({ ticket, staff, onOpen, onOrganisation }: { ticket: Ticket; staff: boolean; onOpen: () => void; onOrganisation: () => void }) {
  return (
    <Paper
      variant="outlined"
      data-testid="ticket-row"
      sx={{
        p: 1.5,
        display: 'grid',
        gap: 0.5,
        cursor: 'pointer',
        borderLeftWidth: 4,
        borderLeftColor: ticket.is_overdue ? 'error.main' : 'divider',
        '&:hover': { bgcolor: 'action.hover' },
      }}
      onClick={onOpen}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
          {ticket.ticket_id}
        </Typography>
        <TicketStatusChip status={ticket.status} />
        <TicketPriorityChip priority={ticket.priority} />
        {ticket.is_overdue ? <OverdueChip /> : null}
      </Box>
      <Button
        variant="text"
        onClick={onOpen}
        sx={{ justifyContent: 'flex-start', textTransform: 'none', p: 0, fontWeight: 600, textAlign: 'left', wordBreak: 'break-word' }}
      >
        {ticket.title}
      </Button>
      <Typography variant="body2" color="text.secondary">
        {ticket.category} ·{' '}
        {isSettled(ticket.status) ? (
          <>{ticket.status} </>
        ) : (
          <>
            Due <DateText value={ticket.due_date} />{' '}
          </>
        )}
        · {ticket.assignee?.full_name ? `Assigned to ${ticket.assignee.full_name}` : 'Unassigned'} · {ticket.comment_count} comment
        {ticket.comment_count === 1 ? '' : 's'}
      </Typography>
      {staff && ticket.company_name ? (
        <Box>
          <Button
            size="small"
            sx={{ p: 0, minWidth: 0, textTransform: 'none' }}
            onClick={(event) => {
              event.stopPropagation();
              onOrganisation();
            }}
          >
            {ticket.company_name}
          </Button>
        </Box>
      ) : null}
    </Paper>
  );
}

/**
 * My Cases: the caller's organisation's tickets; for support staff and admins, the queue of every
 * organisation's tickets sorted by due time, with assignee and organisation filters.
 */
export function MyCases() {
  const { role, canDo } = useAccess();
  const staff = isSupportStaffRole(role);
  const [params, setParams] = useSearchParams();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  const [priority, setPriority] = useState('');
  const [assignedTo, setAssignedTo] = useState('');
  const [organisation, setOrganisation] = useState<{ id: string; name: string } | null>(null);
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebounced(search, 300);
  const [rows, setRows] = useState<Ticket[] | null>(null);
  const [total, setTotal] = useState(0);
  const [stats, setStats] = useState<TicketStatistics | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [creating, setCreating] = useState(false);
  const [assignees, setAssignees] = useState<TicketAssignee[]>([]);
  const openTicket = params.get('ticket');
  const { filter: cardFilter, clear: clearCardFilter } = useUrlFilter();
  const cardFilterText = cardFilter ? JSON.stringify(cardFilter) : '';

  const load = useCallback(async () => {
    setError(null);
    try {
      // A dashboard card's link shows exactly what the card counted; the filters apply once it is cleared.
      const query = cardFilter
        ? { page, limit: TICKETS_PAGE_SIZE, extra: cardFilter }
        : { page, limit: TICKETS_PAGE_SIZE, status, priority, assigned_to: assignedTo, organisation_id: organisation?.id, search: debouncedSearch.trim() };
      if (staff) {
        const [queue, statistics] = await Promise.all([listQueue({ ...query, sort: ['due_at', 'ASC'] }), getTicketStatistics()]);
        setRows(queue.tickets);
        setTotal(queue.total);
        setStats(statistics);
      } else {
        const answer = await listTickets(query);
        setRows(answer.tickets);
        setTotal(answer.pagination.total);
        setStats(answer.statistics);
      }
    } catch (failure) {
      console.error(failure);
      setError(failure);
    }
    // The card's filter is a new object on every render; its text form says when it really changed.
  }, [page, status, priority, assignedTo, organisation, debouncedSearch, staff, cardFilterText]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (staff) getAssignees().then(setAssignees, (failure) => console.error(failure));
  }, [staff]);

  const filter = (setter: (value: string) => void) => (event: React.ChangeEvent<HTMLInputElement>) => {
    setter(event.target.value);
    setPage(1);
  };
  const showTicket = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set('ticket', id);
    else next.delete('ticket');
    setParams(next, { replace: !id });
  };
  const pages = Math.max(1, Math.ceil(total / TICKETS_PAGE_SIZE));

  return (
    <Box>
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))', md: `repeat(${staff ? 6 : 5}, minmax(0, 1fr))` },
          mb: 2,
        }}
      >
        <Stat label="Total" value={stats?.total} />
        <Stat label="Open" value={stats?.open} />
        <Stat label="In Progress" value={stats?.in_progress} />
        <Stat label="Resolved" value={stats?.resolved} />
        <Stat label="Closed" value={stats?.closed} />
        {staff ? <Stat label="Overdue" value={stats?.overdue} highlight /> : null}
      </Box>
      <UrlFilterNotice filter={cardFilter} onClear={clearCardFilter} total={cardFilter && rows ? total : undefined} />

      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mb: 2 }}>
        <TextField select size="small" label="Status" value={status} onChange={filter(setStatus)} fullWidth={false} sx={{ width: { xs: '100%', sm: 150 } }}>
          <MenuItem value="">All statuses</MenuItem>
          {TICKET_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Priority"
          value={priority}
          onChange={filter(setPriority)}
          fullWidth={false}
          sx={{ width: { xs: '100%', sm: 150 } }}
        >
          <MenuItem value="">All priorities</MenuItem>
          {TICKET_PRIORITIES.map((p) => (
            <MenuItem key={p} value={p}>
              {p}
            </MenuItem>
          ))}
        </TextField>
        {staff ? (
          <>
            <TextField
              select
              size="small"
              label="Assignee"
              value={assignedTo}
              onChange={filter(setAssignedTo)}
              fullWidth={false}
              sx={{ width: { xs: '100%', sm: 170 } }}
            >
              <MenuItem value="">Everyone</MenuItem>
              <MenuItem value="unassigned">Unassigned</MenuItem>
              {assignees.map((u) => (
                <MenuItem key={u.id} value={u.id}>
                  {u.full_name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              size="small"
              label="Search number, title or company"
              value={search}
              onChange={filter(setSearch)}
              fullWidth={false}
              sx={{ width: { xs: '100%', sm: 220 } }}
            />
            {organisation ? (
              <Button
                size="small"
                variant="outlined"
                onClick={() => {
                  setOrganisation(null);
                  setPage(1);
                }}
              >
                Organisation: {organisation.name} ✕
              </Button>
            ) : null}
          </>
        ) : null}
        <Box sx={{ flexGrow: 1 }} />
        {canDo('create-support-case') ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
            Create Ticket
          </Button>
        ) : null}
      </Box>

      <LoadError error={error} message="Failed to load tickets" onRetry={load} />
      {!rows && !error ? <Loading /> : null}
      {rows && rows.length === 0 ? <EmptyState title="No tickets found" message="Tickets you open, or that are assigned to you, appear here." /> : null}
      <Box sx={{ display: 'grid', gap: 1 }}>
        {(rows ?? []).map((ticket) => (
          <TicketRow
            key={ticket.id}
            ticket={ticket}
            staff={staff}
            onOpen={() => showTicket(ticket.id)}
            onOrganisation={() => {
              setOrganisation({ id: ticket.organisation_id, name: ticket.company_name ?? ticket.organisation_id });
              setPage(1);
            }}
          />
        ))}
      </Box>
      {pages > 1 ? (
        <Pagination sx={{ mt: 2, display: 'flex', justifyContent: 'center' }} count={pages} page={page} onChange={(_, value) => setPage(value)} />
      ) : null}

      <TicketCreateDialog
        open={creating}
        staff={staff}
        onClose={() => setCreating(false)}
        onCreated={(ticket) => {
          setCreating(false);
          void load();
          showTicket(ticket.id);
        }}
      />
      <TicketDetail ticketId={openTicket} staff={staff} onClose={() => showTicket(null)} onChanged={() => void load()} />
    </Box>
  );
}
