import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useDialogAction } from '../lists';
import { messageOf } from '../providers/errorMapper';
import { getCatalogue, type Endpoint, type EventType } from './webhooksApi';

const RESOURCE_LABELS: Record<string, string> = {
  orders: 'Orders',
  projects: 'Projects and deal registrations',
  tickets: 'Support tickets',
  rebates: 'Rebates',
  leads: 'Leads',
  funds: 'Marketing funds',
  partners: 'Partners',
};

/** The catalogue's event types as checkboxes, grouped by record; each with what it means. */
export function EventTypePicker({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const [types, setTypes] = useState<EventType[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    getCatalogue().then(
      (c) => setTypes(c.event_types),
      (e) => setError(messageOf(e, 'The event catalogue could not be loaded.')),
    );
  }, []);
  if (error) return <Alert severity="error">{error}</Alert>;
  if (!types) return <Typography variant="body2">Loading event types…</Typography>;
  const groups = [...new Set(types.map((t) => t.resource))];
  const toggle = (type: string) => onChange(value.includes(type) ? value.filter((t) => t !== type) : [...value, type]);
  return (
    <Box role="group" aria-label="Event types" sx={{ maxHeight: 320, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}>
      {groups.map((group) => (
        <Box key={group} sx={{ mb: 1 }}>
          <Typography variant="subtitle2">{RESOURCE_LABELS[group] ?? group}</Typography>
          <FormGroup>
            {types
              .filter((t) => t.resource === group)
              .map((t) => (
                <FormControlLabel
                  key={t.type}
                  sx={{ alignItems: 'flex-start', my: 0.25 }}
                  control={<Checkbox size="small" checked={value.includes(t.type)} onChange={() => toggle(t.type)} sx={{ py: 0.25 }} />}
                  label={
                    <Box>
                      <Typography variant="body2" component="span" sx={{ fontFamily: 'monospace' }}>
                        {t.type}
                      </Typography>
                      <Typography variant="caption" component="span" color="text.secondary" sx={{ display: 'block' }}>
                        {t.description}
                      </Typography>
                    </Box>
                  }
                />
              ))}
          </FormGroup>
        </Box>
      ))}
    </Box>
  );
}

/** Creating or editing an endpoint: URL, event types, active. */
export function EndpointDialog({
  open,
  endpoint,
  onClose,
  onSave,
}: {
  open: boolean;
  endpoint?: Endpoint;
  onClose: () => void;
  onSave: (body: { url: string; event_types: string[]; active: boolean }) => Promise<void>;
}) {
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  const [active, setActive] = useState(true);
  const { busy: saving, error, setError, run } = useDialogAction('The endpoint could not be saved.');
  useEffect(() => {
    if (!open) return;
    setUrl(endpoint?.url ?? '');
    setTypes(endpoint?.event_types ?? []);
    setActive(endpoint ? endpoint.active : true);
    setError(null);
  }, [open, endpoint, setError]);
  const save = async () => {
    if (!url.trim()) return setError('URL is required.');
    if (!types.length) return setError('Choose at least one event type.');
    await run(() => onSave({ url: url.trim(), event_types: types, active }));
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="endpoint-dialog-title">
      <DialogTitle id="endpoint-dialog-title">{endpoint ? 'Edit webhook endpoint' : 'Add webhook endpoint'}</DialogTitle>
      <DialogContent>
        {error ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        ) : null}
        <TextField
          label="URL"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          fullWidth
          margin="dense"
          placeholder="https://crm.example.com/hooks/partnerhub"
          helperText="Where the portal POSTs each event (https)."
          autoFocus
        />
        <FormControlLabel control={<Switch checked={active} onChange={(e) => setActive(e.target.checked)} />} label="Active" sx={{ my: 1 }} />
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          Event types
        </Typography>
        <EventTypePicker value={types} onChange={setTypes} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving}>
          {endpoint ? 'Save' : 'Add endpoint'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Replay from a date: every matching event since then is sent again. */
export function ReplayDialog({ open, onClose, onReplay }: { open: boolean; onClose: () => void; onReplay: (from: string) => Promise<void> }) {
  const [from, setFrom] = useState('');
  const { error, setError, run } = useDialogAction('The replay could not be started.');
  useEffect(() => {
    if (open) {
      setFrom(new Date(Date.now() - 86_400_000 - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 16));
      setError(null);
    }
  }, [open, setError]);
  const submit = async () => {
    const at = new Date(from);
    if (Number.isNaN(at.getTime())) return setError('Choose a date and time.');
    await run(() => onReplay(at.toISOString()));
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="replay-dialog-title">
      <DialogTitle id="replay-dialog-title">Replay events</DialogTitle>
      <DialogContent>
        {error ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error}
          </Alert>
        ) : null}
        <Typography variant="body2" sx={{ mb: 2 }}>
          Every event this endpoint subscribes to that happened since this moment is sent again, from the portal's event log, oldest first.
        </Typography>
        <TextField
          label="From"
          type="datetime-local"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          fullWidth
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void submit()}>
          Replay
        </Button>
      </DialogActions>
    </Dialog>
  );
}
