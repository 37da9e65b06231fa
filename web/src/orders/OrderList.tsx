import type { OrderStatistics, OrderView } from '@contracts/orders';
import { hasPermission, isAdminRole } from '@domain/access';
import { formatUsd } from '@domain/money';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import StorefrontIcon from '@mui/icons-material/Storefront';
import TimerIcon from '@mui/icons-material/Timer';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import { Box, Button, Paper, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { List, useGetList, useRefresh } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { orderManagementSubtitle } from '../access/invitations';
import { useAccess } from '../access/usePrincipal';
import { CappedPagination } from '../lists/CappedPagination';
import { StockChip } from '../catalogue/StockChip';
import { PageTitle } from '../layout/PageTitle';
import { useTimedNotice } from '../layout/useTimedNotice';
import { ProductThumb } from '../products/ProductThumb';
import { AccessRestricted } from './AccessRestricted';
import { NOTICE_MS } from './orderMessages';
import { OrderNotice } from './OrderNotice';
import { getOrderStatistics } from './ordersApi';
import { OrderListBody, ORDER_PAGE_SIZES } from './OrderListView';
import { OrderStatusDialog } from './OrderStatusDialog';
import { StatCard } from '../layout/StatCard';

function Statistics({ stats }: { stats: OrderStatistics | null }) {
  const dash = '—';
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, mb: 3 }}>
      <StatCard label="Total Orders" value={stats ? String(stats.totalOrders) : dash} icon={<ReceiptLongIcon />} />
      <StatCard
        label="This Month"
        value={stats ? stats.thisMonthTotalFormatted : dash}
        icon={<TrendingUpIcon />}
        note={stats ? `${stats.thisMonthOrders} orders` : undefined}
      />
      <StatCard label="Pending" value={stats ? String(stats.pendingOrders) : dash} icon={<HourglassTopIcon />} />
      <StatCard
        label="Avg. Delivery"
        value={stats?.averageDeliveryDays == null ? dash : `${stats.averageDeliveryDays} day${stats.averageDeliveryDays === 1 ? '' : 's'}`}
        icon={<TimerIcon />}
      />
    </Box>
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
  const { data, isPending } = useGetList<ProductSummary>('products', {
    pagination: { page: 1, perPage: 4 },
    sort: { field: 'stock_quantity', order: 'DESC' },
    filter: {},
  });
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
  const refresh = useRefresh();
  const admin = isAdminRole(principal?.role);
  const [stats, setStats] = useState<OrderStatistics | null>(null);
  const [updating, setUpdating] = useState<OrderView | null>(null);
  const [notice, setNotice] = useTimedNotice(NOTICE_MS);
  // Bumped after a status change, so the tab counts are read again with the list.
  const [version, setVersion] = useState(0);

  const loadStats = useCallback(() => {
    getOrderStatistics()
      .then(setStats)
      .catch(() => setStats(null));
  }, []);
  useEffect(loadStats, [loadStats]);

  const browse = canDo('browse-products');
  const emptyAction = browse ? (
    <Button variant="contained" size="small" startIcon={<StorefrontIcon />} onClick={() => navigate('/catalogue')}>
      Browse Products
    </Button>
  ) : undefined;

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 2, flexWrap: 'wrap', mb: { xs: 2, sm: 0 } }}>
        <PageTitle title="Order Management" subtitle={browse ? 'Track orders and browse our product catalog.' : 'Track orders and their delivery.'} />
        {browse ? (
          <Button variant="contained" startIcon={<StorefrontIcon />} onClick={() => navigate('/catalogue')}>
            Browse Products
          </Button>
        ) : null}
      </Box>
      <OrderNotice notice={notice} onClose={() => setNotice(null)} />
      <Statistics stats={stats} />
      {/* On phones the list comes first; Browse Products leads to the catalogue. */}
      {browse ? (
        <Box sx={{ display: { xs: 'none', md: 'block' } }}>
          <ProductStrip />
        </Box>
      ) : null}

      <Paper variant="outlined" sx={{ p: { xs: 1.5, md: 2.5 }, minWidth: 0 }} component="section" aria-label="Orders">
        <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
          Orders
        </Typography>
        <List
          resource="orders"
          title={false}
          actions={false}
          empty={false}
          sort={{ field: 'created_at', order: 'DESC' }}
          perPage={25}
          pagination={<CappedPagination rowsPerPageOptions={ORDER_PAGE_SIZES} noun="orders" />}
          component="div"
          disableAuthentication
          sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-noActions': { mt: 0 } }}
        >
          <OrderListBody admin={admin} onUpdate={setUpdating} version={version} emptyAction={emptyAction} />
        </List>
      </Paper>

      {admin ? (
        <OrderStatusDialog
          order={updating}
          onClose={() => setUpdating(null)}
          onUpdated={(message) => {
            setNotice(message);
            setVersion((v) => v + 1);
            refresh();
            loadStats();
          }}
        />
      ) : null}
    </Box>
  );
}

/** /orders: statistics, the orders list (tabs, filters, sort, export) and the administrators' status updates. */
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
