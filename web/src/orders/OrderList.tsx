import { hasPermission, isAdminRole } from '@domain/access';
import { formatUsd } from '@domain/catalogue/catalogue';
import EditNoteIcon from '@mui/icons-material/EditNote';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import SearchIcon from '@mui/icons-material/Search';
import StorefrontIcon from '@mui/icons-material/Storefront';
import TimerIcon from '@mui/icons-material/Timer';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  InputAdornment,
  Pagination,
  Paper,
  TextField,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useState, type ReactElement } from 'react';
import { useGetList } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { orderManagementSubtitle } from '../access/invitations';
import { useAccess } from '../access/usePrincipal';
import { StockChip } from '../catalogue/StockChip';
import { formatDate } from '../formatting';
import { formatDay } from './orderDates';
import { PageTitle } from '../layout/PageTitle';
import { ProductThumb } from '../products/ProductThumb';
import { AccessRestricted } from './AccessRestricted';
import { NOTICE_MS } from './orderMessages';
import { getOrderStatistics, type OrderRecord, type OrderStatistics } from './ordersApi';
import { OrderStatusChip } from './OrderStatusChip';
import { OrderStatusDialog } from './OrderStatusDialog';
import { HistoryDrawer } from '../history';
import HistoryIcon from '@mui/icons-material/History';
import { useDebounced } from '../layout/useDebounced';
import { LoadError, Loading } from '../layout/ListStates';

const PAGE_SIZE = 12;


function StatCard({ label, value, icon, hint }: { label: string; value: string; icon: ReactElement; hint?: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'center', minWidth: 0 }}>
      <Box sx={{ color: 'primary.main', display: 'flex' }}>{icon}</Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary" noWrap>
          {label}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontWeight: 700 }} aria-label={label} data-testid={`stat-${label}`}>
          {value}
        </Typography>
        {hint ? (
          <Typography variant="caption" color="text.secondary" noWrap component="p">
            {hint}
          </Typography>
        ) : null}
      </Box>
    </Paper>
  );
}

function Statistics({ stats }: { stats: OrderStatistics | null }) {
  const dash = '—';
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, mb: 3 }}>
      <StatCard label="Total Orders" value={stats ? String(stats.totalOrders) : dash} icon={<ReceiptLongIcon />} />
      <StatCard label="This Month" value={stats ? stats.thisMonthTotalFormatted : dash} icon={<TrendingUpIcon />} hint={stats ? `${stats.thisMonthOrders} orders` : undefined} />
      <StatCard label="Pending" value={stats ? String(stats.pendingOrders) : dash} icon={<HourglassTopIcon />} />
      <StatCard
        label="Avg. Delivery"
        value={stats?.averageDeliveryDays == null ? dash : `${stats.averageDeliveryDays} day${stats.averageDeliveryDays === 1 ? '' : 's'}`}
        icon={<TimerIcon />}
      />
    </Box>
  );
}

function OrderCard({ order, admin, onTrack, onUpdate, onHistory }: { order: OrderRecord; admin: boolean; onTrack: () => void; onUpdate: () => void; onHistory: () => void }) {
  return (
    <Card variant="outlined" data-testid="order-card" data-order-number={order.order_number} sx={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
      <CardContent sx={{ flex: 1, pb: 1 }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'flex-start' }}>
          <Typography sx={{ fontWeight: 700, wordBreak: 'break-all' }}>{order.order_id}</Typography>
          <OrderStatusChip status={order.status} />
        </Box>
        <Typography variant="body2" sx={{ mt: 0.5, wordBreak: 'break-word' }}>
          {order.partner.company_name ?? '—'}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p">
          Ordered {formatDate(order.order_date)} · {order.item_count} unit{order.item_count === 1 ? '' : 's'}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p">
          {order.delivery_date ? `Delivered ${formatDate(order.delivery_date)}` : `Requested delivery ${formatDay(order.estimated_delivery)}`}
        </Typography>
        <Typography variant="h6" component="p" sx={{ mt: 1, fontSize: '1.1rem' }}>
          {formatUsd(order.total_amount)}
        </Typography>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, gap: 1, flexWrap: 'wrap' }}>
        <Button size="small" variant="outlined" startIcon={<LocalShippingIcon />} onClick={onTrack} aria-label={`Track ${order.order_id}`}>
          Track
        </Button>
        <Button size="small" startIcon={<HistoryIcon />} onClick={onHistory} aria-label={`History of ${order.order_id}`}>
          History
        </Button>
        {admin ? (
          <Button size="small" variant="contained" startIcon={<EditNoteIcon />} onClick={onUpdate} aria-label={`Update status of ${order.order_id}`}>
            Update Status
          </Button>
        ) : null}
      </CardActions>
    </Card>
  );
}

interface ProductSummary {
  id: string;
  name: string;
  price: number;
  stock_quantity: number;
  image_url: string | null;
}

