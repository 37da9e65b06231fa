import AddIcon from '@mui/icons-material/Add';
import DownloadIcon from '@mui/icons-material/Download';
import {
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Chip,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { isAdminRole } from '@domain/access';
import { PageTitle } from '../layout/PageTitle';
import { showToast } from '../layout/toast';
import { DateText, EmptyState, LoadError, PlainHeader, SortableHeader, type ListSort } from '../lists';
import { getRole } from '../providers/session';
import { EndpointDialog } from './EndpointDialogs';
import { WebhookFilter, WebhookList, WebhookToolbar } from './WebhookList';
import { SecretOnceDialog, type SecretOnce } from '../lists/SecretOnceDialog';
import { createEndpoint, downloadCsv, listEndpoints, STATUS_COLORS, STATUS_LABELS, type Endpoint } from './webhooksApi';

const SORTERS: Record<string, (e: Endpoint) => string> = {
  url: (e) => e.url,
  status: (e) => e.status,
  created_at: (e) => e.created_at,
  organisation_name: (e) => e.organisation_name ?? '',
};

/** Webhook endpoints: the vendor's and every organisation's for admins, the organisation's own for its owner. */
export default function WebhooksPage() {
  const admin = isAdminRole(getRole());
  const navigate = useNavigate();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [rows, setRows] = useState<Endpoint[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<ListSort>({ field: 'created_at', order: 'DESC' });
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<SecretOnce | null>(null);

  const load = useCallback(async () => {
    setError(null);
    try {
      setRows(await listEndpoints());
    } catch (e) {
      setError(e);
      setRows([]);
    }
  }, []);
  useEffect(() => void load(), [load]);

  const shown = useMemo(() => {
    const filtered = (rows ?? []).filter((e) => (!status || e.status === status) && (!search || e.url.toLowerCase().includes(search.toLowerCase())));
    const key = SORTERS[sort.field] ?? SORTERS.created_at;
    return [...filtered].sort((a, b) => key(a).localeCompare(key(b)) * (sort.order === 'ASC' ? 1 : -1));
  }, [rows, status, search, sort]);
  const onSort = (field: string, firstOrder: 'ASC' | 'DESC' = 'ASC') =>
    setSort((s) => ({ field, order: s.field === field ? (s.order === 'ASC' ? 'DESC' : 'ASC') : firstOrder }));
  const filtered = Boolean(status || search);

  const exportCsv = () =>
    downloadCsv(`webhooks-${new Date().toISOString().slice(0, 10)}`, shown, [
      ['url', (e) => e.url],
      ['organisation', (e) => e.organisation_name ?? 'Vendor'],
      ['event_types', (e) => e.event_types.join(' ')],
      ['status', (e) => e.status],
      ['last_delivery_at', (e) => e.last_delivery_at],
      ['pending', (e) => e.pending_deliveries],
      ['failed', (e) => e.failed_deliveries],
      ['created_at', (e) => e.created_at],
    ]);

  const create = async (body: { url: string; event_types: string[]; active: boolean }) => {
    const answer = await createEndpoint(body);
    setCreating(false);
    setSecret({ title: 'Signing secret', key: answer.secret });
    showToast(answer.message, 'success');
    await load();
  };

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle
        title="Webhooks"
        subtitle={
          admin
            ? "Endpoints that receive the portal's events, signed per Standard Webhooks: the vendor's and every organisation's."
            : "Endpoints of your organisation's systems that receive its events, signed per Standard Webhooks."
        }
      />
      <WebhookToolbar
        filters={
          <>
            <TextField size="small" label="Search URL" value={search} onChange={(e) => setSearch(e.target.value)} sx={{ width: { sm: 260 } }} />
            <WebhookFilter id="webhook-status-label" label="Status" value={status} onChange={setStatus} choices={Object.entries(STATUS_LABELS)} width={180} />
          </>
        }
        actions={
          <>
            <Button startIcon={<DownloadIcon />} onClick={exportCsv} disabled={!shown.length} sx={{ whiteSpace: 'nowrap' }}>
              Export
            </Button>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)} sx={{ whiteSpace: 'nowrap' }}>
              Add endpoint
            </Button>
          </>
        }
      />
      <LoadError error={error} message="The webhook endpoints could not be loaded." onRetry={load} />
      <WebhookList
        loading={rows === null}
        empty={
          shown.length === 0 && !error ? (
            <EmptyState
              title={filtered ? 'No endpoint matches' : 'No webhook endpoints yet'}
              message={filtered ? undefined : 'Add an endpoint to have your systems hear of orders, deals, leads and more as they happen.'}
              filtered={filtered}
              onClearFilters={() => (setStatus(''), setSearch(''))}
              action={
                filtered ? undefined : (
                  <Button variant="contained" onClick={() => setCreating(true)}>
                    Add endpoint
                  </Button>
                )
              }
            />
          ) : null
        }
        phone={phone}
        label="Webhook endpoints"
        cards={shown.map((e) => (
          <Card key={e.id} variant="outlined">
            <CardActionArea onClick={() => navigate(`/webhooks/${e.id}`)}>
              <CardContent>
                <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                  {e.url}
                </Typography>
                <Stack direction="row" spacing={1} sx={{ mt: 1 }} alignItems="center" flexWrap="wrap" useFlexGap>
                  <Chip size="small" label={STATUS_LABELS[e.status]} color={STATUS_COLORS[e.status]} />
                  <Typography variant="caption">
                    {e.event_types.length} event type{e.event_types.length === 1 ? '' : 's'}
                  </Typography>
                  {admin ? <Typography variant="caption">{e.organisation_name ?? 'Vendor'}</Typography> : null}
                </Stack>
                <Typography variant="caption" color="text.secondary">
                  Last delivery: <DateText value={e.last_delivery_at} empty="never" />
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
        head={
          <>
            <SortableHeader field="url" label="URL" sort={sort} onSort={onSort} />
            {admin ? <SortableHeader field="organisation_name" label="Owner" sort={sort} onSort={onSort} /> : null}
            <PlainHeader>Event types</PlainHeader>
            <SortableHeader field="status" label="Status" sort={sort} onSort={onSort} />
            <PlainHeader>Last delivery</PlainHeader>
            <PlainHeader>Pending / failed</PlainHeader>
            <SortableHeader field="created_at" label="Created" sort={sort} onSort={onSort} firstOrder="DESC" />
          </>
        }
        rows={shown.map((e) => (
          <TableRow key={e.id} hover sx={{ cursor: 'pointer' }} onClick={() => navigate(`/webhooks/${e.id}`)}>
            <TableCell sx={{ fontFamily: 'monospace', minWidth: 240, maxWidth: 380, overflowWrap: 'anywhere' }}>{e.url}</TableCell>
            {admin ? <TableCell>{e.organisation_name ?? 'Vendor'}</TableCell> : null}
            <TableCell>
              {e.event_types.length <= 2 ? e.event_types.join(', ') : `${e.event_types.slice(0, 2).join(', ')} +${e.event_types.length - 2}`}
            </TableCell>
            <TableCell>
              <Chip size="small" label={STATUS_LABELS[e.status]} color={STATUS_COLORS[e.status]} />
            </TableCell>
            <TableCell>
              <DateText value={e.last_delivery_at} empty="never" />
            </TableCell>
            <TableCell>
              {e.pending_deliveries} / {e.failed_deliveries}
            </TableCell>
            <TableCell>
              <DateText value={e.created_at} />
            </TableCell>
          </TableRow>
        ))}
      />
      <EndpointDialog open={creating} onClose={() => setCreating(false)} onSave={create} />
      <SecretOnceDialog
        secret={secret}
        onClose={() => setSecret(null)}
        warning="Copy this secret now: it is not shown again. Your system uses it to verify each delivery's webhook-signature header (Standard Webhooks)."
        copied="Signing secret copied"
        testId="webhook-secret"
        titleId="webhook-secret-title"
      />
    </Box>
  );
}
