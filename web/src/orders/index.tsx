import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import { lazy } from 'react';
import { Route } from 'react-router-dom';
import type { OrderRecord } from './ordersApi';

const Catalogue = lazy(() => import('../catalogue/Catalogue'));
const OrderList = lazy(() => import('./OrderList'));
const OrderShipping = lazy(() => import('./OrderShipping'));
const OrderConfirmation = lazy(() => import('./OrderConfirmation'));
const OrderTrack = lazy(() => import('./OrderTrack'));

/** The orders resource: its list screen and how a record is named. */
const orders = {
  list: OrderList,
  icon: LocalShippingIcon,
  recordRepresentation: (record: OrderRecord) => record.order_number,
};
export default orders;

/** The catalogue and order screens, mounted among the app's custom routes. */
export const orderRoutes = [
  <Route key="catalogue" path="/catalogue" element={<Catalogue />} />,
  <Route key="orders" path="/orders" element={<OrderList />} />,
  <Route key="order-shipping" path="/order/shipping" element={<OrderShipping />} />,
  <Route key="order-confirmation" path="/order/confirmation" element={<OrderConfirmation />} />,
  <Route key="order-track" path="/order/track/:orderId" element={<OrderTrack />} />,
];
