import { centsToAmount } from '../domain/catalogue/catalogue';
import { formatOrderTotal, nextStatuses, PENDING_LIKE_STATUSES, type OrderEvent } from '../domain/orders/orders';
import type { ShippingAddress } from '../domain/orders/shipping';
import type { PoolClient } from '../src/db';
import type { RecordedEvent } from '../src/eventstore';
import type { Projection } from './projection';

/** When each status was reached, kept on the order row for lists and statistics. */
const STATUS_TIME_COLUMN: Readonly<Record<string, string>> = {
  approved: 'approved_at',
  shipped: 'shipped_at',
  delivered: 'delivered_at',
  cancelled: 'cancelled_at',
};

/** read.orders and read.order_items. */
export const ordersProjection: Projection = {
  name: 'orders',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    const event = recorded as unknown as OrderEvent;
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'OrderPlaced.v1': {
        const d = event.data;
        const inserted = await db.query(
          `INSERT INTO orders (id, order_number, organisation_id, company_name, placed_by, status, notes, shipping_address, estimated_delivery, total_amount, item_count, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) ON CONFLICT (id) DO NOTHING`,
          [d.orderId, d.orderNumber, d.organisationId, d.companyName, d.placedBy, d.status, d.notes, JSON.stringify(d.shippingAddress), d.estimatedDelivery, centsToAmount(d.totalCents), d.items.reduce((n, i) => n + i.quantity, 0), at],
        );
        if (!inserted.rowCount) return;
        await db.query(
          `INSERT INTO order_items (order_id, line, product_id, product_name, quantity, unit_price, line_total)
           SELECT $1, line, product_id, product_name, quantity, unit_price, line_total
           FROM unnest($2::uuid[], $3::text[], $4::int[], $5::numeric[], $6::numeric[]) WITH ORDINALITY AS t(product_id, product_name, quantity, unit_price, line_total, line)`,
          [
            d.orderId,
            d.items.map((i) => i.productId),
            d.items.map((i) => i.productName),
            d.items.map((i) => i.quantity),
            d.items.map((i) => centsToAmount(i.unitPriceCents)),
            d.items.map((i) => centsToAmount(i.lineTotalCents)),
          ],
        );
        return;
      }
      case 'OrderStatusChanged.v1': {
        const column = STATUS_TIME_COLUMN[event.data.status];
        await db.query(`UPDATE orders SET status = $2, updated_at = $3${column ? `, ${column} = $3` : ''} WHERE id = $1`, [event.data.orderId, event.data.status, at]);
        return;
      }
    }
  },
};

// ---- queries ----

type Queryable = { query: PoolClient['query'] };

export interface OrderRow {
  id: string;
  order_number: string;
  organisation_id: string;
  company_name: string | null;
  placed_by: string;
  placed_by_name: string | null;
  status: string;
  notes: string | null;
  shipping_address: ShippingAddress;
  estimated_delivery: string;
  total_amount: string;
  item_count: number;
  created_at: Date;
  updated_at: Date;
  approved_at: Date | null;
  shipped_at: Date | null;
  delivered_at: Date | null;
  cancelled_at: Date | null;
}

export interface OrderItemRow {
  order_id: string;
  line: number;
  product_id: string;
  product_name: string;
  quantity: number;
  unit_price: string;
  line_total: string;
}

const ORDER_COLUMNS = `o.id, o.order_number, o.organisation_id, o.company_name, o.placed_by, p.full_name AS placed_by_name, o.status, o.notes,
  o.shipping_address, o.estimated_delivery::text AS estimated_delivery, o.total_amount, o.item_count, o.created_at, o.updated_at,
  o.approved_at, o.shipped_at, o.delivered_at, o.cancelled_at`;
const ORDER_FROM = 'read.orders o LEFT JOIN read.users p ON p.id = o.placed_by';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * The order as the API answers it: the fields of spec 001 §3 (order_id is the order number;
 * total_amount; partner.company_name; order_items) and of the confirmation page (002 §3: items,
 * shipping_address, created_at, order_number).
 */
export function toOrderView(row: OrderRow, itemRows: OrderItemRow[]) {
  const items = itemRows.map((item) => ({
    product_id: item.product_id,
    product_name: item.product_name,
    name: item.product_name,
    quantity: item.quantity,
    unit_price: Number(item.unit_price),
    line_total: Number(item.line_total),
  }));
  return {
    id: row.id,
    order_id: row.order_number,
    order_number: row.order_number,
    status: row.status,
    next_statuses: nextStatuses(row.status),
    notes: row.notes,
    total_amount: Number(row.total_amount),
    item_count: row.item_count,
    organisation_id: row.organisation_id,
    company_name: row.company_name,
    partner: { id: row.organisation_id, company_name: row.company_name },
    placed_by: row.placed_by,
    placed_by_name: row.placed_by_name,
    shipping_address: row.shipping_address,
    estimated_delivery: row.estimated_delivery,
    created_at: row.created_at.toISOString(),
    order_date: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    approved_at: iso(row.approved_at),
    shipped_at: iso(row.shipped_at),
    delivered_at: iso(row.delivered_at),
    delivery_date: iso(row.delivered_at),
    cancelled_at: iso(row.cancelled_at),
    items,
    order_items: items,
  };
}
export type OrderView = ReturnType<typeof toOrderView>;

/** Whose orders a caller sees: one organisation's, or (undefined) everyone's. */
export type OrderScope = { organisationId: string | undefined };

