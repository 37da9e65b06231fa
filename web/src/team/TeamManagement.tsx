import { isAdminRole } from '@domain/access';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Alert, Box, Button, Card, CardContent, MenuItem, TextField, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useAccess } from '../access/usePrincipal';
import { HistoryDrawer } from '../history';
import {
  DateText,
  EmailText,
  EmptyState,
  nextSort,
  RecordTable,
  RowAction,
  RowActions,
  SearchField,
  useDialogAction,
  type ListSort,
  type RecordColumn,
} from '../lists';
import { ActionDialog } from '../layout/ActionDialog';
import { Loading } from '../layout/ListStates';
import { PageTitle } from '../layout/PageTitle';
import { useToast } from '../layout/toast';
import { useDebounced } from '../layout/useDebounced';
import { AccessRestricted } from '../orders/AccessRestricted';
import { ApiError } from '../providers/errorMapper';
import { deleteTeamMember, listTeam, type TeamKind, type TeamMember, type TeamSortField } from './teamApi';
import { MemberStatus, STATUS_CHIPS } from './MemberStatus';
import { TeamMemberDetails } from './TeamMemberDetails';
import { TeamMemberFormDialog } from './TeamMemberForm';
import { showingText, TEAM_TEXTS } from './teamRules';

const PAGE_SIZE = 10;
type StatusFilter = 'all' | 'active' | 'inactive';
type SortField = TeamSortField;

