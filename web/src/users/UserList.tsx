import type { UserView } from '@contracts/identity';
import { isAdminRole, isPermission, isRole, permissionLabel, ROLE_LABELS } from '@domain/access';
import BlockIcon from '@mui/icons-material/Block';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import HistoryIcon from '@mui/icons-material/History';
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkErase';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import { Box, Button, Card, CardContent, Chip, TextField, Tooltip, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useDataProvider, useGetIdentity } from 'react-admin';
import { ActionDialog } from '../layout/ActionDialog';
import { useToast } from '../layout/toast';
import {
  alphabetical,
  DateText,
  EmailText,
  FilteredListTable,
  FilteredListToolbar,
  NEWEST_FIRST,
  OLDEST_FIRST,
  RowAction,
  RowActions,
  SelectRowBox,
  useDeleteDialog,
  useDialogAction,
  useFilteredList,
  type CsvColumn,
  type ListFilter,
  type ListSortChoice,
  type RecordColumn,
} from '../lists';
import { PartnerShow } from '../partners/PartnerShow';
import type { PartnerRecord } from '../partners/partnersApi';
import { answerMessageOf, messageOf } from '../providers/errorMapper';
import { UserCreate } from './UserCreate';
import { UserEdit } from './UserEdit';
import { UserHistory } from './UserHistory';
import { ADMIN_DELETE_REFUSED, companyOf, deleteConfirmation, LISTED_ROLES, permissionsOf, ROLE_BADGE_COLOURS, usersForList } from './userRules';
import { eraseUserData, resetSecondFactors, setUsersActive } from './usersApi';

export function RoleBadge({ role }: { role: string }) {
  const colours = ROLE_BADGE_COLOURS[role] ?? { bg: '#eceff1', fg: '#37474f' };
  return (
    <Chip size="small" label={isRole(role) ? ROLE_LABELS[role] : role} data-role={role} sx={{ bgcolor: colours.bg, color: colours.fg, fontWeight: 600 }} />
  );
}

export function StatusBadge({ active }: { active: boolean }) {
  return <Chip size="small" label={active ? 'Active' : 'Inactive'} color={active ? 'success' : 'default'} variant={active ? 'filled' : 'outlined'} />;
}

function PermissionsSummary({ user }: { user: UserView }) {
  if (isAdminRole(user.role)) return <Typography variant="body2">All permissions</Typography>;
  const permissions = permissionsOf(user);
  if (!permissions.length)
    return (
      <Typography variant="body2" color="text.secondary">
        None
      </Typography>
    );
  const labels = permissions.map((p) => (isPermission(p) ? permissionLabel(p) : p));
  return (
    <Tooltip title={labels.join(', ')}>
      <Chip size="small" variant="outlined" label={`${permissions.length} permission${permissions.length === 1 ? '' : 's'}`} />
    </Tooltip>
  );
}

function UserRowActions({
  user,
  onEdit,
  onDelete,
  onHistory,
  onDecisions,
  onErase,
  onResetFactors,
}: {
  user: UserView;
  /** Removes the person's second factors (a lost phone), with a reason. */
  onResetFactors: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onHistory: () => void;
  /** Absent for the signed-in administrator: nobody erases themselves. */
  onErase?: () => void;
  /** A partner's account: its application's decision history. */
  onDecisions?: () => void;
}) {
  const admin = isAdminRole(user.role);
  const name = user.full_name;
  return (
    <RowActions>
      {onDecisions ? (
        <RowAction
          title="Partner application history"
          label={`Partner application history of ${name}`}
          icon={<FactCheckIcon fontSize="small" />}
          onClick={onDecisions}
        />
      ) : null}
      <RowAction title="History" label={`History of ${name}`} icon={<HistoryIcon fontSize="small" />} onClick={onHistory} />
      <RowAction title="Edit" label={`Edit ${name}`} icon={<EditIcon fontSize="small" />} onClick={onEdit} />
      <RowAction
        title="Reset second factors"
        label={`Reset second factors of ${name}`}
        icon={<PhonelinkEraseIcon fontSize="small" />}
        onClick={onResetFactors}
      />
      {onErase ? (
        <RowAction title="Erase personal data" label={`Erase personal data of ${name}`} icon={<PersonOffIcon fontSize="small" />} onClick={onErase} />
      ) : null}
      <RowAction
        title={admin ? ADMIN_DELETE_REFUSED : 'Delete'}
        label={`Delete ${name}`}
        icon={<DeleteIcon fontSize="small" />}
        onClick={onDelete}
        disabled={admin}
        color="error"
      />
    </RowActions>
  );
}

