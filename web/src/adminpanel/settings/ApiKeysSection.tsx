import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import KeyIcon from '@mui/icons-material/Key';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { formatDateTime } from '../../formatting';
import { LoadError, Loading } from '../../layout/ListStates';
import { useToast } from '../../layout/toast';
import { ApiError } from '../../providers/errorMapper';
import { SectionHeading } from './SettingHistory';
import { settingsApi, useSettingsData, type ApiKeyRow } from './settingsApi';

/** The writes a key may be given, with what each allows (the server's API_KEY_SCOPE_GRANTS). */
const SCOPES = [{ scope: 'leads:write', label: 'May create and import leads', hint: 'POST /api/leads and POST /api/leads/import' }] as const;
const scopeLabel = (scope: string) => SCOPES.find((s) => s.scope === scope)?.label ?? scope;

/** API Keys: named keys for analysts' tools and integrations, read-only unless given a scope; a key is shown once, then only its first characters. */
export function ApiKeysSection() {
  const toast = useToast();
  const { data, error, reload } = useSettingsData(settingsApi.apiKeys);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [formError, setFormError] = useState('');
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRow | null>(null);

  const create = async () => {
    setFormError('');
    try {
      const answer = await settingsApi.createApiKey(name, scopes);
      setCreated({ name: answer.name, key: answer.key });
      setName('');
      setScopes([]);
      reload();
    } catch (failure) {
      setFormError(failure instanceof ApiError ? failure.message : 'The API key could not be created.');
    }
  };
  const revoke = async (key: ApiKeyRow) => {
    try {
      const answer = await settingsApi.revokeApiKey(key.id);
      toast(answer.message, 'success');
    } catch (failure) {
      toast(failure instanceof ApiError ? failure.message : 'The API key could not be revoked.', 'error');
    }
    setRevoking(null);
    reload();
  };
  const copy = async (key: string) => {
    try {
      await navigator.clipboard.writeText(key);
      toast('API key copied', 'success');
    } catch {
      toast('Select the key and copy it by hand.', 'info');
    }
  };

  return (
    <Box component="section" aria-label="API keys">
      <SectionHeading title="API keys" text="Keys let analysts' tools read the portal's lists (projects, orders, catalogue, rebates, tickets, partners) across every organisation. A key changes nothing unless it is given a scope: leads:write lets an integration (a web form, an event app) create and import leads, and nothing else." />
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="body2" sx={{ mb: 1 }}>
          Send the key with each request as <code>X-Api-Key: phk_…</code> or <code>Authorization: Bearer phk_…</code>, for example <code style={{ wordBreak: 'break-all' }}>GET /api/orders?limit=100</code>. Only GET requests are answered, and the writes a key's scope names; a revoked key is refused at once.
        </Typography>
        {formError ? <Alert severity="error" sx={{ mb: 1.5 }}>{formError}</Alert> : null}
        <Box component="form" onSubmit={(e) => { e.preventDefault(); void create(); }} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField size="small" label="Integration name" placeholder="e.g. Finance BI dashboard" value={name} onChange={(e) => setName(e.target.value)} inputProps={{ maxLength: 80 }} sx={{ flex: '1 1 240px' }} />
          {SCOPES.map(({ scope, label, hint }) => (
            <FormControlLabel
              key={scope}
              title={hint}
              control={<Checkbox size="small" checked={scopes.includes(scope)} onChange={(e) => setScopes((was) => (e.target.checked ? [...was, scope] : was.filter((s) => s !== scope)))} />}
              label={`${label} (${scope})`}
            />
          ))}
          <Button type="submit" variant="contained" startIcon={<KeyIcon />} disabled={!name.trim()}>
            Create API Key
          </Button>
        </Box>
      </Paper>
      {error ? <LoadError error={error} message="The API keys could not be loaded." onRetry={reload} /> : null}
      {!data && !error ? <Loading /> : null}
      {data && data.length === 0 ? <Alert severity="info">No API keys yet. Create one for each tool that reads the portal, so each can be revoked on its own.</Alert> : null}
      {data && data.length > 0 ? (
        <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }}>
          <Table size="small" aria-label="API keys">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Key</TableCell>
                <TableCell>Access</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Created</TableCell>
                <TableCell>Status</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((key) => (
                <TableRow key={key.id} data-testid="api-key-row">
                  <TableCell sx={{ wordBreak: 'break-word' }}>{key.name}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{key.prefix}…</TableCell>
                  <TableCell data-testid="api-key-scopes">
                    {key.scopes.length ? key.scopes.map((scope) => <Chip key={scope} size="small" variant="outlined" label={scope} title={scopeLabel(scope)} sx={{ mr: 0.5 }} />) : 'Read-only'}
                  </TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                    {formatDateTime(key.created_at)}
                    {key.created_by_name ? ` by ${key.created_by_name}` : ''}
                  </TableCell>
                  <TableCell>
                    <Chip size="small" color={key.status === 'active' ? 'success' : 'default'} label={key.status === 'active' ? 'Active' : `Revoked ${formatDateTime(key.revoked_at)}`} />
                  </TableCell>
                  <TableCell align="right">
                    {key.status === 'active' ? (
                      <Button size="small" color="error" onClick={() => setRevoking(key)}>
                        Revoke
                      </Button>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}

      <Dialog open={Boolean(created)} onClose={() => setCreated(null)} fullWidth maxWidth="sm" aria-labelledby="api-key-created">
        <DialogTitle id="api-key-created">API key for {created?.name}</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            Copy the key now: it is stored only as a hash and will not be shown again.
          </Alert>
          <Paper variant="outlined" sx={{ p: 1.5, fontFamily: 'monospace', wordBreak: 'break-all', bgcolor: 'grey.50' }} data-testid="new-api-key">
            {created?.key}
          </Paper>
        </DialogContent>
        <DialogActions>
          <Button startIcon={<ContentCopyIcon />} onClick={() => created && void copy(created.key)}>
            Copy
          </Button>
          <Button variant="contained" onClick={() => setCreated(null)}>
            Done
          </Button>
        </DialogActions>
      </Dialog>

      <Dialog open={Boolean(revoking)} onClose={() => setRevoking(null)} aria-labelledby="api-key-revoke">
        <DialogTitle id="api-key-revoke">Revoke API key?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {revoking?.name} ({revoking?.prefix}…) will be refused from its next request. This cannot be undone; create a new key if the tool needs access again.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRevoking(null)}>Cancel</Button>
          <Button color="error" variant="contained" onClick={() => revoking && void revoke(revoking)}>
            Revoke Key
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