const csvCell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** Every member the filters select, as CSV (all pages). */
async function exportTeam(kind: TeamKind, search: string, isActive: boolean | undefined): Promise<void> {
  const rows: TeamMember[] = [];
  for (let page = 1; ; page++) {
    const batch = await listTeam(kind, { page, limit: 100, search: search || undefined, isActive });
    rows.push(...batch.subUsers);
    if (page >= batch.totalPages) break;
  }
  const lines = [
    ['Name', 'Email', 'Status', 'Permissions', 'Joined'],
    ...rows.map((m) => [m.full_name, m.email, STATUS_CHIPS[m.status].label, m.permissions.join(' '), m.created_at.slice(0, 10)]),
  ];
  const blob = new Blob([lines.map((line) => line.map(csvCell).join(',')).join('\n')], { type: 'text/csv' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `team-members-${new Date().toISOString().slice(0, 10)}.csv`;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** /partner/team-management and /distributor/team-management: the owner's own team. */
export default function TeamManagement({ kind }: { kind: TeamKind }) {
  const { role } = useAccess();
  const toast = useToast();
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 300);
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<ListSort>({ field: 'created_at', order: 'DESC' });
  const [members, setMembers] = useState<TeamMember[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState<{ member: TeamMember | null } | null>(null);
  const [viewing, setViewing] = useState<TeamMember | null>(null);
  const [deleting, setDeleting] = useState<TeamMember | null>(null);
  const [history, setHistory] = useState<TeamMember | null>(null);
  const deletion = useDialogAction(
    (e) => (e instanceof ApiError && e.status !== 0 && e.message ? e.message : TEAM_TEXTS.deleteFailed),
    (message) => toast(message, 'error'),
  );
  const owner = role === kind || isAdminRole(role);
  const isActive = status === 'all' ? undefined : status === 'active';

  const load = useCallback(async () => {
    setError(null);
    try {
      const result = await listTeam(kind, {
        page,
        limit: PAGE_SIZE,
        search: query || undefined,
        isActive,
        sort: { field: sort.field as SortField, order: sort.order },
      });
      setMembers(result.subUsers);
      setTotal(result.total);
    } catch (e) {
      if (!(e instanceof ApiError && e.handled)) setError(TEAM_TEXTS.loadError);
    }
  }, [kind, page, query, isActive, sort]);

  useEffect(() => setPage(1), [query, status]);
  useEffect(() => {
    if (owner) void load();
  }, [load, owner]);

  if (!owner) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <PageTitle title={TEAM_TEXTS.title} />
        <AccessRestricted>Team management is for the {kind} account that owns the team.</AccessRestricted>
      </Box>
    );
  }

  // Every column's first click sorts ascending, dates included, as this screen always has.
  const sortBy = (field: string) => setSort((current) => nextSort(current, field, 'ASC'));

  const confirmDelete = async () => {
    if (!deleting) return;
    await deletion.run(
      () => deleteTeamMember(kind, deleting.id),
      (answer) => {
        toast(answer.message || TEAM_TEXTS.deleted, 'success');
        setDeleting(null);
        void load();
      },
    );
  };

  const actions = (member: TeamMember) => (
    <RowActions>
      {kind === 'distributor' ? (
        <RowAction title="View" label={`View ${member.full_name}`} icon={<VisibilityIcon fontSize="small" />} onClick={() => setViewing(member)} />
      ) : null}
      <RowAction title="History" label={`History of ${member.full_name}`} icon={<HistoryIcon fontSize="small" />} onClick={() => setHistory(member)} />
      <RowAction title="Edit" label={`Edit ${member.full_name}`} icon={<EditIcon fontSize="small" />} onClick={() => setForm({ member })} />
      <RowAction title="Delete" label={`Delete ${member.full_name}`} icon={<DeleteIcon fontSize="small" />} onClick={() => setDeleting(member)} color="error" />
    </RowActions>
  );

  const columns: RecordColumn<TeamMember>[] = [
    { label: 'Name', sortField: 'full_name', cellSx: { fontWeight: 500 }, render: (member) => member.full_name },
    { label: 'Email', sortField: 'email', cellSx: { maxWidth: 280 }, render: (member) => <EmailText email={member.email} /> },
    { label: 'Status', sortField: 'is_active', render: (member) => <MemberStatus member={member} /> },
    { label: 'Joined', sortField: 'created_at', render: (member) => <DateText value={member.created_at} /> },
    { label: 'Actions', align: 'right', render: actions },
  ];

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle title={TEAM_TEXTS.title} subtitle="Add colleagues, choose what each may do, and manage their access." />
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <SearchField
          placeholder="Search team members..."
          inputLabel="Search team members"
          value={search}
          onChange={setSearch}
          sx={{ flex: { xs: '1 1 100%', sm: '0 1 300px' } }}
        />
        <TextField
          select
          size="small"
          label="Status"
          fullWidth={false}
          value={status}
          onChange={(event) => setStatus(event.target.value as StatusFilter)}
          sx={{ width: 160, flex: '0 0 auto' }}
        >
          <MenuItem value="all">All</MenuItem>
          <MenuItem value="active">Active</MenuItem>
          <MenuItem value="inactive">Inactive</MenuItem>
        </TextField>
        <Box sx={{ flex: 1 }} />
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() => void exportTeam(kind, query, isActive).catch(() => toast('The export failed. Please try again.', 'error'))}
          disabled={!total}
        >
          Export
        </Button>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setForm({ member: null })}>
          {TEAM_TEXTS.add}
        </Button>
      </Box>

      {error ? (
        <Alert
          severity="error"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => void load()}>
              Try Again
            </Button>
          }
        >
          {error}
        </Alert>
      ) : members === null ? (
        <Loading />
      ) : (
        <RecordTable
          label="Team members"
          rows={members}
          rowId={(member) => member.id}
          columns={columns}
          sort={sort}
          onSort={sortBy}
          rowProps={() => ({ 'data-testid': 'team-row' })}
          card={(member) => (
            <Card variant="outlined" data-testid="team-row">
              <CardContent sx={{ pb: '12px !important' }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
                  <Box sx={{ minWidth: 0 }}>
                    <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                      {member.full_name}
                    </Typography>
                    <Typography variant="body2" color="text.secondary" component="div">
                      <EmailText email={member.email} />
                    </Typography>
                  </Box>
                  {actions(member)}
                </Box>
                <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 1 }}>
                  <MemberStatus member={member} />
                  <Typography variant="caption" color="text.secondary">
                    Joined <DateText value={member.created_at} />
                  </Typography>
                </Box>
              </CardContent>
            </Card>
          )}
          empty={
            <Box data-testid="team-empty">
              <EmptyState
                title={query || status !== 'all' ? TEAM_TEXTS.emptySearch : TEAM_TEXTS.empty}
                filtered={Boolean(query || status !== 'all')}
                onClearFilters={() => {
                  setSearch('');
                  setStatus('all');
                }}
                action={
                  <Button variant="contained" startIcon={<AddIcon />} onClick={() => setForm({ member: null })}>
                    {TEAM_TEXTS.add}
                  </Button>
                }
              />
            </Box>
          }
        />
      )}

      {members && members.length > 0 ? (
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mt: 2, flexWrap: 'wrap' }}>
          <Typography variant="body2" color="text.secondary" data-testid="team-showing">
            {showingText(page, PAGE_SIZE, members.length, total)}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button size="small" variant="outlined" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              Previous
            </Button>
            <Button size="small" variant="outlined" disabled={page * PAGE_SIZE >= total} onClick={() => setPage((p) => p + 1)}>
              Next
            </Button>
          </Box>
        </Box>
      ) : null}

      <TeamMemberFormDialog kind={kind} open={form !== null} member={form?.member ?? null} onClose={() => setForm(null)} onSaved={() => void load()} />
      <TeamMemberDetails member={viewing} onClose={() => setViewing(null)} />
      <HistoryDrawer
        path={`/${kind}/management/sub-users`}
        record={history ? { id: history.id, name: history.full_name } : null}
        onClose={() => setHistory(null)}
      />

      <ActionDialog
        open={Boolean(deleting)}
        titleId="delete-member-title"
        title="Delete Team Member"
        message={deleting ? `Are you sure you want to delete ${deleting.full_name}? They will be signed out and can no longer sign in.` : ''}
        busy={deletion.busy}
        onClose={() => setDeleting(null)}
        onConfirm={confirmDelete}
        confirmLabel="Delete"
        busyLabel="Deleting..."
      />
    </Box>
  );
}