/** The reason an administrator gives for resetting or erasing a person's account. */
function AuditReasonField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <TextField
      label="Reason (kept in the audit log)"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      required
      fullWidth
      multiline
      minRows={2}
      inputProps={{ maxLength: 500 }}
    />
  );
}

const FILTERS: ListFilter<'role' | 'active'>[] = [
  {
    field: 'role',
    label: 'Role',
    choices: [{ value: '', label: 'All roles' }, ...LISTED_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))],
    sx: { flex: { xs: '1 1 140px', sm: '0 0 170px' } },
  },
  {
    field: 'active',
    label: 'Status',
    choices: [
      { value: '', label: 'All statuses' },
      { value: 'true', label: 'Active' },
      { value: 'false', label: 'Inactive' },
    ],
    sx: { flex: { xs: '1 1 140px', sm: '0 0 150px' } },
  },
];

const SORT_CHOICES: ListSortChoice[] = [
  NEWEST_FIRST,
  OLDEST_FIRST,
  alphabetical('full_name', 'Name'),
  alphabetical('email', 'Email'),
  alphabetical('company_name', 'Company'),
];

const CSV_COLUMNS: CsvColumn<UserView>[] = [
  { label: 'Name', value: (u) => u.full_name },
  { label: 'Email', value: (u) => u.email },
  { label: 'Role', value: (u) => (isRole(u.role) ? ROLE_LABELS[u.role] : u.role) },
  { label: 'Company', value: (u) => companyOf(u) },
  { label: 'Status', value: (u) => (u.is_active ? 'Active' : 'Inactive') },
  { label: 'Permissions', value: (u) => (isAdminRole(u.role) ? 'All permissions' : permissionsOf(u).join(' ')) },
  { label: 'Created', value: (u) => u.created_at ?? '' },
];

const DETAIL_COLUMNS_FROM = 'xl';

