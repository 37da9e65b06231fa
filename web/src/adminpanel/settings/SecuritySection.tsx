import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import type { IdentityProvider, MessageAnswer, ProviderAnswer, ProvidersAnswer, SecurityPolicyAnswer, SecurityPolicyView, UserView } from '@contracts/identity';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  IconButton,
  MenuItem,
  Paper,
  Radio,
  RadioGroup,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { ActionDialog } from '../../layout/ActionDialog';
import { LoadError, Loading } from '../../layout/ListStates';
import { useToast } from '../../layout/toast';
import { ApiError } from '../../providers/errorMapper';
import { API_URL, httpClient } from '../../providers/httpClient';
import { SectionHeading } from './SettingHistory';
import { useSettingsData } from './settingsApi';

interface Organisation {
  id: string;
  label: string;
}

const ROLE_CHOICES = [
  { id: 'partner', label: 'Partner (own organisation)' },
  { id: 'partner_user', label: 'Partner team member' },
  { id: 'distributor', label: 'Distributor (own organisation)' },
  { id: 'distributor_user', label: 'Distributor team member' },
  { id: 'support', label: 'Support' },
  { id: 'manufacturer', label: 'Manufacturer' },
] as const;

const REQUIREMENTS = [
  { id: 'nobody', label: 'Optional for everyone' },
  { id: 'administrators', label: 'Required for administrators' },
  { id: 'everyone', label: 'Required for everyone' },
] as const;

const api = {
  policy: async () => (await httpClient<SecurityPolicyAnswer>(`${API_URL}/settings/security`)).json,
  savePolicy: async (policy: SecurityPolicyView) =>
    (await httpClient<Saved<SecurityPolicyAnswer>>(`${API_URL}/settings/security`, { method: 'PUT', body: { ...policy } })).json,
  providers: async () => {
    const { json } = await httpClient<ProvidersAnswer>(`${API_URL}/identity-providers`);
    return { success: true as const, data: json.data.identity_providers };
  },
  saveProvider: async (id: string | null, body: Record<string, unknown>) =>
    (await httpClient<Saved<ProviderAnswer>>(`${API_URL}/identity-providers${id ? `/${id}` : ''}`, { method: id ? 'PUT' : 'POST', body })).json,
  removeProvider: async (id: string) => (await httpClient<MessageAnswer>(`${API_URL}/identity-providers/${id}`, { method: 'DELETE' })).json,
  organisations: async (): Promise<Organisation[]> => {
    const lists = await Promise.all(
      ['partner', 'distributor'].map(async (role) => {
        // Every organisation, a page of 100 (the most a list answers) at a time.
        const rows: UserView[] = [];
        for (let page = 1, pages = 1; page <= pages; page++) {
          const { json } = await httpClient<{ data: { users: UserView[]; totalPages: number } }>(`${API_URL}/users?role=${role}&limit=100&page=${page}`);
          rows.push(...json.data.users);
          pages = json.data.totalPages;
        }
        return rows.map((row) => ({ id: row.id, label: `${row.company_name || row.full_name} (${row.email})` }));
      }),
    );
    return lists.flat().sort((a, b) => a.label.localeCompare(b.label));
  },
};

/** A change's answer, which always says what was done (the reading answers share the schema, where the message is optional). */
type Saved<Answer> = Answer & { message: string };

const errorOf = (failure: unknown, fallback: string) => (failure instanceof ApiError && failure.message ? failure.message : fallback);

