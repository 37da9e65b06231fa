import type { OrderView } from '@contracts/orders';
import { formatUsd } from '@domain/money';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import { Alert, Box, Button, CircularProgress, Divider, Link, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { formatDateTime } from '../formatting';
import { formatDay } from './orderDates';
import { PageTitle } from '../layout/PageTitle';
import { getPlacedOrder } from './ordersApi';
import { OrderStatusChip } from './OrderStatusChip';
import { getSupportContact } from '../tickets/SupportContactCard';
import { telLink, type SupportContact } from '@domain/settings/settings';

/** The configured support contact (System Settings), the same as on the Support Center's Contact tab. */
function OrderSupportContact() {
  const [contact, setContact] = useState<SupportContact | null | undefined>(undefined);
  useEffect(() => {
    getSupportContact().then(setContact, (error) => {
      console.error(error);
      setContact(null);
    });
  }, []);
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }} data-testid="confirmation-contact">
      {contact === undefined ? (
        '\u00a0'
      ) : contact ? (
        <>
          Contact support at <Link href={`mailto:${contact.email}`}>{contact.email}</Link> or <Link href={telLink(contact.phone)}>{contact.phone}</Link>,{' '}
          {contact.hours}.
        </>
      ) : (
        'Open a support case in the Support Center and quote your order number.'
      )}
    </Typography>
  );
}

const LAST_ORDER_KEY = 'last-confirmed-order';

/** Keeps the id of the order just placed, so the confirmation survives a reload. */
export function rememberConfirmedOrder(id: string): void {
  try {
    sessionStorage.setItem(LAST_ORDER_KEY, id);
  } catch {
    // Without storage a reload simply shows no order.
  }
}

export function AddressBlock({ order }: { order: OrderView }) {
  const a = order.shipping_address;
  return (
    <Box component="address" sx={{ fontStyle: 'normal' }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {a.firstName} {a.lastName}
      </Typography>
      <Typography variant="body2">{a.addressLine1}</Typography>
      {a.addressLine2 ? <Typography variant="body2">{a.addressLine2}</Typography> : null}
      <Typography variant="body2">
        {a.city}, {a.state} {a.zipCode}
      </Typography>
      <Typography variant="body2">{a.country}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, wordBreak: 'break-all' }}>
        {a.email} · {a.phone}
      </Typography>
      {a.specialInstructions ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          Special instructions: {a.specialInstructions}
        </Typography>
      ) : null}
    </Box>
  );
}

export function ItemsTable({ order }: { order: OrderView }) {
  const wideOnly = { display: { xs: 'none', sm: 'table-cell' } };
  return (
    <Table size="small" aria-label="Order items" sx={{ '& td, & th': { px: { xs: 0.75, sm: 2 } } }}>
      <TableHead>
        <TableRow>
          <TableCell>Product</TableCell>
          <TableCell align="right">Qty</TableCell>
          <TableCell align="right" sx={wideOnly}>
            Unit price
          </TableCell>
          <TableCell align="right">Amount</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {order.items.map((item) => (
          <TableRow key={item.product_id}>
            <TableCell sx={{ wordBreak: 'break-word' }}>
              {item.product_name}
              <Typography variant="caption" color="text.secondary" component="p" sx={{ display: { sm: 'none' } }}>
                {formatUsd(item.unit_price)} each
              </Typography>
            </TableCell>
            <TableCell align="right">{item.quantity}</TableCell>
            <TableCell align="right" sx={{ ...wideOnly, whiteSpace: 'nowrap' }}>
              {formatUsd(item.unit_price)}
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {formatUsd(item.line_total)}
            </TableCell>
          </TableRow>
        ))}
        <TableRow>
          <TableCell sx={{ fontWeight: 700, borderBottom: 0 }}>Total</TableCell>
          <TableCell sx={{ borderBottom: 0 }} />
          <TableCell sx={{ ...wideOnly, borderBottom: 0 }} />
          <TableCell align="right" sx={{ fontWeight: 700, borderBottom: 0, whiteSpace: 'nowrap' }} data-testid="confirmation-total">
            {formatUsd(order.total_amount)}
          </TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}

/**
 * /order/confirmation: the order just placed under the spec's 'Order Confirmed' heading, with its real
 * status (read again, since an administrator may already have moved it), Track Order and Return to Orders.
 */
export default function OrderConfirmation() {
  const navigate = useNavigate();
  const carried = (useLocation().state as { order?: OrderView } | null)?.order;
  const [order, setOrder] = useState<OrderView | undefined>(carried);
  const [loading, setLoading] = useState(!carried);

  useEffect(() => {
    const id = carried?.id ?? sessionStorage.getItem(LAST_ORDER_KEY);
    if (!id) {
      setLoading(false);
      return;
    }
    let live = true;
    getPlacedOrder(id)
      .then((fresh) => live && setOrder(fresh))
      .catch(() => live && !carried && setOrder(undefined))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [carried]);

  const back = (
    <Button variant={order ? 'outlined' : 'contained'} onClick={() => navigate('/orders')}>
      Return to Orders
    </Button>
  );

  if (loading) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress />
      </Box>
    );
  }
  if (!order) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <PageTitle title="Order Confirmed" />
        <Alert severity="info" sx={{ mb: 2, maxWidth: 640 }} data-testid="no-order">
          This page confirms an order right after it is placed, and no order was placed here. Your orders are listed on the{' '}
          <Link component={RouterLink} to="/orders">
            Orders page
          </Link>
          .
        </Alert>
        {back}
      </Box>
    );
  }

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 900, minWidth: 0 }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 4 } }}>
        <Box sx={{ textAlign: 'center', mb: 3 }}>
          <CheckCircleIcon color="success" sx={{ fontSize: 56 }} />
          <PageTitle title="Order Confirmed" subtitle="Thank you. We have received your order and will keep you posted on its progress." />
        </Box>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' }, mb: 3 }}>
          <Box>
            <Typography variant="caption" color="text.secondary">
              Order number
            </Typography>
            <Typography sx={{ fontWeight: 700, wordBreak: 'break-all' }} data-testid="confirmation-order-number">
              {order.order_number}
            </Typography>
          </Box>
          <Box>
            <Typography variant="caption" color="text.secondary">
              Order date
            </Typography>
            <Typography>{formatDateTime(order.created_at)}</Typography>
          </Box>
          <Box>
            <Typography variant="caption" color="text.secondary" component="p">
              Status
            </Typography>
            <Box data-testid="confirmation-status">
              <OrderStatusChip status={order.status} />
            </Box>
          </Box>
        </Box>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          Shipping address
        </Typography>
        <AddressBlock order={order} />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Requested delivery: {formatDay(order.estimated_delivery)}
        </Typography>
        <Divider sx={{ my: 3 }} />
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          Items
        </Typography>
        <ItemsTable order={order} />
        <Divider sx={{ my: 3 }} />
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          Questions about your order?
        </Typography>
        <OrderSupportContact />
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', '& > *': { flex: { xs: '1 1 100%', sm: '0 0 auto' } } }}>
          <Button variant="contained" startIcon={<LocalShippingIcon />} onClick={() => navigate(`/order/track/${order.id}`)}>
            Track Order
          </Button>
          {back}
        </Box>
      </Paper>
    </Box>
  );
}
