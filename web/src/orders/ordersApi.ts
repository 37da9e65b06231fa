/**
 * The order calls of the portal, typed. Lists go through react-admin's data provider
 * (`useGetList('orders')`); these are the commands and the reads with their own shapes.
 */

import type { ShippingAddress } from '@domain/orders/shipping';
import type { StatusHistoryEntry } from '../providers/dataProvider';
import { downloadFile } from '../providers/download';
import { API_URL, httpClient } from '../providers/httpClient';
import { ApiError } from '../providers/errorMapper';

export interface OrderItem {
  product_id: string;
  product_name: string;
  name: string;
  quantity: number;
  unit_price: number;
  line_total: number;
}

export interface OrderRecord {
  id: string;
  order_id: string;
  order_number: string;
  status: string;
  next_statuses: string[];
  notes: string | null;
  total_amount: number;
  item_count: number;
  organisation_id: string;
  company_name: string | null;
  partner: { id: string; company_name: string | null };
  placed_by: string;
  placed_by_name: string | null;
  shipping_address: ShippingAddress;
  estimated_delivery: string;
  created_at: string;
  order_date: string;
  updated_at: string;
  approved_at: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
  delivery_date: string | null;
  cancelled_at: string | null;
  /** Named when the order is shipped. */
  carrier: string | null;
  tracking_number: string | null;
  items: OrderItem[];
  order_items: OrderItem[];
  /** Each unit of a shipped order (one order read only, not lists). */
  serial_numbers?: Array<{ serial_number: string; product_id: string; product_name: string }>;
}

export interface OrderStatistics {
  totalOrders: number;
  pendingOrders: number;
  approvedOrders: number;
  shippedOrders: number;
  deliveredOrders: number;
  cancelledOrders: number;
  thisMonthOrders: number;
  thisMonthTotal: number;
  thisMonthTotalFormatted: string;
  averageDeliveryDays: number | null;
}

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
export async function getPlacedOrder(id: string, attempts = 20): Promise<OrderRecord> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await getOrder(id);
    } catch (error) {
      if (attempt >= attempts || !(error instanceof ApiError) || error.status !== 404) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

export async function getOrder(id: string): Promise<OrderRecord> {
  const { json } = await httpClient<{ data: OrderRecord }>(`${API_URL}/orders/${encodeURIComponent(id)}`);
  return json.data;
}

export async function trackOrder(id: string): Promise<{ order: OrderRecord; timeline: StatusHistoryEntry[] }> {
  const { json } = await httpClient<{ data: { order: OrderRecord; timeline: StatusHistoryEntry[] } }>(`${API_URL}/orders/${encodeURIComponent(id)}/track`);
  return json.data;
}

/** Places the order; the idempotency key makes a second click or a retried request place it once. */
export async function placeOrder(input: PlaceOrderInput, idempotencyKey: string): Promise<CommandAnswer<OrderRecord>> {
  const { json } = await httpClient<CommandAnswer<OrderRecord>>(`${API_URL}/orders`, {
    method: 'POST',
    body: input as unknown as Record<string, unknown>,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  return json;
}

export async function changeOrderStatus(id: string, status: string, notes: string, shipment?: { carrier: string; tracking_number: string }): Promise<CommandAnswer<OrderRecord>> {
  const { json } = await httpClient<CommandAnswer<OrderRecord>>(`${API_URL}/orders/admin/${encodeURIComponent(id)}/status`, {
    method: 'PUT',
    body: { status, notes, ...(shipment ?? {}) },
  });
  return json;
}

/** The list's filters as the API reads them (react-admin's `filter` parameter). */
export type OrderListFilter = Record<string, unknown>;
export type OrderStatusCounts = Record<'all' | 'pending' | 'approved' | 'shipped' | 'delivered' | 'cancelled', number>;

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
export const exportOrders = (filter: OrderListFilter, sort: { field: string; order: string }) => downloadFile(`${API_URL}/orders/export?${filterQuery(filter, sort)}`, 'orders.csv');

export async function getOrderOrganisations(): Promise<Array<{ id: string; name: string }>> {
  const { json } = await httpClient<{ data: Array<{ id: string; name: string }> }>(`${API_URL}/orders/organisations`);
  return json.data;
}

export interface ShippingProfile {
  company_name: string | null;
  address: Partial<ShippingAddress>;
  profile_country: string | null;
}

/** The organisation's profile as a shipping address, for the shipping form to start from. */
export async function getShippingProfile(): Promise<ShippingProfile> {
  const { json } = await httpClient<{ data: ShippingProfile }>(`${API_URL}/orders/shipping-profile`);
  return json.data;
}
