import { isAdminRole, isPermission, isRole, permissionLabel, ROLE_LABELS } from '@domain/access';
import BlockIcon from '@mui/icons-material/Block';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import HistoryIcon from '@mui/icons-material/History';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  MenuItem,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useDataProvider, useGetIdentity, useGetList } from 'react-admin';
import { useToast } from '../layout/toast';
import {
  DateText,
  EmailText,
  EmptyState,
  ListPagination,
  ListToolbar,
  LoadError,
  Loading,
  RecordTable,
  SelectRowBox,
  useListControls,
  useSelection,
  type CsvColumn,
  type ListSortChoice,
  type RecordColumn,
} from '../lists';
import { PartnerShow } from '../partners/PartnerShow';
import type { PartnerRecord } from '../partners/partnersApi';
import { ApiError, messageOf } from '../providers/errorMapper';
import { UserCreate } from './UserCreate';
import { UserEdit } from './UserEdit';
import { UserHistory } from './UserHistory';
import { ADMIN_DELETE_REFUSED, companyOf, deleteConfirmation, LISTED_ROLES, permissionsOf, ROLE_BADGE_COLOURS, usersForList, type UserRecord } from './userRules';
import { eraseUserData, setUsersActive } from './usersApi';
import { useDebounced } from '../layout/useDebounced';

export function RoleBadge({ role }: { role: string }) {
  const colours = ROLE_BADGE_COLOURS[role] ?? { bg: '#eceff1', fg: '#37474f' };
  return (
    <Chip
      size="small"
      label={isRole(role) ? ROLE_LABELS[role] : role}
      data-role={role}
      sx={{ bgcolor: colours.bg, color: colours.fg, fontWeight: 600 }}
    />
  );
}

export function StatusBadge({ active }: { active: boolean }) {
  return <Chip size="small" label={active ? 'Active' : 'Inactive'} color={active ? 'success' : 'default'} variant={active ? 'filled' : 'outlined'} />;
}

function PermissionsSummary({ user }: { user: UserRecord }) {
  if (isAdminRole(user.role)) return <Typography variant="body2">All permissions</Typography>;
  const permissions = permissionsOf(user);
  if (!permissions.length) return <Typography variant="body2" color="text.secondary">None</Typography>;
  const labels = permissions.map((p) => (isPermission(p) ? permissionLabel(p) : p));
  return (
    <Tooltip title={labels.join(', ')}>
      <Chip size="small" variant="outlined" label={`${permissions.length} permission${permissions.length === 1 ? '' : 's'}`} />
    </Tooltip>
  );
}

