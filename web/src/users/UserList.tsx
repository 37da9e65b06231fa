import { isAdminRole, isPermission, isRole, permissionLabel, ROLE_LABELS } from '@domain/access';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import SearchIcon from '@mui/icons-material/Search';
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
  InputAdornment,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useDataProvider, useGetList } from 'react-admin';
import { formatDate } from '../formatting';
import { useToast } from '../layout/toast';
import { ApiError } from '../providers/errorMapper';
import { UserCreate } from './UserCreate';
import { UserEdit } from './UserEdit';
import { UserHistory } from './UserHistory';
import { ADMIN_DELETE_REFUSED, companyOf, deleteConfirmation, permissionsOf, ROLE_BADGE_COLOURS, usersForList, type UserRecord } from './userRules';
import { useDebounced } from '../layout/useDebounced';
import { LoadError, Loading } from '../layout/ListStates';

const PAGE_SIZE = 10;

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

function RowActions({ user, onEdit, onDelete, onHistory }: { user: UserRecord; onEdit: () => void; onDelete: () => void; onHistory: () => void }) {
  const admin = isAdminRole(user.role);
  return (
    <Box sx={{ display: 'flex', gap: 0.25, justifyContent: 'flex-end' }}>
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

/** An e-mail address that wraps only after the @. */
function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at < 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}


/** User Management: search, Add User, the users table, edit, delete and history. */
export function UserList() {
  const dataProvider = useDataProvider();
  const toast = useToast();
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 300);
  const [page, setPage] = useState(0);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<UserRecord | null>(null);
  const [deleting, setDeleting] = useState<UserRecord | null>(null);
  const [history, setHistory] = useState<UserRecord | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => setPage(0), [query]);

  const { data, total, isPending, error, refetch } = useGetList<UserRecord>(
    'users',
    {
      pagination: { page: page + 1, perPage: PAGE_SIZE },
      sort: { field: 'created_at', order: 'DESC' },
      filter: query ? { search: query } : {},
    },
    { meta: {} },
  );
  const users = usersForList(data ?? []);

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

  const actions = (user: UserRecord) => (
    <RowActions user={user} onEdit={() => setEditing(user)} onDelete={() => setDeleting(user)} onHistory={() => setHistory(user)} />
  );

  return (
    <Box>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', mb: 2 }}>
        <TextField
          size="small"
          placeholder="Search by name"
          aria-label="Search users by name"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          sx={{ flex: { xs: '1 1 100%', sm: '0 1 320px' } }}
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
        />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)} sx={{ flex: { xs: '1 1 100%', sm: '0 0 auto' } }}>
          Add User
        </Button>
      </Box>

      <LoadError error={error} onRetry={refetch} message={(error as Error | null)?.message || 'Failed to load users'} />

      {isPending ? (
        <Loading />
      ) : users.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {query ? 'No users found matching your search.' : 'No users yet.'}
        </Typography>
      ) : phone ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }} data-testid="users-cards">
          {users.map((user) => (
            <Card key={user.id} variant="outlined" data-testid="user-row">
              <CardContent sx={{ pb: '12px !important' }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'flex-start' }}>
                  <Box sx={{ minWidth: 0 }}>
                    <Typography variant="subtitle1" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
                      {user.full_name}
                    </Typography>
                    <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
                      {user.email}
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
                  {companyOf(user) ? `${companyOf(user)} · ` : ''}Created {formatDate(user.created_at)}
                </Typography>
              </CardContent>
            </Card>
          ))}
        </Box>
      ) : (
        <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper' }}>
          <Table size="small" aria-label="Users">
            <TableHead>
              <TableRow>
                {['Name', 'Email', 'Role', 'Company', 'Status', 'Permissions', 'Date', 'Actions'].map((column) => (
                  <TableCell key={column} align={column === 'Actions' ? 'right' : 'left'} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                    {column}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {users.map((user) => (
                <TableRow key={user.id} hover data-testid="user-row">
                  <TableCell sx={{ fontWeight: 500 }}>{user.full_name}</TableCell>
                  <TableCell>
                    <EmailText email={user.email} />
                  </TableCell>
                  <TableCell>
                    <RoleBadge role={user.role} />
                  </TableCell>
                  <TableCell>{companyOf(user) || '—'}</TableCell>
                  <TableCell>
                    <StatusBadge active={user.is_active} />
                  </TableCell>
                  <TableCell>
                    <PermissionsSummary user={user} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(user.created_at)}</TableCell>
                  <TableCell align="right">{actions(user)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {total !== undefined && total > PAGE_SIZE ? (
        <TablePagination
          component="div"
          count={total}
          page={page}
          rowsPerPage={PAGE_SIZE}
          rowsPerPageOptions={[PAGE_SIZE]}
          onPageChange={(_, next) => setPage(next)}
        />
      ) : null}

      <UserCreate open={adding} onClose={() => setAdding(false)} onCreated={() => void refetch()} />
      <UserEdit record={editing} onClose={() => setEditing(null)} onSaved={() => void refetch()} />
      <UserHistory record={history} onClose={() => setHistory(null)} />

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