/** Security: who must have a second factor, organisations that sign in through single sign-on only, and the identity providers. */
export function SecuritySection() {
  const toast = useToast();
  const policy = useSettingsData(api.policy);
  const providers = useSettingsData(api.providers);
  const [organisations, setOrganisations] = useState<Organisation[]>([]);
  const [draft, setDraft] = useState<SecurityPolicyView | null>(null);
  const [editing, setEditing] = useState<IdentityProvider | 'new' | null>(null);
  const [removing, setRemoving] = useState<IdentityProvider | null>(null);
  const [removingBusy, setRemovingBusy] = useState(false);

  useEffect(() => {
    api.organisations().then(setOrganisations, () => setOrganisations([]));
  }, []);
  useEffect(() => {
    if (policy.data) setDraft(policy.data);
  }, [policy.data]);
  const organisationName = useMemo(() => new Map(organisations.map((o) => [o.id, o.label])), [organisations]);

  const savePolicy = async () => {
    if (!draft) return;
    try {
      const answer = await api.savePolicy(draft);
      toast(answer.message, 'success');
      policy.reload();
    } catch (failure) {
      toast(errorOf(failure, 'The security settings could not be saved.'), 'error');
    }
  };

  return (
    <Box component="section" aria-label="Security and sign-in">
      <SectionHeading
        title="Security and sign-in"
        text="Second factors (an authenticator app or a passkey) protect accounts beyond the password. Identity providers let people sign in with their company account (OpenID Connect)."
      />

      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
          Second factor
        </Typography>
        {policy.error ? <LoadError error={policy.error} message="The security settings could not be loaded." onRetry={policy.reload} /> : null}
        {!draft && !policy.error ? <Loading /> : null}
        {draft ? (
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            <FormControl>
              <FormLabel id="mfa-requirement">Who must have a second factor</FormLabel>
              <RadioGroup
                aria-labelledby="mfa-requirement"
                value={draft.mfa_required_for}
                onChange={(e) => setDraft({ ...draft, mfa_required_for: e.target.value as SecurityPolicyView['mfa_required_for'] })}
              >
                {REQUIREMENTS.map((r) => (
                  <FormControlLabel key={r.id} value={r.id} control={<Radio size="small" />} label={r.label} />
                ))}
              </RadioGroup>
            </FormControl>
            <Typography variant="body2" color="text.secondary">
              People who must have one and have none are asked to set up an authenticator app right after their password.
            </Typography>
            <Autocomplete
              multiple
              options={organisations.map((o) => o.id)}
              value={draft.sso_required_organisations}
              onChange={(_, value) => setDraft({ ...draft, sso_required_organisations: value })}
              getOptionLabel={(id) => organisationName.get(id) ?? id}
              renderInput={(params) => (
                <TextField
                  {...params}
                  size="small"
                  label="Single sign-on only"
                  helperText="Organisations whose people must sign in through an identity provider: their passwords are refused."
                />
              )}
            />
            <Box>
              <Button variant="contained" onClick={() => void savePolicy()}>
                Save
              </Button>
            </Box>
          </Box>
        ) : null}
      </Paper>

      <Paper variant="outlined" sx={{ p: 2 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, flex: 1 }}>
            Identity providers (single sign-on)
          </Typography>
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
            Add provider
          </Button>
        </Box>
        <Typography variant="body2" sx={{ mb: 1.5 }}>
          Register the portal at the provider with the redirect address{' '}
          <code style={{ wordBreak: 'break-all' }}>{`${window.location.origin}/api/auth/oidc/<short name>/callback`}</code>.
        </Typography>
        {providers.error ? <LoadError error={providers.error} message="The identity providers could not be loaded." onRetry={providers.reload} /> : null}
        {!providers.data && !providers.error ? <Loading /> : null}
        {providers.data && providers.data.length === 0 ? <Alert severity="info">No identity providers yet: people sign in with their password.</Alert> : null}
        {providers.data && providers.data.length > 0 ? (
          <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }}>
            <Table size="small" aria-label="Identity providers">
              <TableHead>
                <TableRow>
                  <TableCell>Name</TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Issuer</TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Domains</TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>New people</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell align="right" sx={{ px: { xs: 0.5, sm: 2 } }}>
                    Actions
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {providers.data.map((provider) => (
                  <TableRow key={provider.id} data-testid="identity-provider-row">
                    <TableCell>
                      {provider.name}
                      <Typography variant="caption" color="text.secondary" component="div">
                        {provider.slug}
                      </Typography>
                    </TableCell>
                    <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, wordBreak: 'break-all' }}>{provider.issuer}</TableCell>
                    <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{provider.allowed_domains.join(', ') || '—'}</TableCell>
                    <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                      {ROLE_CHOICES.find((r) => r.id === provider.role)?.label ?? provider.role}
                      {provider.organisation_id ? ` of ${organisationName.get(provider.organisation_id) ?? 'an organisation'}` : ''}
                    </TableCell>
                    <TableCell>
                      <Chip size="small" color={provider.active ? 'success' : 'default'} label={provider.active ? 'Active' : 'Off'} />
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap', px: { xs: 0.5, sm: 2 } }}>
                      <Tooltip title="Edit">
                        <IconButton size="small" aria-label={`Edit ${provider.name}`} onClick={() => setEditing(provider)}>
                          <EditIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title="Remove">
                        <IconButton size="small" color="error" aria-label={`Remove ${provider.name}`} onClick={() => setRemoving(provider)}>
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        ) : null}
      </Paper>

      {editing ? (
        <ProviderDialog
          provider={editing === 'new' ? null : editing}
          organisations={organisations}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            toast(message, 'success');
            setEditing(null);
            providers.reload();
          }}
        />
      ) : null}

      <ActionDialog
        open={Boolean(removing)}
        titleId="provider-remove"
        title="Remove identity provider?"
        message={`${removing?.name ?? ''} will no longer be offered on the sign-in page. Accounts made through it stay; their people can set a password through an administrator.`}
        busy={removingBusy}
        onClose={() => setRemoving(null)}
        confirmLabel="Remove"
        busyLabel="Removing…"
        onConfirm={async () => {
          if (!removing) return;
          setRemovingBusy(true);
          try {
            toast((await api.removeProvider(removing.id)).message, 'success');
          } catch (failure) {
            toast(errorOf(failure, 'The identity provider could not be removed.'), 'error');
          } finally {
            setRemovingBusy(false);
          }
          setRemoving(null);
          providers.reload();
        }}
      />
    </Box>
  );
}

