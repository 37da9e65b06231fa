import { isPermission, isRole, permissionLabel, ROLE_LABELS } from '@domain/access';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Alert, Box, Button, Chip, CircularProgress, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { formatDateTime } from '../formatting';
import { messageOf } from '../providers/errorMapper';
import { ANSWER_KEYS, getRecordAsOf, getVersions, type FieldChange, type RecordFields, type RecordVersion } from './versionsApi';

/** "end_user_customer_name" → "End user customer name". */
export function fieldLabel(field: string): string {
  const words = field
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A field's value in words: dates as dates, lists as lists, nothing as a dash. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return ISO_TIME.test(value) ? formatDateTime(value) : isPermission(value) ? permissionLabel(value) : value;
  if (typeof value === 'number') return value.toLocaleString('en-US');
  if (Array.isArray(value)) {
    if (!value.length) return 'None';
    if (value.every((item) => !item || typeof item !== 'object')) return value.map(formatValue).join(', ');
    return value.map((item) => describeObject(item as Record<string, unknown>)).join('; ');
  }
  if (typeof value === 'object') return describeObject(value as Record<string, unknown>);
  return String(value);
}

/** A milestone, an order line, an address: its name first, then its other values. */
function describeObject(object: Record<string, unknown>): string {
  const name = object.name ?? object.product_name ?? object.title;
  const rest = Object.entries(object)
    .filter(([key, value]) => !['id', 'name', 'product_name', 'title', 'product_id'].includes(key) && value !== null && value !== '' && value !== undefined)
    .map(([key, value]) => `${fieldLabel(key).toLowerCase()} ${formatValue(value)}`);
  return [typeof name === 'string' ? name : null, rest.length ? `(${rest.join(', ')})` : null].filter(Boolean).join(' ');
}

const roleLabel = (role: string | null) => (!role ? null : isRole(role) ? ROLE_LABELS[role] : role.replace(/_/g, ' '));

function ChangeLine({ change }: { change: FieldChange }) {
  return (
    <Box component="li" sx={{ mb: 0.5, overflowWrap: 'anywhere' }} data-testid="version-change">
      <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
        {fieldLabel(change.field)}:{' '}
      </Typography>
      <Typography variant="body2" component="span" sx={{ color: 'error.main', textDecoration: 'line-through' }}>
        {formatValue(change.before)}
      </Typography>
      <Typography variant="body2" component="span" aria-label="changed to">
        {' → '}
      </Typography>
      <Typography variant="body2" component="span" sx={{ color: 'success.dark' }}>
        {formatValue(change.after)}
      </Typography>
    </Box>
  );
}

const SHOWN_CHANGES = 6;

function VersionEntry({ version, onView }: { version: RecordVersion; onView: () => void }) {
  const [expanded, setExpanded] = useState(false);
  const role = roleLabel(version.actor_role);
  const changes = expanded ? version.changes : version.changes.slice(0, SHOWN_CHANGES);
  return (
    <Paper component="li" variant="outlined" sx={{ p: 1.5, mb: 1.5, listStyle: 'none', minWidth: 0 }} data-testid="version" data-revision={version.revision}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline', flexWrap: 'wrap' }}>
        <Chip size="small" label={`Version ${version.revision + 1}`} />
        <Typography variant="subtitle2" component="h3" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
          {version.summary}
        </Typography>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {formatDateTime(version.occurred_at)} · by {version.actor_name ?? (version.actor_id ? 'a removed account' : 'PartnerHub')}
        {role ? ` (${role})` : ''}
      </Typography>
      {version.reason ? (
        <Typography variant="body2" sx={{ mt: 0.5, fontStyle: 'italic', overflowWrap: 'anywhere' }} data-testid="version-reason">
          “{version.reason}”
        </Typography>
      ) : null}
      {changes.length ? (
        <Box component="ul" sx={{ pl: 2.5, my: 1 }}>
          {changes.map((change) => (
            <ChangeLine key={change.field} change={change} />
          ))}
        </Box>
      ) : null}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {version.changes.length > SHOWN_CHANGES ? (
          <Button size="small" onClick={() => setExpanded((value) => !value)}>
            {expanded ? 'Show fewer changes' : `Show all ${version.changes.length} changes`}
          </Button>
        ) : null}
        <Button size="small" startIcon={<VisibilityIcon />} onClick={onView}>
          View as of this version
        </Button>
      </Box>
    </Paper>
  );
}

