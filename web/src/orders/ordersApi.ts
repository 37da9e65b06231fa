/**
 * The order calls of the portal, typed. Lists go through react-admin's data provider
 * (`useGetList('orders')`); these are the commands and the reads with their own shapes.
 */

import type { ShippingAddress } from '@domain/orders/shipping';
import type { StatusHistoryEntry } from '../providers/dataProvider';
import { API_URL, httpClient } from '../providers/httpClient';

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
  items: OrderItem[];
  order_items: OrderItem[];
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
}

export async function getOrderStatistics(): Promise<OrderStatistics> {
  const { json } = await httpClient<{ data: OrderStatistics }>(`${API_URL}/orders/stats`);
  return json.data;
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

export async function changeOrderStatus(id: string, status: string, notes: string): Promise<CommandAnswer<OrderRecord>> {
  const { json } = await httpClient<CommandAnswer<OrderRecord>>(`${API_URL}/orders/admin/${encodeURIComponent(id)}/status`, {
    method: 'PUT',
    body: { status, notes },
  });
  return json;
}
