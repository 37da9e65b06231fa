import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const WebhooksPage = lazy(() => import('./WebhooksPage'));
const WebhookDetail = lazy(() => import('./WebhookDetail'));

/** Webhook endpoints (admins: the vendor's and all; organisation owners: their own). */
export const webhookScreens: Screen[] = [
  { path: '/webhooks', element: <WebhooksPage />, guard: { title: 'Webhooks' } },
  { path: '/webhooks/:id', element: <WebhookDetail />, guard: { path: '/webhooks', title: 'Webhooks' } },
];