function ProviderDialog({
  provider,
  organisations,
  onClose,
  onSaved,
}: {
  provider: IdentityProvider | null;
  organisations: Organisation[];
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const [values, setValues] = useState({
    name: provider?.name ?? '',
    slug: provider?.slug ?? '',
    issuer: provider?.issuer ?? '',
    client_id: provider?.client_id ?? '',
    client_secret: '',
    allowed_domains: provider?.allowed_domains.join(', ') ?? '',
    organisation_id: provider?.organisation_id ?? '',
    role: provider?.role ?? 'partner',
    domain_organisations: Object.entries(provider?.domain_organisations ?? {})
      .map(([domain, id]) => `${domain}=${id}`)
      .join('\n'),
    active: provider?.active ?? true,
  });
  const [error, setError] = useState<string | null>(null);
  const set = (field: keyof typeof values) => (event: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [field]: event.target.value }));

  const save = async () => {
    setError(null);
    const mapping = Object.fromEntries(
      values.domain_organisations
        .split('\n')
        .map((line) => line.split('=').map((part) => part.trim()))
        .filter(([domain, id]) => domain && id),
    );
    const body: Record<string, unknown> = {
      name: values.name,
      slug: values.slug,
      issuer: values.issuer,
      client_id: values.client_id,
      allowed_domains: values.allowed_domains.split(/[\s,]+/).filter(Boolean),
      organisation_id: values.organisation_id || null,
      role: values.role,
      domain_organisations: mapping,
      active: values.active,
      ...(values.client_secret || !provider ? { client_secret: values.client_secret } : {}),
    };
    try {
      const answer = await api.saveProvider(provider?.id ?? null, body);
      onSaved(answer.message);
    } catch (failure) {
      setError(errorOf(failure, 'The identity provider could not be saved.'));
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="provider-edit">
      <DialogTitle id="provider-edit">{provider ? `Edit ${provider.name}` : 'Add identity provider'}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: 1 }}>
          {error ? <Alert severity="error">{error}</Alert> : null}
          <TextField label="Name shown on the sign-in page" value={values.name} onChange={set('name')} required size="small" placeholder="Acme Identity" />
          <TextField
            label="Short name"
            value={values.slug}
            onChange={set('slug')}
            required
            size="small"
            helperText="Lower-case letters, digits and dashes; part of the redirect address."
          />
          <TextField label="Issuer" value={values.issuer} onChange={set('issuer')} required size="small" placeholder="https://login.example.com" />
          <TextField label="Client id" value={values.client_id} onChange={set('client_id')} required size="small" />
          <TextField
            label="Client secret"
            type="password"
            value={values.client_secret}
            onChange={set('client_secret')}
            required={!provider}
            size="small"
            autoComplete="new-password"
            helperText={provider ? 'Leave empty to keep the current secret. It is never shown again.' : 'Kept out of the event log and never shown again.'}
          />
          <TextField
            label="Allowed e-mail domains"
            value={values.allowed_domains}
            onChange={set('allowed_domains')}
            size="small"
            placeholder="example.com, example.org"
            helperText="Only people with these domains may sign in (or get an account)."
          />
          <TextField select label="Role of new people" value={values.role} onChange={set('role')} size="small">
            {ROLE_CHOICES.map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {r.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label="Organisation of new people"
            value={values.organisation_id}
            onChange={set('organisation_id')}
            size="small"
            helperText="Team members join this organisation; none: each new person is their own."
          >
            <MenuItem value="">None</MenuItem>
            {organisations.map((o) => (
              <MenuItem key={o.id} value={o.id}>
                {o.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Domain → organisation (one per line)"
            value={values.domain_organisations}
            onChange={set('domain_organisations')}
            size="small"
            multiline
            minRows={2}
            placeholder="example.org=<organisation id>"
          />
          <FormControlLabel
            control={<Switch checked={values.active} onChange={(e) => setValues((v) => ({ ...v, active: e.target.checked }))} />}
            label="Offered on the sign-in page"
          />
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void save()}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
