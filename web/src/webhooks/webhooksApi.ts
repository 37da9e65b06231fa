/** The webhook calls of the portal, typed from the server's contract. */

import type { WebhookDeliveryView, WebhookEndpointView, WebhookEventTypeView } from '@contracts/webhooks';
import { API_URL, httpClient } from '../providers/httpClient';
import { csvSafe } from '../lists';

export type Endpoint = WebhookEndpointView;
export type Delivery = WebhookDeliveryView;
export type EventType = WebhookEventTypeView;

const enc = encodeURIComponent;

export async function listEndpoints(): Promise<Endpoint[]> {
  const { json } = await httpClient<Endpoint[]>(
    `${API_URL}/webhooks?range=${enc(JSON.stringify([0, 99]))}&sort=${enc(JSON.stringify(['created_at', 'DESC']))}`,
  );
  return json;
}
export const getEndpoint = async (id: string) => (await httpClient<{ data: Endpoint }>(`${API_URL}/webhooks/${enc(id)}`)).json.data;
export const getCatalogue = async () => (await httpClient<{ data: { version: string; event_types: EventType[] } }>(`${API_URL}/webhooks/catalogue`)).json.data;

export async function createEndpoint(body: { url: string; event_types: string[]; active: boolean }) {
  return (await httpClient<{ data: Endpoint; secret: string; message: string }>(`${API_URL}/webhooks`, { method: 'POST', body })).json;
}
export async function updateEndpoint(id: string, body: { url?: string; event_types?: string[]; active?: boolean }) {
  return (await httpClient<{ data: Endpoint; message: string }>(`${API_URL}/webhooks/${enc(id)}`, { method: 'PUT', body })).json;
}
export async function deleteEndpoint(id: string) {
  return (await httpClient<{ message: string }>(`${API_URL}/webhooks/${enc(id)}`, { method: 'DELETE' })).json;
}
export async function listDeliveries(id: string, filters: { status?: string; event_type?: string; page: number; limit: number }) {
  const query = new URLSearchParams({ page: String(filters.page), limit: String(filters.limit) });
  if (filters.status) query.set('status', filters.status);
  if (filters.event_type) query.set('event_type', filters.event_type);
  return (await httpClient<{ data: { deliveries: Delivery[]; total: number; totalPages: number } }>(`${API_URL}/webhooks/${enc(id)}/deliveries?${query}`)).json
    .data;
}
export async function redeliver(id: string, deliveryId: string) {
  return (await httpClient<{ message: string }>(`${API_URL}/webhooks/${enc(id)}/deliveries/${enc(deliveryId)}/redeliver`, { method: 'POST', body: {} })).json;
}
export async function replay(id: string, from: string) {
  return (await httpClient<{ message: string }>(`${API_URL}/webhooks/${enc(id)}/replay`, { method: 'POST', body: { from } })).json;
}

export const STATUS_LABELS: Record<string, string> = { active: 'Active', inactive: 'Paused', disabled: 'Disabled' };
export const STATUS_COLORS: Record<string, 'success' | 'default' | 'error'> = { active: 'success', inactive: 'default', disabled: 'error' };
export const DELIVERY_LABELS: Record<string, string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };
export const DELIVERY_COLORS: Record<string, 'warning' | 'success' | 'error'> = { pending: 'warning', delivered: 'success', failed: 'error' };

/** A CSV file of the rows, downloaded by the browser. */
export function downloadCsv<Row>(fileName: string, rows: Row[], columns: Array<[string, (row: Row) => unknown]>) {
  const cell = (value: unknown) => {
    const text = String(csvSafe(value));
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = [columns.map(([label]) => cell(label)).join(','), ...rows.map((row) => columns.map(([, value]) => cell(value(row))).join(','))];
  const url = URL.createObjectURL(new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: `${fileName}.csv` });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