export async function orderItemsOf(db: Queryable, orderIds: string[]): Promise<Map<string, OrderItemRow[]>> {
  const byOrder = new Map<string, OrderItemRow[]>(orderIds.map((id) => [id, []]));
  if (!orderIds.length) return byOrder;
  const { rows } = await db.query<OrderItemRow>('SELECT * FROM read.order_items WHERE order_id = ANY($1::uuid[]) ORDER BY order_id, line', [orderIds]);
  for (const row of rows) byOrder.get(row.order_id)?.push(row);
  return byOrder;
}

/** One order by id or order number, within the caller's scope; undefined when it does not exist or is not theirs. */
export async function findOrder(db: Queryable, idOrNumber: string, scope: OrderScope): Promise<OrderView | undefined> {
  const byId = /^[0-9a-f-]{36}$/i.test(idOrNumber);
  const params: unknown[] = [byId ? idOrNumber : idOrNumber.toUpperCase()];
  let where = byId ? 'o.id = $1' : 'o.order_number = $1';
  if (scope.organisationId) where += ` AND o.organisation_id = $${params.push(scope.organisationId)}`;
  const { rows } = await db.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM ${ORDER_FROM} WHERE ${where}`, params);
  if (!rows[0]) return undefined;
  const items = await orderItemsOf(db, [rows[0].id]);
  return toOrderView(rows[0], items.get(rows[0].id) ?? []);
}

export interface OrderFilters {
  ids?: string[];
  status?: string;
  search?: string;
}

export type OrderSortField = 'id' | 'created_at' | 'total_amount' | 'status' | 'order_number' | 'company_name' | 'estimated_delivery';

/** Newest first unless asked otherwise; the search matches the order number, the order id or the company name, ignoring case. */
export async function listOrders(
  db: Queryable,
  scope: OrderScope,
  filters: OrderFilters,
  page: { offset: number; limit: number; sort?: { field: OrderSortField; order: 'ASC' | 'DESC' } },
): Promise<{ rows: OrderView[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (scope.organisationId) where.push(`o.organisation_id = ${param(scope.organisationId)}`);
  if (filters.ids) where.push(`o.id = ANY(${param(filters.ids)}::uuid[])`);
  if (filters.status) where.push(`o.status = ${param(filters.status)}`);
  if (filters.search) {
    const pattern = param(`%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(o.order_number ILIKE ${pattern} OR o.id::text ILIKE ${pattern} OR o.company_name ILIKE ${pattern})`);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const order = page.sort ? `o.${page.sort.field} ${page.sort.order}, o.created_at DESC` : 'o.created_at DESC';
  const { rows } = await db.query<OrderRow & { total: string }>(
    `SELECT ${ORDER_COLUMNS}, count(*) OVER () AS total FROM ${ORDER_FROM} ${clause} ORDER BY ${order}, o.id OFFSET ${param(page.offset)} LIMIT ${param(page.limit)}`,
    params,
  );
  let total = rows[0] ? Number(rows[0].total) : 0;
  if (!rows[0] && page.offset > 0) {
    const counted = await db.query<{ n: string }>(`SELECT count(*) AS n FROM read.orders o ${clause}`, params.slice(0, -2));
    total = Number(counted.rows[0].n);
  }
  const items = await orderItemsOf(db, rows.map((r) => r.id));
  return { rows: rows.map(({ total: _total, ...row }) => toOrderView(row, items.get(row.id) ?? [])), total };
}

/**
 * The statistics cards (spec 001 §9): this calendar month's total (UTC; cancelled orders left out),
 * the rounded mean of days from ordering to delivery, and pending (pending or processing) orders.
 */
export async function orderStatistics(db: Queryable, scope: OrderScope, now: Date = new Date()) {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const params: unknown[] = [monthStart, [...PENDING_LIKE_STATUSES]];
  const where = scope.organisationId ? `WHERE organisation_id = $${params.push(scope.organisationId)}` : '';
  const { rows } = await db.query<{
    total: string;
    pending: string;
    approved: string;
    shipped: string;
    delivered: string;
    cancelled: string;
    month_orders: string;
    month_total: string;
    delivery_days: string | null;
  }>(
    `SELECT count(*) AS total,
            count(*) FILTER (WHERE status = ANY($2::text[])) AS pending,
            count(*) FILTER (WHERE status = 'approved') AS approved,
            count(*) FILTER (WHERE status = 'shipped') AS shipped,
            count(*) FILTER (WHERE status = 'delivered') AS delivered,
            count(*) FILTER (WHERE status = 'cancelled') AS cancelled,
            count(*) FILTER (WHERE created_at >= $1 AND status <> 'cancelled') AS month_orders,
            coalesce(sum(total_amount) FILTER (WHERE created_at >= $1 AND status <> 'cancelled'), 0) AS month_total,
            avg(extract(epoch FROM delivered_at - created_at) / 86400) FILTER (WHERE delivered_at IS NOT NULL) AS delivery_days
     FROM read.orders ${where}`,
    params,
  );
  const r = rows[0];
  const thisMonthTotal = Number(r.month_total);
  return {
    totalOrders: Number(r.total),
    pendingOrders: Number(r.pending),
    approvedOrders: Number(r.approved),
    shippedOrders: Number(r.shipped),
    deliveredOrders: Number(r.delivered),
    cancelledOrders: Number(r.cancelled),
    thisMonthOrders: Number(r.month_orders),
    thisMonthTotal,
    thisMonthTotalFormatted: formatOrderTotal(thisMonthTotal),
    averageDeliveryDays: r.delivery_days === null ? null : Math.round(Number(r.delivery_days)),
  };
}
export type OrderStatistics = Awaited<ReturnType<typeof orderStatistics>>;
