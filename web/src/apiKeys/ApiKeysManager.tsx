import type { ApiKeyOptions, ApiKeyView } from '@contracts/apiKeys';
import DownloadIcon from '@mui/icons-material/Download';
import KeyIcon from '@mui/icons-material/Key';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { formatDate, formatDateTime } from '../formatting';
import { LoadError, Loading } from '../layout/ListStates';
import { SearchField, SelectFilter } from '../lists';
import { SecretOnceDialog, type SecretOnce } from '../lists/SecretOnceDialog';
import { useToast } from '../layout/toast';
import { ApiError } from '../providers/errorMapper';
import { apiKeysApi, type ApiKeyOwnerKind } from './apiKeysApi';

type Status = ApiKeyView['status'];
type SortField = 'name' | 'expires_at' | 'last_used_at' | 'status' | 'created_at';
const STATUS_LABELS: Record<Status, string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };
const STATUS_CHOICES = (Object.keys(STATUS_LABELS) as Status[]).map((value) => ({ value, label: STATUS_LABELS[value] }));
const STATUS_COLOURS: Record<Status, 'success' | 'warning' | 'default'> = { active: 'success', expired: 'warning', revoked: 'default' };
const OVERLAPS = [
  { hours: 0, label: 'None: the old key stops at once' },
  { hours: 1, label: '1 hour' },
  { hours: 24, label: '24 hours' },
  { hours: 72, label: '3 days' },
  { hours: 168, label: '7 days' },
];
const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const csvCell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The list as the screen shows it (filtered and sorted), as CSV. */
function downloadCsv(rows: ApiKeyView[], fileName: string) {
  const header = ['name', 'prefix', 'scopes', 'status', 'created_at', 'created_by', 'expires_at', 'last_used_at', 'rate_limit_per_minute', 'revoked_at'];
  const lines = rows.map((k) => [
    k.name,
    k.prefix,
    k.scopes.join(' '),
    k.status,
    k.created_at,
    k.created_by_name ?? '',
    k.expires_at ?? '',
    k.last_used_at ?? '',
    String(k.rate_limit_per_minute ?? ''),
    k.revoked_at ?? '',
  ]);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([[header, ...lines].map((line) => line.map(csvCell).join(',')).join('\n')], { type: 'text/csv' }));
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(link.href);
}

function compare(a: ApiKeyView, b: ApiKeyView, field: SortField): number {
  const left = a[field] ?? '';
  const right = b[field] ?? '';
  return field === 'name' ? left.localeCompare(right, undefined, { sensitivity: 'base' }) : left < right ? -1 : left > right ? 1 : 0;
}

/**
 * Create, rotate and revoke API keys, for the vendor (System Settings) or for the signed-in owner's
 * organisation: scopes and expiry chosen at creation, the secret shown once, the list with last use.
 */