const columns = (actions: (user: UserView) => ReactNode): RecordColumn<UserView>[] => [
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
  const list = useFilteredList<UserView, 'role' | 'active'>('users', {
    sort: { field: 'created_at', order: 'DESC' },
    fields: ['role', 'active'],
    toFilter: ({ role, active }) => ({ ...(role ? { role } : {}), ...(active ? { is_active: active === 'true' } : {}) }),
    rows: usersForList,
    getListOptions: { meta: {} },
  });
  const { error, refetch, selection } = list;
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<UserView | null>(null);
  const [history, setHistory] = useState<UserView | null>(null);
  const [decisions, setDecisions] = useState<UserView | null>(null);
  const [erasing, setErasing] = useState<UserView | null>(null);
  const [eraseReason, setEraseReason] = useState('');
  const [resetting, setResetting] = useState<UserView | null>(null);
  const [resetReason, setResetReason] = useState('');
  const [bulkBusy, setBulkBusy] = useState(false);

  const create = { label: 'Add User', onClick: () => setAdding(true) };
  const toastFailure = (message: string) => toast(message, 'error');
  const deletion = useDeleteDialog<UserView>({
    titleId: 'delete-user-title',
    title: 'Delete User',
    confirmation: (user) => deleteConfirmation(user.full_name),
    failure: (e) => answerMessageOf(e, 'Failed to delete user', 'An error occurred while deleting the user'),
    remove: (user) => dataProvider.delete('users', { id: user.id, previousData: user }),
    deleted: (user) => `User ${user.full_name} deleted successfully`,
    onDeleted: () => void refetch(),
  });
  const reset = useDialogAction('The second factors could not be reset', toastFailure);
  const erasure = useDialogAction('Failed to erase the user', toastFailure);
  const busy = deletion.busy || reset.busy || erasure.busy;

  const confirmReset = async () => {
    if (!resetting) return;
    await reset.run(
      () => resetSecondFactors(resetting.id, resetReason.trim()),
      (answer) => {
        toast(answer.message, 'success');
        setResetting(null);
        setResetReason('');
      },
    );
  };

  const confirmErase = async () => {
    if (!erasing) return;
    await erasure.run(
      () => eraseUserData(erasing.id, eraseReason.trim()),
      (answer) => {
        toast(answer.message, 'success');
        setErasing(null);
        setEraseReason('');
        void refetch();
      },
    );
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
          <Button
            size="small"
            variant="outlined"
            color="warning"
            startIcon={<BlockIcon />}
            disabled={bulkBusy || selfSelected}
            onClick={() => void setStatusOfSelected(false)}
          >
            Deactivate
          </Button>
        </span>
      </Tooltip>
    </>
  );

  const actions = (user: UserView) => (
    <UserRowActions
      user={user}
      onEdit={() => setEditing(user)}
      onDelete={() => deletion.ask(user)}
      onHistory={() => setHistory(user)}
      onDecisions={user.role === 'partner' ? () => setDecisions(user) : undefined}
      onErase={identity && String(identity.id) === user.id ? undefined : () => setErasing(user)}
      onResetFactors={() => setResetting(user)}
    />
  );

  return (
    <Box>
      <FilteredListToolbar
        list={list}
        search={{ placeholder: 'Search by name', label: 'Search users by name' }}
        filters={FILTERS}
        sortChoices={SORT_CHOICES}
        sortMenuAlways={detailColumnsHidden}
        exportCsv={{ resource: 'users', fileName: 'users', columns: CSV_COLUMNS, meta: {} }}
        create={create}
        bulkActions={bulkActions}
      />

      <FilteredListTable
        list={list}
        loadErrorMessage={(error as Error | null)?.message || 'Failed to load users'}
        noneFound={{ title: 'No users found matching your search.', message: 'Try another name or clear the filters.' }}
        noneYet={{ title: 'No users yet.', message: 'Add the first distributor, manufacturer or support user.' }}
        create={create}
        label="Users"
        rowId={(user) => user.id}
        columns={columns(actions)}
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
      />

      <UserCreate open={adding} onClose={() => setAdding(false)} onCreated={() => void refetch()} />
      <UserEdit record={editing} onClose={() => setEditing(null)} onSaved={() => void refetch()} />
      <UserHistory record={history} onClose={() => setHistory(null)} />
      <PartnerShow
        partner={decisions ? ({ id: decisions.id, company_name: companyOf(decisions) || decisions.full_name } as PartnerRecord) : null}
        onClose={() => setDecisions(null)}
        isAdmin
        initialTab="history"
      />

      <ActionDialog
        open={Boolean(resetting)}
        titleId="reset-factors-title"
        title="Reset second factors"
        message={
          resetting
            ? `${resetting.full_name}'s authenticator app, recovery codes and passkeys are removed: they sign in with their password alone (and set up a new factor first if one is required). Check who is asking before you do this.`
            : ''
        }
        busy={busy}
        onClose={() => setResetting(null)}
        onConfirm={confirmReset}
        confirmLabel="Reset"
        busyLabel="Resetting..."
        color="warning"
        confirmDisabled={!resetReason.trim()}
      >
        <AuditReasonField value={resetReason} onChange={setResetReason} />
      </ActionDialog>

      <ActionDialog
        open={Boolean(erasing)}
        titleId="erase-user-title"
        title="Erase personal data"
        message={
          erasing
            ? `${erasing.full_name}'s name, e-mail and phone become unreadable everywhere: lists, history, exports and backups. What they did (orders, tickets) stays, shown as by "Erased user", and they are signed out. This cannot be undone.`
            : ''
        }
        busy={busy}
        onClose={() => setErasing(null)}
        onConfirm={confirmErase}
        confirmLabel="Erase"
        busyLabel="Erasing..."
        confirmDisabled={!eraseReason.trim()}
      >
        <AuditReasonField value={eraseReason} onChange={setEraseReason} />
      </ActionDialog>

      {deletion.dialog}
    </Box>
  );
}
