import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, Card, CardContent, Chip, Pagination, Stack, TableCell, TableRow, Typography, useMediaQuery, useTheme } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { ActionDialog } from '../layout/ActionDialog';
import { PageTitle } from '../layout/PageTitle';
import { showToast } from '../layout/toast';
import { DateText, EmptyState, LoadError, Loading, PlainHeader } from '../lists';
import { messageOf } from '../providers/errorMapper';
import { EndpointDialog, ReplayDialog } from './EndpointDialogs';
import { WebhookFilter, WebhookList, WebhookToolbar } from './WebhookList';
import {
  deleteEndpoint,
  DELIVERY_COLORS,
  DELIVERY_LABELS,
  downloadCsv,
  getEndpoint,
  listDeliveries,
  redeliver,
  replay,
  STATUS_COLORS,
  STATUS_LABELS,
  updateEndpoint,
  type Delivery,
  type Endpoint,
} from './webhooksApi';

const PAGE_SIZE = 25;

/** One endpoint: its settings, its delivery log (filter, redeliver) and replay from a date. */
export default function WebhookDetail() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [endpoint, setEndpoint] = useState<Endpoint | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [deliveries, setDeliveries] = useState<{ deliveries: Delivery[]; total: number; totalPages: number } | null>(null);
  const [deliveryError, setDeliveryError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const [eventType, setEventType] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState(false);
  const [replaying, setReplaying] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deletingBusy, setDeletingBusy] = useState(false);

  const loadEndpoint = useCallback(async () => {
    setLoadError(null);
    try {
      setEndpoint(await getEndpoint(id));
    } catch (e) {
      setLoadError(e);
    }
  }, [id]);
  const loadDeliveries = useCallback(async () => {
    setDeliveryError(null);
    try {
      setDeliveries(await listDeliveries(id, { status: status || undefined, event_type: eventType || undefined, page, limit: PAGE_SIZE }));
    } catch (e) {
      setDeliveryError(e);
      setDeliveries({ deliveries: [], total: 0, totalPages: 1 });
    }
  }, [id, status, eventType, page]);
  useEffect(() => void loadEndpoint(), [loadEndpoint]);
  useEffect(() => void loadDeliveries(), [loadDeliveries]);

  if (loadError)
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <PageTitle title="Webhook endpoint" />
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => navigate('/webhooks')}>
              Back
            </Button>
          }
        >
          {messageOf(loadError, 'This endpoint could not be loaded.')}
        </Alert>
      </Box>
    );
  if (!endpoint) return <Loading />;

  const act = async (run: () => Promise<{ message: string }>) => {
    try {
      showToast((await run()).message, 'success');
    } catch (e) {
      showToast(messageOf(e, 'That did not work.'), 'error');
    }
    await Promise.all([loadEndpoint(), loadDeliveries()]);
  };
  const filtered = Boolean(status || eventType);
  const rows = deliveries?.deliveries ?? [];
  const redeliverButton = (d: Delivery) => (
    <Button size="small" disabled={endpoint.status !== 'active'} onClick={(e) => (e.stopPropagation(), void act(() => redeliver(id, d.id)))}>
      Redeliver
    </Button>
  );

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Button startIcon={<ArrowBackIcon />} onClick={() => navigate('/webhooks')} sx={{ mb: 1 }}>
        Webhooks
      </Button>
      <PageTitle title="Webhook endpoint" subtitle={endpoint.url} />
      <Card variant="outlined" sx={{ mb: 3 }}>
        <CardContent>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} justifyContent="space-between">
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                {endpoint.url}
              </Typography>
              <Stack direction="row" spacing={1} sx={{ mt: 1 }} alignItems="center" flexWrap="wrap" useFlexGap>
                <Chip size="small" label={STATUS_LABELS[endpoint.status]} color={STATUS_COLORS[endpoint.status]} />
                <Typography variant="caption">{endpoint.organisation_name ?? 'Vendor endpoint'}</Typography>
              </Stack>
              {endpoint.status_reason ? (
                <Alert severity="error" sx={{ mt: 1 }}>
                  {endpoint.status_reason} Fix the receiving system, then activate the endpoint: what waited is sent then.
                </Alert>
              ) : null}
              <Stack direction="row" spacing={0.5} sx={{ mt: 1 }} flexWrap="wrap" useFlexGap>
                {endpoint.event_types.map((t) => (
                  <Chip key={t} size="small" variant="outlined" label={t} sx={{ fontFamily: 'monospace' }} />
                ))}
              </Stack>
            </Box>
            <Stack direction={{ xs: 'row', md: 'column' }} spacing={1} flexWrap="wrap" useFlexGap sx={{ flexShrink: 0 }}>
              <Button variant="outlined" onClick={() => setEditing(true)}>
                Edit
              </Button>
              <Button variant="outlined" onClick={() => void act(() => updateEndpoint(id, { active: endpoint.status !== 'active' }))}>
                {endpoint.status === 'active' ? 'Pause' : 'Activate'}
              </Button>
              <Button variant="outlined" disabled={endpoint.status !== 'active'} onClick={() => setReplaying(true)}>
                Replay…
              </Button>
              <Button color="error" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            </Stack>
          </Stack>
        </CardContent>
      </Card>

      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Deliveries
      </Typography>
      <WebhookToolbar
        filters={
          <>
            <WebhookFilter
              id="delivery-status-label"
              label="Status"
              value={status}
              onChange={(value) => (setStatus(value), setPage(1))}
              choices={Object.entries(DELIVERY_LABELS)}
              width={180}
            />
            <WebhookFilter
              id="delivery-type-label"
              label="Event type"
              value={eventType}
              onChange={(value) => (setEventType(value), setPage(1))}
              choices={endpoint.event_types.map((t) => [t, t] as const)}
              width={260}
            />
          </>
        }
        actions={
          <>
            <Button
              sx={{ whiteSpace: 'nowrap' }}
              startIcon={<DownloadIcon />}
              disabled={!rows.length}
              onClick={() =>
                downloadCsv(`webhook-deliveries-${new Date().toISOString().slice(0, 10)}`, rows, [
                  ['time', (d) => d.last_attempt_at ?? d.created_at],
                  ['event_type', (d) => d.event_type],
                  ['event_id', (d) => d.event_id],
                  ['kind', (d) => d.kind],
                  ['status', (d) => d.status],
                  ['status_code', (d) => d.status_code],
                  ['duration_ms', (d) => d.duration_ms],
                  ['attempts', (d) => d.attempts],
                  ['response_excerpt', (d) => d.response_excerpt],
                  ['error', (d) => d.error],
                ])
              }
            >
              Export
            </Button>
            <Button onClick={() => void loadDeliveries()}>Refresh</Button>
          </>
        }
      />
      <LoadError error={deliveryError} message="The delivery log could not be loaded." onRetry={loadDeliveries} />
      <WebhookList
        loading={deliveries === null}
        empty={
          rows.length === 0 && !deliveryError ? (
            <EmptyState
              title={filtered ? 'No delivery matches' : 'No deliveries yet'}
              message={
                filtered
                  ? undefined
                  : endpoint.status === 'active'
                    ? 'Deliveries appear here as the subscribed events happen.'
                    : 'This endpoint is not active: nothing is sent to it.'
              }
              filtered={filtered}
              onClearFilters={() => (setStatus(''), setEventType(''))}
            />
          ) : null
        }
        phone={phone}
        label="Deliveries"
        cardsLabel="Deliveries"
        cards={rows.map((d) => (
          <Card key={d.id} variant="outlined" data-testid="delivery">
            <CardContent>
              <Stack direction="row" justifyContent="space-between" alignItems="center">
                <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
                  {d.event_type}
                </Typography>
                <Chip size="small" label={DELIVERY_LABELS[d.status]} color={DELIVERY_COLORS[d.status]} />
              </Stack>
              <Typography variant="caption" component="div" color="text.secondary">
                <DateText value={d.last_attempt_at ?? d.created_at} /> · {d.status_code ?? '—'} · {d.duration_ms ?? '—'} ms · {d.attempts} attempt
                {d.attempts === 1 ? '' : 's'}
                {d.kind !== 'live' ? ` · ${d.kind}` : ''}
              </Typography>
              {d.error || d.response_excerpt ? (
                <Typography variant="caption" component="div" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                  {(d.error ?? d.response_excerpt ?? '').slice(0, 120)}
                </Typography>
              ) : null}
              {redeliverButton(d)}
            </CardContent>
          </Card>
        ))}
        head={
          <>
            <PlainHeader>Time</PlainHeader>
            <PlainHeader>Event</PlainHeader>
            <PlainHeader>Status</PlainHeader>
            <PlainHeader align="right">Code</PlainHeader>
            <PlainHeader align="right">Duration</PlainHeader>
            <PlainHeader align="right">Attempts</PlainHeader>
            <PlainHeader>Response</PlainHeader>
            <PlainHeader />
          </>
        }
        rows={rows.map((d) => (
          <TableRow key={d.id} data-testid="delivery">
            <TableCell>
              <DateText value={d.last_attempt_at ?? d.created_at} />
            </TableCell>
            <TableCell sx={{ fontFamily: 'monospace' }}>
              {d.event_type}
              {d.kind !== 'live' ? <Chip size="small" variant="outlined" label={d.kind} sx={{ ml: 1 }} /> : null}
            </TableCell>
            <TableCell>
              <Chip size="small" label={DELIVERY_LABELS[d.status]} color={DELIVERY_COLORS[d.status]} />
            </TableCell>
            <TableCell align="right">{d.status_code ?? '—'}</TableCell>
            <TableCell align="right">{d.duration_ms === null ? '—' : `${d.duration_ms} ms`}</TableCell>
            <TableCell align="right">{d.attempts}</TableCell>
            <TableCell
              sx={{ fontFamily: 'monospace', maxWidth: 280, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
              title={d.error ?? d.response_excerpt ?? ''}
            >
              {d.error ?? d.response_excerpt ?? ''}
            </TableCell>
            <TableCell>{redeliverButton(d)}</TableCell>
          </TableRow>
        ))}
      />
      {deliveries && deliveries.totalPages > 1 ? <Pagination sx={{ mt: 2 }} count={deliveries.totalPages} page={page} onChange={(_, p) => setPage(p)} /> : null}

      <EndpointDialog
        open={editing}
        endpoint={endpoint}
        onClose={() => setEditing(false)}
        onSave={async (body) => {
          const answer = await updateEndpoint(id, body);
          setEditing(false);
          showToast(answer.message, 'success');
          await loadEndpoint();
        }}
      />
      <ReplayDialog
        open={replaying}
        onClose={() => setReplaying(false)}
        onReplay={async (from) => {
          const answer = await replay(id, from);
          setReplaying(false);
          showToast(answer.message, 'success');
          setTimeout(() => void loadDeliveries(), 1500);
        }}
      />
      <ActionDialog
        open={deleting}
        titleId="delete-endpoint-title"
        title="Delete this endpoint?"
        message={`Nothing more is sent to ${endpoint.url}. Its delivery log stays for reference.`}
        busy={deletingBusy}
        onClose={() => setDeleting(false)}
        confirmLabel="Delete"
        busyLabel="Deleting…"
        onConfirm={async () => {
          setDeletingBusy(true);
          await act(() => deleteEndpoint(id));
          setDeletingBusy(false);
          navigate('/webhooks');
        }}
      />
    </Box>
  );
}