function RowActions({
  user,
  onEdit,
  onDelete,
  onHistory,
  onDecisions,
  onErase,
}: {
  user: UserRecord;
  onEdit: () => void;
  onDelete: () => void;
  onHistory: () => void;
  /** Absent for the signed-in administrator: nobody erases themselves. */
  onErase?: () => void;
  /** A partner's account: its application's decision history. */
  onDecisions?: () => void;
}) {
  const admin = isAdminRole(user.role);
  return (
    <Box sx={{ display: 'flex', gap: 0.25, justifyContent: 'flex-end' }}>
      {onDecisions ? (
        <Tooltip title="Partner application history">
          <IconButton size="small" aria-label={`Partner application history of ${user.full_name}`} onClick={onDecisions}>
            <FactCheckIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
      <Tooltip title="History">
        <IconButton size="small" aria-label={`History of ${user.full_name}`} onClick={onHistory}>
          <HistoryIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title="Edit">
        <IconButton size="small" aria-label={`Edit ${user.full_name}`} onClick={onEdit}>
          <EditIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {onErase ? (
        <Tooltip title="Erase personal data">
          <IconButton size="small" aria-label={`Erase personal data of ${user.full_name}`} onClick={onErase}>
            <PersonOffIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
      <Tooltip title={admin ? ADMIN_DELETE_REFUSED : 'Delete'}>
        <span>
          <IconButton size="small" aria-label={`Delete ${user.full_name}`} onClick={onDelete} disabled={admin} color="error">
            <DeleteIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
    </Box>
  );
}

const STATUS_FILTERS = [
  { value: '', label: 'All statuses' },
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
] as const;

const SORT_CHOICES: ListSortChoice[] = [
  { field: 'created_at', order: 'DESC', label: 'Newest first' },
  { field: 'created_at', order: 'ASC', label: 'Oldest first' },
  { field: 'full_name', order: 'ASC', label: 'Name A–Z' },
  { field: 'email', order: 'ASC', label: 'Email A–Z' },
  { field: 'company_name', order: 'ASC', label: 'Company A–Z' },
];

const CSV_COLUMNS: CsvColumn<UserRecord>[] = [
  { label: 'Name', value: (u) => u.full_name },
  { label: 'Email', value: (u) => u.email },
  { label: 'Role', value: (u) => (isRole(u.role) ? ROLE_LABELS[u.role] : u.role) },
  { label: 'Company', value: (u) => companyOf(u) },
  { label: 'Status', value: (u) => (u.is_active ? 'Active' : 'Inactive') },
  { label: 'Permissions', value: (u) => (isAdminRole(u.role) ? 'All permissions' : permissionsOf(u).join(' ')) },
  { label: 'Created', value: (u) => u.created_at ?? '' },
];

const DETAIL_COLUMNS_FROM = 'xl';

const columns = (actions: (user: UserRecord) => ReactNode): RecordColumn<UserRecord>[] => [
  { label: 'Name', sortField: 'full_name', render: (user) => user.full_name, cellSx: { fontWeight: 500 } },
  { label: 'Email', sortField: 'email', render: (user) => <EmailText email={user.email} />, cellSx: { maxWidth: 280 } },
  { label: 'Role', sortField: 'role', render: (user) => <RoleBadge role={user.role} /> },
  { label: 'Company', sortField: 'company_name', render: (user) => companyOf(user) || '—' },
  { label: 'Status', sortField: 'is_active', firstOrder: 'DESC', render: (user) => <StatusBadge active={user.is_active} /> },
  // Below xl (1536 px) these two give way so the table fits a 1280 px screen without sideways
  // scrolling: permissions are in the Edit dialog, the creation date in History and the export,
  // and the Sort by menu takes over the Created header's sorting.
  { label: 'Permissions', hideBelow: DETAIL_COLUMNS_FROM, render: (user) => <PermissionsSummary user={user} /> },
  { label: 'Created', sortField: 'created_at', firstOrder: 'DESC', hideBelow: DETAIL_COLUMNS_FROM, render: (user) => <DateText value={user.created_at} /> },
  { label: 'Actions', align: 'right', render: actions },
];

/** User Management: search and filters, Add User, Export, the users table with bulk activate/deactivate, edit, delete and history. */
export function UserList() {
  const dataProvider = useDataProvider();
  const toast = useToast();
  const { identity } = useGetIdentity();
  const detailColumnsHidden = useMediaQuery<Theme>((theme) => theme.breakpoints.down(DETAIL_COLUMNS_FROM));
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [active, setActive] = useState('');
  const query = useDebounced(search.trim(), 300);
  const filter = { ...(query ? { q: query } : {}), ...(role ? { role } : {}), ...(active ? { is_active: active === 'true' } : {}) };
  const controls = useListControls({ sort: { field: 'created_at', order: 'DESC' }, filterKey: JSON.stringify(filter) });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<UserRecord | null>(null);
  const [deleting, setDeleting] = useState<UserRecord | null>(null);
  const [history, setHistory] = useState<UserRecord | null>(null);
  const [decisions, setDecisions] = useState<UserRecord | null>(null);
  const [busy, setBusy] = useState(false);
  const [erasing, setErasing] = useState<UserRecord | null>(null);
  const [eraseReason, setEraseReason] = useState('');
  const [bulkBusy, setBulkBusy] = useState(false);

  const { data, total, isPending, error, refetch } = useGetList<UserRecord>('users', { ...controls.params, filter }, { meta: {} });
  const users = usersForList(data ?? []);
  const selection = useSelection(users.map((u) => u.id));
  const filtered = Boolean(query || role || active);
  const clearFilters = () => {
    setSearch('');
    setRole('');
    setActive('');
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await dataProvider.delete('users', { id: deleting.id, previousData: deleting });
      toast(`User ${deleting.full_name} deleted successfully`, 'success');
      setDeleting(null);
      void refetch();
    } catch (e) {
      if (e instanceof ApiError && e.status !== 0) {
        toast(e.message !== 'An error occurred' ? e.message : 'Failed to delete user', 'error');
      } else {
        toast('An error occurred while deleting the user', 'error');
      }
    } finally {
      setBusy(false);
    }
  };

  const confirmErase = async () => {
    if (!erasing) return;
    setBusy(true);
    try {
      const answer = await eraseUserData(erasing.id, eraseReason.trim());
      toast(answer.message, 'success');
      setErasing(null);
      setEraseReason('');
      void refetch();
    } catch (e) {
      toast(messageOf(e, 'Failed to erase the user'), 'error');
    } finally {
      setBusy(false);
    }
  };

  const setStatusOfSelected = async (isActive: boolean) => {
    setBulkBusy(true);
    try {
      const answer = await setUsersActive(selection.ids, isActive);
      toast(answer.message, 'success');
      selection.clear();
    } catch (e) {
      // All or nothing: the server changed nobody and says which rows stopped it.
      toast(messageOf(e, isActive ? 'Failed to activate the users' : 'Failed to deactivate the users'), 'error');
    } finally {
      setBulkBusy(false);
      void refetch();
    }
  };

  const selfSelected = Boolean(identity && selection.has(String(identity.id)));
  const bulkActions = (
    <>
      <Button size="small" variant="outlined" startIcon={<CheckCircleOutlineIcon />} disabled={bulkBusy} onClick={() => void setStatusOfSelected(true)}>
        Activate
      </Button>
      <Tooltip title={selfSelected ? 'You cannot deactivate your own account' : ''}>
        <span>
          <Button size="small" variant="outlined" color="warning" startIcon={<BlockIcon />} disabled={bulkBusy || selfSelected} onClick={() => void setStatusOfSelected(false)}>
            Deactivate
          </Button>
        </span>
      </Tooltip>
    </>
  );

  const actions = (user: UserRecord) => (
    <RowActions
      user={user}
      onEdit={() => setEditing(user)}
      onDelete={() => setDeleting(user)}
      onHistory={() => setHistory(user)}
      onDecisions={user.role === 'partner' ? () => setDecisions(user) : undefined}
      onErase={identity && String(identity.id) === user.id ? undefined : () => setErasing(user)}
    />
  );

  return (
    <Box>
      <ListToolbar
        search={{ value: search, onChange: setSearch, placeholder: 'Search by name', label: 'Search users by name' }}
        filters={
          <>
            <TextField select size="small" label="Role" value={role} onChange={(event) => setRole(event.target.value)} sx={{ flex: { xs: '1 1 140px', sm: '0 0 170px' } }}>
              <MenuItem value="">All roles</MenuItem>
              {LISTED_ROLES.map((r) => (
                <MenuItem key={r} value={r}>
                  {ROLE_LABELS[r]}
                </MenuItem>
              ))}
            </TextField>
            <TextField select size="small" label="Status" value={active} onChange={(event) => setActive(event.target.value)} sx={{ flex: { xs: '1 1 140px', sm: '0 0 150px' } }}>
              {STATUS_FILTERS.map((choice) => (
                <MenuItem key={choice.value} value={choice.value}>
                  {choice.label}
                </MenuItem>
              ))}
            </TextField>
          </>
        }
        sortChoices={SORT_CHOICES}
        sortMenuAlways={detailColumnsHidden}
        sort={controls.sort}
        onSortChange={controls.setSort}
        exportCsv={{ resource: 'users', filter, sort: controls.sort, fileName: 'users', columns: CSV_COLUMNS, meta: {} }}
        create={{ label: 'Add User', onClick: () => setAdding(true) }}
        selection={selection}
        bulkActions={bulkActions}
      />

      <LoadError error={error} onRetry={refetch} message={(error as Error | null)?.message || 'Failed to load users'} />

      {isPending ? (
        <Loading />
      ) : (
        <RecordTable
          label="Users"
          rows={users}
          rowId={(user) => user.id}
          columns={columns(actions)}
          sort={controls.sort}
          onSort={controls.sortBy}
          selection={selection}
          selectLabel={(user) => `Select ${user.full_name}`}
          rowProps={(user) => ({ 'data-testid': 'user-row', 'data-user': user.email })}
          cardsProps={{ 'data-testid': 'users-cards' }}
          card={(user) => (
            <Card variant="outlined" data-testid="user-row" data-user={user.email}>
              <CardContent sx={{ pb: '12px !important' }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'flex-start' }}>
                  <SelectRowBox selection={selection} id={user.id} label={`Select ${user.full_name}`} />
                  <Box sx={{ minWidth: 0, flex: 1 }}>
                    <Typography variant="subtitle1" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
                      {user.full_name}
                    </Typography>
                    <Typography variant="body2" color="text.secondary" component="div">
                      <EmailText email={user.email} />
                    </Typography>
                  </Box>
                  {actions(user)}
                </Box>
                <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1, alignItems: 'center' }}>
                  <RoleBadge role={user.role} />
                  <StatusBadge active={user.is_active} />
                  <PermissionsSummary user={user} />
                </Box>
                <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 1 }}>
                  {companyOf(user) ? `${companyOf(user)} · ` : ''}Created <DateText value={user.created_at} />
                </Typography>
              </CardContent>
            </Card>
          )}
          empty={
            <EmptyState
              title={filtered ? 'No users found matching your search.' : 'No users yet.'}
              message={filtered ? 'Try another name or clear the filters.' : 'Add the first distributor, manufacturer or support user.'}
              filtered={filtered}
              onClearFilters={clearFilters}
              action={
                <Button variant="contained" onClick={() => setAdding(true)}>
                  Add User
                </Button>
              }
            />
          }
        />
      )}
      <ListPagination total={total} controls={controls} />

      <UserCreate open={adding} onClose={() => setAdding(false)} onCreated={() => void refetch()} />
      <UserEdit record={editing} onClose={() => setEditing(null)} onSaved={() => void refetch()} />
      <UserHistory record={history} onClose={() => setHistory(null)} />
      <PartnerShow
        partner={decisions ? ({ id: decisions.id, company_name: companyOf(decisions) || decisions.full_name } as PartnerRecord) : null}
        onClose={() => setDecisions(null)}
        isAdmin
        initialTab="history"
      />

      <Dialog open={Boolean(erasing)} onClose={() => !busy && setErasing(null)} aria-labelledby="erase-user-title">
        <DialogTitle id="erase-user-title">Erase personal data</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {erasing ? `${erasing.full_name}'s name, e-mail and phone become unreadable everywhere: lists, history, exports and backups. What they did (orders, tickets) stays, shown as by "Erased user", and they are signed out. This cannot be undone.` : ''}
          </DialogContentText>
          <TextField
            label="Reason (kept in the audit log)"
            value={eraseReason}
            onChange={(event) => setEraseReason(event.target.value)}
            required
            fullWidth
            multiline
            minRows={2}
            inputProps={{ maxLength: 500 }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setErasing(null)} disabled={busy}>
            Cancel
          </Button>
          <Button color="error" variant="contained" onClick={() => void confirmErase()} disabled={busy || !eraseReason.trim()}>
            {busy ? 'Erasing...' : 'Erase'}
          </Button>
        </DialogActions>
      </Dialog>

      <Dialog open={Boolean(deleting)} onClose={() => !busy && setDeleting(null)} aria-labelledby="delete-user-title">
        <DialogTitle id="delete-user-title">Delete User</DialogTitle>
        <DialogContent>
          <DialogContentText>{deleting ? deleteConfirmation(deleting.full_name) : ''}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)} disabled={busy}>
            Cancel
          </Button>
          <Button color="error" variant="contained" onClick={() => void confirmDelete()} disabled={busy}>
            {busy ? 'Deleting...' : 'Delete'}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
