/**
 * The order calls of the portal, typed. Lists go through react-admin's data provider
 * (`useGetList('orders')`); these are the commands and the reads with their own shapes.
 */

import type { ShippingAddress } from '@domain/orders/shipping';
import type { OrderDetail, OrderOrganisation, OrderStatistics, OrderStatusCounts, OrderView, ShippingProfile, StatusChange } from '@contracts/orders';
import { downloadFile } from '../providers/download';
import { API_URL, httpClient } from '../providers/httpClient';
import { ApiError } from '../providers/errorMapper';

/** The projects' screens read orders under this name. */
export type { OrderView as OrderRecord };

export interface PlaceOrderInput {
  /** One of the organisation's projects the order belongs to. */
  project_id?: string;
  partner_id?: string;
  estimated_delivery: string;
  notes?: string;
  items: Array<{ product_id: string; quantity: number; unit_price: number }>;
  shipping_address: ShippingAddress;
}

export interface CommandAnswer<T> {
  success: boolean;
  message?: string;
  details?: string;
  data: T;
  /** 202: saved, but not readable yet; `data` then holds only the record's `id` (and where to read it). */
  accepted?: boolean;
}

export async function getOrderStatistics(): Promise<OrderStatistics> {
  const { json } = await httpClient<{ data: OrderStatistics }>(`${API_URL}/orders/stats`);
  return json.data;
}

/** An order just placed: read again for a few seconds while it is not readable yet (its placing was answered 202). */
export async function getPlacedOrder(id: string, attempts = 20): Promise<OrderDetail> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await getOrder(id);
    } catch (error) {
      if (attempt >= attempts || !(error instanceof ApiError) || error.status !== 404) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

export async function getOrder(id: string): Promise<OrderDetail> {
  const { json } = await httpClient<{ data: OrderDetail }>(`${API_URL}/orders/${encodeURIComponent(id)}`);
  return json.data;
}

export async function trackOrder(id: string): Promise<{ order: OrderDetail; timeline: StatusChange[] }> {
  const { json } = await httpClient<{ data: { order: OrderDetail; timeline: StatusChange[] } }>(`${API_URL}/orders/${encodeURIComponent(id)}/track`);
  return json.data;
}

/** Places the order; the idempotency key makes a second click or a retried request place it once. */
export async function placeOrder(input: PlaceOrderInput, idempotencyKey: string): Promise<CommandAnswer<OrderDetail>> {
  const { json } = await httpClient<CommandAnswer<OrderDetail>>(`${API_URL}/orders`, {
    method: 'POST',
    body: { ...input },
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  return json;
}

export async function changeOrderStatus(
  id: string,
  status: string,
  notes: string,
  shipment?: { carrier: string; tracking_number: string },
): Promise<CommandAnswer<OrderDetail>> {
  const { json } = await httpClient<CommandAnswer<OrderDetail>>(`${API_URL}/orders/admin/${encodeURIComponent(id)}/status`, {
    method: 'PUT',
    body: { status, notes, ...(shipment ?? {}) },
  });
  return json;
}

/** The list's filters as the API reads them (react-admin's `filter` parameter). */
export type OrderListFilter = Record<string, unknown>;

const filterQuery = (filter: OrderListFilter, sort?: { field: string; order: string }) => {
  const params = new URLSearchParams({ filter: JSON.stringify(filter) });
  if (sort) params.set('sort', JSON.stringify([sort.field, sort.order]));
  return params.toString();
};

/** How many orders each status tab holds under the other filters. */
export async function getOrderStatusCounts(filter: OrderListFilter): Promise<OrderStatusCounts> {
  const { status: _status, ...others } = filter;
  const { json } = await httpClient<{ data: OrderStatusCounts }>(`${API_URL}/orders/counts?${filterQuery(others)}`);
  return json.data;
}

/** Downloads the CSV of every order the filters select, in the list's order (the server streams it). */
export const exportOrders = (filter: OrderListFilter, sort: { field: string; order: string }) =>
  downloadFile(`${API_URL}/orders/export?${filterQuery(filter, sort)}`, 'orders.csv');

export async function getOrderOrganisations(): Promise<OrderOrganisation[]> {
  const { json } = await httpClient<{ data: OrderOrganisation[] }>(`${API_URL}/orders/organisations`);
  return json.data;
}

/** The organisation's profile as a shipping address, for the shipping form to start from. */
export async function getShippingProfile(): Promise<ShippingProfile> {
  const { json } = await httpClient<{ data: ShippingProfile }>(`${API_URL}/orders/shipping-profile`);
  return json.data;
}