/** The whole record as it was at a version, each field that has changed since highlighted with today's value. */
function RecordAsOfView({ path, id, version, onBack }: { path: string; id: string; version: RecordVersion; onBack: () => void }) {
  const [state, setState] = useState<{ then: RecordFields; now: RecordFields } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    setState(null);
    setError(null);
    Promise.all([getRecordAsOf(path, id, version.occurred_at), getRecordAsOf(path, id, new Date().toISOString())])
      .then(([then, now]) => !cancelled && setState({ then, now }))
      .catch((e) => !cancelled && setError(messageOf(e, 'Failed to load this version')));
    return () => {
      cancelled = true;
    };
  }, [path, id, version.occurred_at]);

  const fields = state ? [...new Set([...Object.keys(state.then), ...Object.keys(state.now)])].filter((field) => !ANSWER_KEYS.has(field)) : [];
  const changedSince = (field: string) => JSON.stringify(state?.then[field] ?? null) !== JSON.stringify(state?.now[field] ?? null);
  const changedCount = fields.filter(changedSince).length;
  return (
    <Box data-testid="record-as-of">
      <Button size="small" startIcon={<ArrowBackIcon />} onClick={onBack} sx={{ mb: 1 }}>
        Back to the timeline
      </Button>
      <Typography variant="subtitle1" component="h3">
        As of {formatDateTime(version.occurred_at)} (version {version.revision + 1})
      </Typography>
      {error ? (
        <Alert severity="error">{error}</Alert>
      ) : !state ? (
        <CircularProgress size={24} />
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="changed-since-count">
            {changedCount === 0
              ? 'Nothing has changed since.'
              : `${changedCount} field${changedCount === 1 ? ' has' : 's have'} changed since: highlighted, with today’s value.`}
          </Typography>
          <Table size="small" sx={{ tableLayout: 'fixed', width: '100%' }}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: { xs: '34%', sm: '28%' } }}>Field</TableCell>
                <TableCell>Then</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Now</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {fields.map((field) => {
                const changed = changedSince(field);
                return (
                  <TableRow
                    key={field}
                    data-testid="as-of-field"
                    data-field={field}
                    data-changed={changed ? 'true' : 'false'}
                    sx={changed ? { bgcolor: 'warning.light', '& td': { borderColor: 'warning.main' } } : undefined}
                  >
                    <TableCell sx={{ fontWeight: 600, overflowWrap: 'anywhere', verticalAlign: 'top' }}>{fieldLabel(field)}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere', verticalAlign: 'top' }}>
                      {formatValue(state.then[field])}
                      {changed ? (
                        <Typography variant="caption" component="div" sx={{ display: { xs: 'block', sm: 'none' }, mt: 0.5 }}>
                          Now: {formatValue(state.now[field])}
                        </Typography>
                      ) : null}
                    </TableCell>
                    <TableCell
                      sx={{
                        display: { xs: 'none', sm: 'table-cell' },
                        overflowWrap: 'anywhere',
                        verticalAlign: 'top',
                        color: changed ? 'text.primary' : 'text.secondary',
                      }}
                    >
                      {changed ? formatValue(state.now[field]) : 'Unchanged'}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </>
      )}
    </Box>
  );
}

/**
 * A record's history as one timeline, newest first: each version with who, when and what changed
 * (field before → after), and the whole record as of any version. `path` is its read route (`/projects`).
 */
export function RecordHistory({ path, id }: { path: string; id: string }) {
  const [versions, setVersions] = useState<RecordVersion[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [viewing, setViewing] = useState<RecordVersion | null>(null);
  useEffect(() => {
    let cancelled = false;
    setVersions(null);
    setError(null);
    setViewing(null);
    getVersions(path, id)
      .then((all) => !cancelled && setVersions([...all].reverse()))
      .catch((e) => !cancelled && setError(messageOf(e, 'Failed to load the history')));
    return () => {
      cancelled = true;
    };
  }, [path, id]);

  if (error) return <Alert severity="error">{error}</Alert>;
  if (!versions) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
        <CircularProgress size={28} />
      </Box>
    );
  }
  if (viewing) return <RecordAsOfView path={path} id={id} version={viewing} onBack={() => setViewing(null)} />;
  if (!versions.length) return <Typography color="text.secondary">No history yet.</Typography>;
  return (
    <Box component="ol" sx={{ p: 0, m: 0 }} data-testid="record-history" aria-label="Versions, newest first">
      {versions.map((version) => (
        <VersionEntry key={version.revision} version={version} onView={() => setViewing(version)} />
      ))}
    </Box>
  );
}
