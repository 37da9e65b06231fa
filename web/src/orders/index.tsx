import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const Catalogue = lazy(() => import('../catalogue/Catalogue'));
const OrderList = lazy(() => import('./OrderList'));
const OrderShipping = lazy(() => import('./OrderShipping'));
const OrderConfirmation = lazy(() => import('./OrderConfirmation'));
const OrderTrack = lazy(() => import('./OrderTrack'));

/** The catalogue and order screens. */
export const orderScreens: Screen[] = [
  { path: '/catalogue', element: <Catalogue /> },
  { path: '/orders', element: <OrderList /> },
  { path: '/order/shipping', element: <OrderShipping /> },
  { path: '/order/confirmation', element: <OrderConfirmation /> },
  { path: '/order/track/:orderId', element: <OrderTrack /> },
];
