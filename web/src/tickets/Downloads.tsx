import type { Resource } from '@contracts/resources';
import { RESOURCE_CATEGORIES } from '@domain/resources/resources';
import { ROLES, ROLE_LABELS } from '@domain/access/roles';
import DownloadIcon from '@mui/icons-material/Download';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  MenuItem,
  Paper,
  TextField,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { formatDate } from '../formatting';
import { LoadError, Loading } from '../layout/ListStates';
import { useToast } from '../layout/toast';
import { useDebounced } from '../layout/useDebounced';
import { API_URL, httpClient } from '../providers/httpClient';
import { ApiError } from '../providers/errorMapper';
import { downloadFile } from '../providers/download';

/** Saved under the name the server gives (the original name made safe, with the checked type's extension). */
const download = (resource: Resource) => downloadFile(resource.url, 'document');

function PublishDialog({ open, onClose, onPublished }: { open: boolean; onClose: () => void; onPublished: () => void }) {
  const toast = useToast();
  const [title, setTitle] = useState('');
  const [category, setCategory] = useState<string>('Datasheet');
  const [description, setDescription] = useState('');
  const [roles, setRoles] = useState<string[]>(['partner', 'distributor']);
  const [file, setFile] = useState<File | null>(null);
  const [failure, setFailure] = useState('');
  const submit = async () => {
    const form = new FormData();
    form.append('title', title);
    form.append('category', category);
    form.append('description', description);
    form.append('roles', roles.join(','));
    if (file) form.append('file', file, file.name);
    try {
      const { json } = await httpClient<{ message: string }>(`${API_URL}/resources`, { method: 'POST', body: form });
      toast(json.message, 'success');
      onPublished();
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : 'The document could not be published.');
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="publish-title">
      <DialogTitle id="publish-title">Publish Document</DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gap: 2 }}>
        {failure ? <Alert severity="error">{failure}</Alert> : null}
        <TextField label="Title" required value={title} onChange={(e) => setTitle(e.target.value)} />
        <TextField select label="Category" value={category} onChange={(e) => setCategory(e.target.value)}>
          {RESOURCE_CATEGORIES.map((c) => (
            <MenuItem key={c} value={c}>
              {c}
            </MenuItem>
          ))}
        </TextField>
        <TextField label="Description" multiline minRows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
        <Box>
          <Typography variant="subtitle2">Who may download it</Typography>
          <FormGroup row>
            {ROLES.filter((role) => role !== 'admin' && role !== 'administrator').map((role) => (
              <FormControlLabel
                key={role}
                label={ROLE_LABELS[role]}
                control={
                  <Checkbox checked={roles.includes(role)} onChange={(e) => setRoles((r) => (e.target.checked ? [...r, role] : r.filter((x) => x !== role)))} />
                }
              />
            ))}
          </FormGroup>
        </Box>
        <Button component="label" variant="outlined">
          {file ? file.name : 'Choose file (PDF, DOC, DOCX, JPG, PNG)'}
          <input hidden type="file" accept=".pdf,.doc,.docx,.jpg,.jpeg,.png" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </Button>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void submit()}>
          Publish
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The Downloads tab: the documents the caller's role may download, with search; administrators publish and remove. */
export function Downloads({ admin }: { admin: boolean }) {
  const toast = useToast();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const debounced = useDebounced(search, 300);
  const [rows, setRows] = useState<Resource[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [publishing, setPublishing] = useState(false);

  const load = useCallback(async () => {
    setError(null);
    try {
      const params = new URLSearchParams({ limit: '100' });
      if (debounced.trim()) params.set('search', debounced.trim());
      if (category) params.set('category', category);
      const { json } = await httpClient<{ data: { resources: Resource[] } }>(`${API_URL}/resources?${params}`);
      setRows(json.data.resources);
    } catch (failure) {
      console.error(failure);
      setError(failure);
    }
  }, [debounced, category]);
  useEffect(() => {
    void load();
  }, [load]);

  const remove = async (resource: Resource) => {
    try {
      const { json } = await httpClient<{ message: string }>(`${API_URL}/resources/${resource.id}`, { method: 'DELETE' });
      toast(json.message, 'success');
      void load();
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.handled)) toast('The document could not be removed.', 'error');
    }
  };

  return (
    <Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 2, alignItems: 'center' }}>
        <TextField
          size="small"
          label="Search documents"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          fullWidth={false}
          sx={{ width: { xs: '100%', sm: 280 } }}
        />
        <TextField
          select
          size="small"
          label="Category"
          value={category}
          onChange={(e) => setCategory(e.target.value)}
          fullWidth={false}
          sx={{ width: { xs: '100%', sm: 200 } }}
        >
          <MenuItem value="">All categories</MenuItem>
          {RESOURCE_CATEGORIES.map((c) => (
            <MenuItem key={c} value={c}>
              {c}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ flexGrow: 1 }} />
        {admin ? (
          <Button variant="contained" onClick={() => setPublishing(true)}>
            Publish Document
          </Button>
        ) : null}
      </Box>
      <LoadError error={error} message="Failed to load documents" onRetry={load} />
      {!rows && !error ? <Loading /> : null}
      {rows && rows.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography color="text.secondary">No documents found</Typography>
        </Paper>
      ) : null}
      <Box sx={{ display: 'grid', gap: 1 }}>
        {(rows ?? []).map((resource) => (
          <Paper
            key={resource.id}
            variant="outlined"
            data-testid="resource-row"
            sx={{ p: 1.5, display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}
          >
            <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                  {resource.title}
                </Typography>
                <Chip size="small" label={resource.category} />
              </Box>
              <Typography variant="body2" color="text.secondary">
                {resource.description}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                Published {formatDate(resource.created_at)}
                {admin ? ` · for ${resource.roles.join(', ')}` : ''}
              </Typography>
            </Box>
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              onClick={() => download(resource).catch((e: Error) => toast(e.message, 'error'))}
              aria-label={`Download ${resource.title}`}
            >
              Download
            </Button>
            {admin ? (
              <Button color="error" onClick={() => void remove(resource)}>
                Remove
              </Button>
            ) : null}
          </Paper>
        ))}
      </Box>
      <PublishDialog
        open={publishing}
        onClose={() => setPublishing(false)}
        onPublished={() => {
          setPublishing(false);
          void load();
        }}
      />
    </Box>
  );
}