export function ApiKeysManager({ owner }: { owner: ApiKeyOwnerKind }) {
  const toast = useToast();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('md'));
  const [keys, setKeys] = useState<ApiKeyView[] | undefined>();
  const [options, setOptions] = useState<ApiKeyOptions | undefined>();
  const [error, setError] = useState<unknown>();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<Status | ''>('');
  const [sort, setSort] = useState<{ field: SortField; order: 'asc' | 'desc' }>({ field: 'created_at', order: 'desc' });
  const [secret, setSecret] = useState<SecretOnce | null>(null);
  const [rotating, setRotating] = useState<ApiKeyView | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);

  const reload = useCallback(async () => {
    setError(undefined);
    try {
      const [list, offered] = await Promise.all([apiKeysApi.list(owner), apiKeysApi.options(owner)]);
      setKeys(list);
      setOptions(offered);
    } catch (failure) {
      setError(failure);
    }
  }, [owner]);
  useEffect(() => void reload(), [reload]);

  const shown = useMemo(() => {
    const words = search.trim().toLowerCase();
    const rows = (keys ?? []).filter(
      (k) =>
        (!status || k.status === status) &&
        (!words || k.name.toLowerCase().includes(words) || k.prefix.toLowerCase().includes(words) || k.scopes.some((s) => s.includes(words))),
    );
    const sorted = [...rows].sort((a, b) => compare(a, b, sort.field));
    return sort.order === 'asc' ? sorted : sorted.reverse();
  }, [keys, search, status, sort]);
  const sortBy = (field: SortField) => setSort((was) => ({ field, order: was.field === field && was.order === 'asc' ? 'desc' : 'asc' }));
  const scopeLabel = (scope: string) => options?.scopes.find((s) => s.scope === scope)?.label ?? scope;

  const rotate = async (key: ApiKeyView, hours: number) => {
    try {
      const answer = await apiKeysApi.rotate(owner, key.id, hours);
      setRotating(null);
      setSecret({
        title: `New key for ${answer.name}`,
        key: answer.key ?? '',
        note: answer.previous_valid_until
          ? `The previous key keeps working until ${formatDateTime(answer.previous_valid_until)}.`
          : 'The previous key no longer works.',
      });
      void reload();
    } catch (failure) {
      toast(failure instanceof ApiError ? failure.message : 'The API key could not be rotated.', 'error');
    }
  };
  const revoke = async (key: ApiKeyView) => {
    try {
      const answer = await apiKeysApi.revoke(owner, key.id);
      toast(answer.message, 'success');
    } catch (failure) {
      toast(failure instanceof ApiError ? failure.message : 'The API key could not be revoked.', 'error');
    }
    setRevoking(null);
    void reload();
  };

  const actions = (key: ApiKeyView) =>
    key.status === 'active' ? (
      <>
        <Button size="small" onClick={() => setRotating(key)}>
          Rotate
        </Button>
        <Button size="small" color="error" onClick={() => setRevoking(key)}>
          Revoke
        </Button>
      </>
    ) : null;
  const statusChip = (key: ApiKeyView) => (
    <Chip
      size="small"
      color={STATUS_COLOURS[key.status]}
      label={key.status === 'revoked' ? `Revoked ${formatDate(key.revoked_at)}` : STATUS_LABELS[key.status]}
    />
  );
  const scopeChips = (key: ApiKeyView) => (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {key.scopes.map((scope) => (
        <Tooltip key={scope} title={scopeLabel(scope)}>
          <Chip size="small" variant="outlined" label={scope} />
        </Tooltip>
      ))}
    </Box>
  );
  const expiry = (key: ApiKeyView) => (key.expires_at ? formatDate(key.expires_at) : 'Never');
  const lastUsed = (key: ApiKeyView) => (key.last_used_at ? formatDateTime(key.last_used_at) : 'Never used');

  return (
    <Box>
      <CreateKeyForm
        owner={owner}
        options={options}
        onCreated={(created) => {
          setSecret({ title: `API key for ${created.name}`, key: created.key ?? '' });
          void reload();
        }}
      />

      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 1.5 }}>
        <SearchField
          label="Search"
          placeholder="Name, key prefix or scope"
          value={search}
          onChange={setSearch}
          fullWidth={false}
          sx={{ flex: '1 1 220px', m: 0 }}
        />
        <SelectFilter
          label="Status"
          allLabel="All"
          choices={STATUS_CHOICES}
          value={status}
          onChange={(next) => setStatus(next as Status | '')}
          fullWidth={false}
          sx={{ flex: '0 0 150px', m: 0 }}
        />
        {phone ? (
          <TextField
            select
            size="small"
            label="Sort by"
            value={`${sort.field}:${sort.order}`}
            onChange={(e) => {
              const [field, order] = e.target.value.split(':') as [SortField, 'asc' | 'desc'];
              setSort({ field, order });
            }}
            fullWidth={false}
            sx={{ flex: '0 0 170px', m: 0 }}
          >
            <MenuItem value="created_at:desc">Newest first</MenuItem>
            <MenuItem value="name:asc">Name</MenuItem>
            <MenuItem value="expires_at:asc">Expiring first</MenuItem>
            <MenuItem value="last_used_at:desc">Recently used</MenuItem>
          </TextField>
        ) : null}
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={!shown.length}
          onClick={() => downloadCsv(shown, `api-keys-${new Date().toISOString().slice(0, 10)}.csv`)}
        >
          Export CSV
        </Button>
      </Box>

      <LoadError error={error} message="The API keys could not be loaded." onRetry={reload} />
      {!keys && !error ? <Loading /> : null}
      {keys && keys.length === 0 ? (
        <Alert severity="info" data-testid="api-keys-empty">
          No API keys yet. Create one for each system that calls the portal, so each can be rotated or revoked on its own.
        </Alert>
      ) : null}
      {keys && keys.length > 0 && shown.length === 0 ? <Alert severity="info">No API keys match the search and status chosen.</Alert> : null}

      {shown.length > 0 && phone ? (
        <Stack spacing={1.5} aria-label="API keys">
          {shown.map((key) => (
            <Card key={key.id} variant="outlined" data-testid="api-key-row">
              <CardContent sx={{ pb: 1 }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'flex-start' }}>
                  <Typography sx={{ fontWeight: 600, wordBreak: 'break-word' }}>{key.name}</Typography>
                  {statusChip(key)}
                </Box>
                <Typography variant="body2" sx={{ fontFamily: 'monospace', my: 0.5 }}>
                  {key.prefix}…
                </Typography>
                {scopeChips(key)}
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                  Expires {expiry(key)} · {lastUsed(key)}
                </Typography>
                {key.previous_valid_until ? (
                  <Typography variant="body2" color="warning.main">
                    Previous key works until {formatDateTime(key.previous_valid_until)}
                  </Typography>
                ) : null}
              </CardContent>
              <CardActions sx={{ justifyContent: 'flex-end', pt: 0 }}>{actions(key)}</CardActions>
            </Card>
          ))}
        </Stack>
      ) : null}
      {shown.length > 0 && !phone ? (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="API keys">
            <TableHead>
              <TableRow>
                <TableCell sortDirection={sort.field === 'name' ? sort.order : false}>
                  <TableSortLabel active={sort.field === 'name'} direction={sort.field === 'name' ? sort.order : 'asc'} onClick={() => sortBy('name')}>
                    Name
                  </TableSortLabel>
                </TableCell>
                <TableCell>Key</TableCell>
                <TableCell>Scopes</TableCell>
                <TableCell sortDirection={sort.field === 'expires_at' ? sort.order : false}>
                  <TableSortLabel
                    active={sort.field === 'expires_at'}
                    direction={sort.field === 'expires_at' ? sort.order : 'asc'}
                    onClick={() => sortBy('expires_at')}
                  >
                    Expires
                  </TableSortLabel>
                </TableCell>
                <TableCell sortDirection={sort.field === 'last_used_at' ? sort.order : false}>
                  <TableSortLabel
                    active={sort.field === 'last_used_at'}
                    direction={sort.field === 'last_used_at' ? sort.order : 'asc'}
                    onClick={() => sortBy('last_used_at')}
                  >
                    Last used
                  </TableSortLabel>
                </TableCell>
                <TableCell sortDirection={sort.field === 'status' ? sort.order : false}>
                  <TableSortLabel active={sort.field === 'status'} direction={sort.field === 'status' ? sort.order : 'asc'} onClick={() => sortBy('status')}>
                    Status
                  </TableSortLabel>
                </TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((key) => (
                <TableRow key={key.id} data-testid="api-key-row">
                  <TableCell sx={{ wordBreak: 'break-word' }}>
                    {key.name}
                    <Typography variant="caption" color="text.secondary" component="div">
                      Created {formatDate(key.created_at)}
                      {key.created_by_name ? ` by ${key.created_by_name}` : ''}
                      {key.rate_limit_per_minute ? ` · ${key.rate_limit_per_minute} requests/min` : ''}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{key.prefix}…</TableCell>
                  <TableCell data-testid="api-key-scopes">{scopeChips(key)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{expiry(key)}</TableCell>
                  <TableCell>
                    {lastUsed(key)}
                    {key.previous_valid_until ? (
                      <Typography variant="caption" color="warning.main" component="div">
                        Previous key until {formatDateTime(key.previous_valid_until)}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell>{statusChip(key)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {actions(key)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}

      <SecretOnceDialog
        secret={secret}
        onClose={() => setSecret(null)}
        warning="Copy the key now: it is stored only as a hash and will not be shown again."
        copied="API key copied"
        testId="api-key-secret"
        titleId="api-key-secret"
      />
      <RotateDialog keyToRotate={rotating} onCancel={() => setRotating(null)} onRotate={(key, hours) => void rotate(key, hours)} />
      <Dialog open={Boolean(revoking)} onClose={() => setRevoking(null)} aria-labelledby="api-key-revoke">
        <DialogTitle id="api-key-revoke">Revoke “{revoking?.name}”?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Requests made with this key are refused at once, by every server of the portal. A revoked key cannot be used again.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRevoking(null)}>Cancel</Button>
          <Button color="error" variant="contained" onClick={() => revoking && void revoke(revoking)}>
            Revoke
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

function CreateKeyForm({
  owner,
  options,
  onCreated,
}: {
  owner: ApiKeyOwnerKind;
  options: ApiKeyOptions | undefined;
  onCreated: (created: { name: string; key?: string }) => void;
}) {
  const today = Date.now();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [expires, setExpires] = useState(isoDay(today + 90 * DAY_MS));
  const [rateLimit, setRateLimit] = useState('');
  const [formError, setFormError] = useState('');
  const [saving, setSaving] = useState(false);
  const maxDay = isoDay(today + (options?.max_days ?? 365) * DAY_MS);

  const create = async () => {
    setFormError('');
    setSaving(true);
    try {
      const created = await apiKeysApi.create(owner, {
        name,
        scopes,
        // The end of the chosen day, in UTC.
        expires_at: `${expires}T23:59:59.000Z`,
        ...(rateLimit ? { rate_limit_per_minute: Number(rateLimit) } : {}),
      });
      setName('');
      setScopes([]);
      setRateLimit('');
      onCreated(created);
    } catch (failure) {
      setFormError(failure instanceof ApiError ? failure.message : 'The API key could not be created.');
    } finally {
      setSaving(false);
    }
  };

  const groups = (['read', 'write'] as const).map((access) => ({ access, scopes: options?.scopes.filter((s) => s.access === access) ?? [] }));
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, mb: 2 }}
      component="form"
      aria-label="Create an API key"
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
    >
      <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        Create an API key
      </Typography>
      {formError ? (
        <Alert severity="error" sx={{ mb: 1.5 }}>
          {formError}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 1.5 }}>
        <TextField
          size="small"
          required
          label="Name"
          placeholder={owner === 'vendor' ? 'e.g. Finance BI dashboard' : 'e.g. CRM sync'}
          value={name}
          onChange={(e) => setName(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 80 } }}
          sx={{ flex: '2 1 220px' }}
        />
        <TextField
          size="small"
          type="date"
          label="Expires on"
          value={expires}
          onChange={(e) => setExpires(e.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: isoDay(today + DAY_MS), max: maxDay } }}
          helperText={`At most ${options?.max_days ?? 365} days ahead`}
          sx={{ flex: '1 1 160px' }}
        />
        <TextField
          size="small"
          type="number"
          label="Requests a minute"
          placeholder={String(options?.default_rate_limit ?? 120)}
          value={rateLimit}
          onChange={(e) => setRateLimit(e.target.value)}
          slotProps={{ htmlInput: { min: 1, max: options?.max_rate_limit ?? 1200 } }}
          helperText={`Default ${options?.default_rate_limit ?? 120}`}
          sx={{ flex: '1 1 140px' }}
        />
      </Box>
      <Box sx={{ display: 'flex', gap: 3, flexWrap: 'wrap' }}>
        {groups.map((group) => (
          <FormControl key={group.access} component="fieldset" sx={{ flex: '1 1 260px' }}>
            <FormLabel component="legend">{group.access === 'read' ? 'May read' : 'May change'}</FormLabel>
            <FormGroup>
              {group.scopes.map((scope) => (
                <Tooltip
                  key={scope.scope}
                  describeChild
                  placement="top-start"
                  title={scope.allowed ? `${scope.description} (${scope.routes.length} routes)` : "Your organisation's permissions do not allow this."}
                >
                  <FormControlLabel
                    control={
                      <Checkbox
                        size="small"
                        disabled={!scope.allowed}
                        checked={scopes.includes(scope.scope)}
                        onChange={(e) => setScopes((was) => (e.target.checked ? [...was, scope.scope] : was.filter((s) => s !== scope.scope)))}
                      />
                    }
                    label={
                      <span>
                        {scope.label} <code style={{ fontSize: '0.8em' }}>{scope.scope}</code>
                      </span>
                    }
                  />
                </Tooltip>
              ))}
            </FormGroup>
          </FormControl>
        ))}
      </Box>
      {owner === 'organisation' ? (
        <FormHelperText>A key acts for your organisation, sees only its records and never more than your account's permissions allow.</FormHelperText>
      ) : null}
      <Box sx={{ mt: 1.5 }}>
        <Button type="submit" variant="contained" startIcon={<KeyIcon />} disabled={saving || !name.trim() || scopes.length === 0}>
          Create API key
        </Button>
      </Box>
    </Paper>
  );
}

function RotateDialog({
  keyToRotate,
  onCancel,
  onRotate,
}: {
  keyToRotate: ApiKeyView | null;
  onCancel: () => void;
  onRotate: (key: ApiKeyView, hours: number) => void;
}) {
  const [hours, setHours] = useState(24);
  return (
    <Dialog open={Boolean(keyToRotate)} onClose={onCancel} aria-labelledby="api-key-rotate">
      <DialogTitle id="api-key-rotate">Rotate “{keyToRotate?.name}”</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          The key gets a new secret, shown once. The old secret keeps working for the overlap you choose, so the systems using it can switch without a gap; then
          it is refused.
        </DialogContentText>
        <TextField select fullWidth size="small" label="Overlap" value={hours} onChange={(e) => setHours(Number(e.target.value))}>
          {OVERLAPS.map((overlap) => (
            <MenuItem key={overlap.hours} value={overlap.hours}>
              {overlap.label}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" onClick={() => keyToRotate && onRotate(keyToRotate, hours)}>
          Rotate
        </Button>
      </DialogActions>
    </Dialog>
  );
}