/** A few catalogue products beside the orders, for a quick reorder. */
function ProductStrip() {
  const { data, isPending } = useGetList<ProductSummary>('products', { pagination: { page: 1, perPage: 4 }, sort: { field: 'stock_quantity', order: 'DESC' }, filter: {} });
  if (isPending || !data?.length) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 3 }} component="section" aria-label="Products">
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2">
          Products
        </Typography>
        <Button component={RouterLink} to="/catalogue" size="small">
          View catalogue
        </Button>
      </Box>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' } }}>
        {data.map((product) => (
          <Box key={product.id} sx={{ display: 'flex', gap: 1.5, alignItems: 'center', minWidth: 0 }}>
            <ProductThumb src={product.image_url} name={product.name} size={40} />
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" noWrap title={product.name} sx={{ fontWeight: 600 }}>
                {product.name}
              </Typography>
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                <Typography variant="caption">{formatUsd(product.price)}</Typography>
                <StockChip stock={product.stock_quantity} showCount={false} />
              </Box>
            </Box>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}

function OrderManagement() {
  const { principal, canDo } = useAccess();
  const navigate = useNavigate();
  const admin = isAdminRole(principal?.role);
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [stats, setStats] = useState<OrderStatistics | null>(null);
  const [updating, setUpdating] = useState<OrderRecord | null>(null);
  const [history, setHistory] = useState<OrderRecord | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => setPage(1), [query]);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  const loadStats = useCallback(() => {
    getOrderStatistics()
      .then(setStats)
      .catch(() => setStats(null));
  }, []);
  useEffect(loadStats, [loadStats]);

  const { data, total, isPending, error, refetch } = useGetList<OrderRecord>('orders', {
    pagination: { page, perPage: PAGE_SIZE },
    sort: { field: 'created_at', order: 'DESC' },
    filter: query ? { q: query } : {},
  });
  const orders = data ?? [];

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 2, flexWrap: 'wrap' }}>
        <PageTitle title="Order Management" subtitle={orderManagementSubtitle(canDo('browse-products'))} />
        {canDo('browse-products') ? (
          <Button variant="contained" startIcon={<StorefrontIcon />} onClick={() => navigate('/catalogue')}>
            Browse Products
          </Button>
        ) : null}
      </Box>
      {notice ? (
        <Alert severity="success" sx={{ mb: 2 }} role="status" data-testid="orders-notice" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      ) : null}
      <Statistics stats={stats} />
      {canDo('browse-products') ? <ProductStrip /> : null}

      <Paper variant="outlined" sx={{ p: { xs: 2, md: 2.5 } }} component="section" aria-label="Recent Orders">
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 2 }}>
          <Typography variant="h6" component="h2">
            Recent Orders
          </Typography>
          <TextField
            size="small"
            placeholder="Search by order ID or company"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            sx={{ flex: { xs: '1 1 100%', sm: '0 1 320px' } }}
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> }, htmlInput: { 'aria-label': 'Search orders by order ID or company' } }}
          />
        </Box>
        <LoadError error={error} onRetry={refetch} message={(error as Error | null)?.message || 'Failed to load orders'} />
        {isPending ? (
          <Loading />
        ) : orders.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2, textAlign: 'center' }}>
            No orders found
          </Typography>
        ) : (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}>
            {orders.map((order) => (
              <OrderCard key={order.id} order={order} admin={admin} onTrack={() => navigate(`/order/track/${order.id}`)} onUpdate={() => setUpdating(order)} onHistory={() => setHistory(order)} />
            ))}
          </Box>
        )}
        {total !== undefined && total > PAGE_SIZE ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
            <Pagination count={Math.ceil(total / PAGE_SIZE)} page={page} onChange={(_, next) => setPage(next)} size="small" />
          </Box>
        ) : null}
      </Paper>

      <HistoryDrawer path="/orders" record={history ? { id: history.id, name: history.order_id } : null} onClose={() => setHistory(null)} />
      {admin ? (
        <OrderStatusDialog
          order={updating}
          onClose={() => setUpdating(null)}
          onUpdated={(message) => {
            setNotice(message);
            void refetch();
            loadStats();
          }}
        />
      ) : null}
    </Box>
  );
}

/** /orders: statistics, recent orders with tracking, and the administrators' status updates. */
export default function OrderList() {
  const { principal, canDo } = useAccess();
  const canTrack = principal ? hasPermission(principal, 'Orders.Track') : false;
  // Orders.Track is one of the permissions the /orders route asks, so whoever holds it may open the route too.
  if (canTrack) return <OrderManagement />;
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle title="Order Management" subtitle={orderManagementSubtitle(canDo('browse-products'))} />
      <AccessRestricted>
        Viewing orders requires the <strong>Delivery status</strong> permission (Orders.Track). Please contact your administrator.
      </AccessRestricted>
    </Box>
  );
}
