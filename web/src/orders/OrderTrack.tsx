import type { OrderDetail } from '@contracts/orders';
import { hasPermission, isAdminRole } from '@domain/access';
import { formatUsd } from '@domain/money';
import { statusLabel } from '@domain/orders/orders';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import EditNoteIcon from '@mui/icons-material/EditNote';
import { Alert, Box, Button, CircularProgress, Divider, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { formatDate, formatDateTime } from '../formatting';
import { formatDay } from './orderDates';
import { PageTitle } from '../layout/PageTitle';
import { useTimedNotice } from '../layout/useTimedNotice';
import { ApiError } from '../providers/errorMapper';
import type { StatusChange } from '@contracts/answers';
import { HistoryDrawer } from '../history';
import { AccessRestricted } from './AccessRestricted';
import { AddressBlock, ItemsTable } from './OrderConfirmation';
import { trackOrder } from './ordersApi';
import { OrderStatusChip } from './OrderStatusChip';
import { OrderStatusDialog } from './OrderStatusDialog';
import { NOTICE_MS } from './orderMessages';
import { OrderNotice } from './OrderNotice';

/** The usual road of an order; a cancelled order's road ends where it was cancelled. */
const ROAD = ['pending', 'approved', 'shipped', 'delivered'] as const;
const STEP_TITLES: Record<string, string> = {
  pending: 'Order placed',
  approved: 'Approved',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

interface Step {
  status: string;
  entry: StatusChange | undefined;
}

/** The timeline: every status the order really passed through, then the steps still ahead. */
export function timelineSteps(order: Pick<OrderDetail, 'status'>, history: StatusChange[]): Step[] {
  const passed: Step[] = history.map((entry) => ({ status: entry.to_status, entry }));
  if (order.status === 'cancelled') return passed;
  const reached = new Set(passed.map((s) => s.status));
  const ahead = ROAD.filter((status) => !reached.has(status)).map((status) => ({ status, entry: undefined }));
  return [...passed, ...ahead];
}

function Timeline({ steps }: { steps: Step[] }) {
  return (
    <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Order status timeline">
      {steps.map((step, index) => {
        const done = Boolean(step.entry);
        const last = index === steps.length - 1;
        const icon =
          step.status === 'cancelled' ? (
            <CancelIcon color="error" />
          ) : done ? (
            <CheckCircleIcon color="success" />
          ) : (
            <RadioButtonUncheckedIcon color="disabled" />
          );
        return (
          <Box
            component="li"
            key={`${step.status}-${index}`}
            sx={{ display: 'flex', gap: 2 }}
            data-testid="timeline-step"
            data-status={step.status}
            data-done={done}
          >
            <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
              {icon}
              {!last ? <Box sx={{ flex: 1, width: 2, bgcolor: done ? 'success.light' : 'divider', my: 0.5, minHeight: 24 }} /> : null}
            </Box>
            <Box sx={{ pb: last ? 0 : 2.5, minWidth: 0 }}>
              <Typography sx={{ fontWeight: 600 }} color={done ? 'text.primary' : 'text.secondary'}>
                {STEP_TITLES[step.status] ?? statusLabel(step.status)}
              </Typography>
              {step.entry ? (
                <>
                  <Typography variant="body2" color="text.secondary" data-testid="timeline-time">
                    {formatDateTime(step.entry.occurred_at)}
                    {step.entry.actor_name ? ` · ${step.entry.actor_name}` : ''}
                  </Typography>
                  {step.entry.reason ? (
                    <Typography variant="body2" sx={{ mt: 0.5, wordBreak: 'break-word' }} data-testid="timeline-note">
                      {step.entry.reason}
                    </Typography>
                  ) : null}
                </>
              ) : (
                <Typography variant="body2" color="text.secondary">
                  Not yet
                </Typography>
              )}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

/** How the order travels, once shipped: the carrier and tracking number the administrator named. */
function Shipment({ order }: { order: OrderDetail }) {
  if (!order.carrier) return null;
  return (
    <Box sx={{ mb: 1.5, p: 1.5, borderRadius: 1, bgcolor: 'action.hover' }} data-testid="shipment">
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        Shipped with {order.carrier}
      </Typography>
      <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
        Tracking number{' '}
        <Box component="span" sx={{ fontFamily: 'monospace' }} data-testid="tracking-number">
          {order.tracking_number}
        </Box>
      </Typography>
    </Box>
  );
}

/** The administrators' History: every status change with who made it, in their role, and when. */
function History({ entries, order }: { entries: StatusChange[]; order: OrderDetail }) {
  const [versions, setVersions] = useState(false);
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, mt: 2, minWidth: 0 }} component="section" aria-label="History">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          History
        </Typography>
        <Button size="small" onClick={() => setVersions(true)}>
          Every version
        </Button>
      </Box>
      <HistoryDrawer path="/orders" record={versions ? { id: order.id, name: order.order_id } : null} onClose={() => setVersions(false)} />
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Status history" data-testid="order-history">
          <TableHead>
            <TableRow>
              <TableCell>When</TableCell>
              <TableCell>Change</TableCell>
              <TableCell>By</TableCell>
              <TableCell>Note</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {[...entries].reverse().map((entry) => (
              <TableRow key={entry.id}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.occurred_at)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {entry.from_status ? `${statusLabel(entry.from_status)} → ${statusLabel(entry.to_status)}` : `Placed (${statusLabel(entry.to_status)})`}
                </TableCell>
                <TableCell>
                  {entry.actor_name ?? '—'}
                  {entry.actor_role ? <Typography component="span" variant="caption" color="text.secondary">{` · ${entry.actor_role}`}</Typography> : null}
                </TableCell>
                <TableCell sx={{ wordBreak: 'break-word', minWidth: 160 }}>{entry.reason ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Paper>
  );
}

function NotFound() {
  const navigate = useNavigate();
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 }, maxWidth: 560, mx: 'auto', textAlign: 'center' }}>
        <SearchOffIcon color="disabled" sx={{ fontSize: 56 }} />
        <PageTitle title="Order Not Found" subtitle="We could not find this order. Check the order number, or go back to your orders." />
        <Button variant="contained" startIcon={<ArrowBackIcon />} onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/orders'))}>
          Go Back
        </Button>
      </Paper>
    </Box>
  );
}

/**
 * /order/track/:orderId, where a row of the orders list leads: the order's items, address, shipment and
 * real status history with times and notes; for administrators also Update Status and the History.
 */
export default function OrderTrack() {
  const { orderId = '' } = useParams();
  const navigate = useNavigate();
  const { principal } = useAccess();
  const canTrack = principal ? hasPermission(principal, 'Orders.Track') : false;
  const admin = isAdminRole(principal?.role);
  const [state, setState] = useState<{ loading: boolean; order?: OrderDetail; timeline?: StatusChange[]; failure?: string; missing?: boolean }>({
    loading: true,
  });
  const [updating, setUpdating] = useState<OrderDetail | null>(null);
  const [notice, setNotice] = useTimedNotice(NOTICE_MS);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!canTrack) return;
    let live = true;
    // A reload after a status change keeps the page on screen; only the first load shows the spinner.
    setState((current) => (current.order ? current : { loading: true }));
    trackOrder(orderId)
      .then(({ order, timeline }) => live && setState({ loading: false, order, timeline }))
      .catch((error: unknown) => {
        if (!live) return;
        const missing = error instanceof ApiError && [400, 403, 404].includes(error.status);
        setState({ loading: false, missing, failure: missing ? undefined : error instanceof Error ? error.message : 'Failed to load the order' });
      });
    return () => {
      live = false;
    };
  }, [orderId, canTrack, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  if (!canTrack) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <PageTitle title="Order Tracking" />
        <AccessRestricted>
          Tracking orders requires the <strong>Delivery status</strong> permission (Orders.Track). Please contact your administrator.
        </AccessRestricted>
      </Box>
    );
  }
  if (state.loading) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress />
      </Box>
    );
  }
  if (state.missing) return <NotFound />;
  if (!state.order) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <PageTitle title="Order Tracking" />
        <Alert severity="error">{state.failure}</Alert>
      </Box>
    );
  }

  const { order, timeline = [] } = state;
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 1000, minWidth: 0 }}>
      <Button startIcon={<ArrowBackIcon />} onClick={() => navigate('/orders')} sx={{ mb: 1 }}>
        Back to Orders
      </Button>
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <PageTitle
          title={`Order ${order.order_number}`}
          subtitle={`${order.partner.company_name ?? ''}${order.partner.company_name ? ' · ' : ''}ordered ${formatDate(order.order_date)}`}
        />
        {admin && order.next_statuses.length ? (
          <Button variant="contained" startIcon={<EditNoteIcon />} onClick={() => setUpdating(order)} aria-label={`Update status of ${order.order_number}`}>
            Update Status
          </Button>
        ) : null}
      </Box>
      <OrderNotice notice={notice} onClose={() => setNotice(null)} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
        <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }} component="section" aria-label="Status">
          <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 2, gap: 1, flexWrap: 'wrap' }}>
            <Typography variant="h6" component="h2">
              Status
            </Typography>
            <OrderStatusChip status={order.status} />
          </Box>
          <Timeline steps={timelineSteps(order, timeline)} />
        </Paper>
        <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }} component="section" aria-label="Delivery">
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            Delivery
          </Typography>
          <Shipment order={order} />
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {order.delivery_date ? `Delivered ${formatDateTime(order.delivery_date)}` : `Requested delivery date: ${formatDay(order.estimated_delivery)}`}
          </Typography>
          <AddressBlock order={order} />
          {order.notes ? (
            <Typography variant="body2" sx={{ mt: 1 }}>
              Order notes: {order.notes}
            </Typography>
          ) : null}
          <Divider sx={{ my: 2 }} />
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            Total {formatUsd(order.total_amount)}
          </Typography>
        </Paper>
      </Box>
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, mt: 2 }} component="section" aria-label="Items">
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Items
        </Typography>
        <ItemsTable order={order} />
      </Paper>
      {order.serial_numbers?.length ? (
        <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, mt: 2 }} component="section" aria-label="Serial numbers">
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            Serial numbers
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Check a unit's warranty or request a return with its serial number in the Support Center.
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2, columns: { xs: 1, md: 2 } }} data-testid="serial-numbers">
            {order.serial_numbers.map((unit) => (
              <li key={unit.serial_number}>
                <Typography variant="body2" component="span" sx={{ fontFamily: 'monospace' }}>
                  {unit.serial_number}
                </Typography>{' '}
                <Typography variant="body2" component="span" color="text.secondary">
                  {unit.product_name}
                </Typography>
              </li>
            ))}
          </Box>
        </Paper>
      ) : null}
      {admin ? <History entries={timeline} order={order} /> : null}
      {admin ? (
        <OrderStatusDialog
          order={updating}
          onClose={() => setUpdating(null)}
          onUpdated={(message) => {
            setNotice(message);
            reload();
          }}
        />
      ) : null}
    </Box>
  );
}
