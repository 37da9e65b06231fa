import { formatOrderTotal, nextStatuses, ORDER_NUMBER_PATTERN, PENDING_LIKE_STATUSES, type OrderStatus } from '../domain/orders/orders';
import { SHIPPING_COUNTRIES, type ShippingAddress } from '../domain/orders/shipping';
import { type Pool, type Queryable } from '../platform/db';
import {
  orderListQuery,
  type OrderDetail,
  type OrderListQuery,
  type OrderOrganisation,
  type OrderStatistics,
  type OrderStatusCounts,
  type OrderView,
  type ShippingProfile,
} from '../contracts/orders';
import { orderDaysBetween } from './dashboards';
import { ALL_ORGANISATIONS } from './orders';
import { isUuid } from '../domain/ids';

/** The read side of read.orders (written by ordersProjection in ./orders): the order views, lists, counts, export and statistics. */

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
  carrier: string | null;
  tracking_number: string | null;
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
  o.approved_at, o.shipped_at, o.delivered_at, o.cancelled_at, o.carrier, o.tracking_number`;
const ORDER_FROM = 'read.orders o LEFT JOIN read.users p ON p.id = o.placed_by';
const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * The order as the API answers it: the fields of spec 001 §3 (order_id is the order number;
 * total_amount; partner.company_name; order_items) and of the confirmation page (002 §3: items,
 * shipping_address, created_at, order_number).
 */
export function toOrderView(row: OrderRow, itemRows: OrderItemRow[]): OrderView {
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
    next_statuses: [...nextStatuses(row.status)],
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
    carrier: row.carrier,
    tracking_number: row.tracking_number,
    items,
    order_items: items,
  };
}

/** Whose orders a caller sees: one organisation's, or (undefined) everyone's. */
export type OrderScope = { organisationId: string | undefined };

/** One order by id or order number, within the caller's scope; undefined when it does not exist or is not theirs. */
export async function findOrder(db: Queryable, idOrNumber: string, scope: OrderScope): Promise<OrderDetail | undefined> {
  const byId = /^[0-9a-f-]{36}$/i.test(idOrNumber);
  const params: unknown[] = [byId ? idOrNumber : idOrNumber.toUpperCase()];
  let where = byId ? 'o.id = $1' : 'o.order_number = $1';
  if (scope.organisationId) where += ` AND o.organisation_id = $${params.push(scope.organisationId)}`;
  // One round trip: the order with its item lines and serial numbers.
  const { rows } = await db.query<OrderRow & { items: OrderItemRow[]; units: Array<{ serial_number: string; product_id: string; product_name: string }> }>(
    `SELECT ${ORDER_COLUMNS}, o.items,
         (SELECT coalesce(json_agg(json_build_object('serial_number', u.serial_number, 'product_id', u.product_id, 'product_name', u.product_name) ORDER BY u.serial_number), '[]')
          FROM read.order_units u WHERE u.order_id = o.id) AS units
       FROM ${ORDER_FROM} WHERE ${where}`,
    params,
  );
  if (!rows[0]) return undefined;
  const { items, units, ...row } = rows[0];
  return { ...toOrderView(row, items), serial_numbers: units };
}

export interface OrderFilters {
  ids?: string[];
  status?: string;
  /** Narrows what the caller sees to one organisation; never widens it. */
  organisationId?: string;
  /** Calendar days (UTC), both included. */
  dateFrom?: string;
  dateTo?: string;
  /** Orders pending, processing or approved: placed and not yet shipped or cancelled. */
  awaitingShipment?: boolean;
  totalMin?: number;
  totalMax?: number;
  search?: string;
}

export type OrderSortField = 'id' | 'created_at' | 'total_amount' | 'status' | 'order_number' | 'company_name' | 'estimated_delivery' | 'item_count';
export type OrderSort = { field: OrderSortField; order: 'ASC' | 'DESC' };

/** A keyset position in the newest-first list: the last row's creation time and id. */
export interface OrderCursor {
  createdAt: string;
  id: string;
}

export const encodeOrderCursor = (row: { created_at: string; id: string }) => Buffer.from(JSON.stringify([row.created_at, row.id])).toString('base64url');

export function decodeOrderCursor(cursor: string): OrderCursor | undefined {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof createdAt === 'string' && !Number.isNaN(Date.parse(createdAt)) && typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id))
      return { createdAt, id };
  } catch {
    // not a cursor of ours
  }
  return undefined;
}

const DAY_MS = 86_400_000;
/** The day after a day (YYYY-MM-DD): a range "to" a day ends before it. */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** The Pending tab's condition, with the statuses as literals (they are constants of the domain). */
const PENDING_CONDITION = `o.status IN (${PENDING_LIKE_STATUSES.map((status) => `'${status}'`).join(', ')})`;

/** Placed and not yet shipped or cancelled (the distributor dashboard's Pending Shipments). */
export const AWAITING_SHIPMENT_CONDITION = `o.status IN (${[...PENDING_LIKE_STATUSES, 'approved'].map((status) => `'${status}'`).join(', ')})`;

/**
 * The WHERE clause of a list, its count, its status counts and its export. Every condition is one an
 * index answers (see the orders-list migration): the search is a trigram match on the order number or
 * the company name, or an exact order id.
 */
function orderConditions(scope: OrderScope, filters: OrderFilters, params: unknown[], { withStatus = true } = {}): string {
  const where: string[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (scope.organisationId) where.push(`o.organisation_id = ${param(scope.organisationId)}`);
  if (filters.organisationId) where.push(`o.organisation_id = ${param(filters.organisationId)}`);
  if (filters.ids) where.push(`o.id = ANY(${param(filters.ids)}::uuid[])`);
  if (withStatus && filters.status) {
    // Statistics count processing as pending; the Pending tab shows both. The statuses are written into
    // the statement so that the planner can use the partial index of exactly these orders (orders_pending_created).
    where.push(filters.status === 'pending' ? PENDING_CONDITION : `o.status = ${param(filters.status)}`);
  }
  if (filters.awaitingShipment !== undefined) where.push(`${filters.awaitingShipment ? '' : 'NOT '}(${AWAITING_SHIPMENT_CONDITION})`);
  if (filters.dateFrom) where.push(`o.created_at >= ${param(`${filters.dateFrom}T00:00:00Z`)}`);
  if (filters.dateTo) where.push(`o.created_at < ${param(`${dayAfter(filters.dateTo)}T00:00:00Z`)}`);
  if (filters.totalMin !== undefined) where.push(`o.total_amount >= ${param(filters.totalMin)}`);
  if (filters.totalMax !== undefined) where.push(`o.total_amount <= ${param(filters.totalMax)}`);
  if (filters.search && ORDER_NUMBER_PATTERN.test(filters.search.trim().toUpperCase())) {
    // A whole order number (pasted from an e-mail or invoice) is looked up by its unique index, not searched for.
    where.push(`o.order_number = ${param(filters.search.trim().toUpperCase())}`);
  } else if (filters.search) {
    const pattern = param(`%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const byId = isUuid(filters.search) ? ` OR o.id = ${param(filters.search)}::uuid` : '';
    where.push(`(o.order_number ILIKE ${pattern} OR o.company_name ILIKE ${pattern}${byId})`);
  }
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}

const orderBy = (sort: OrderSort | undefined) =>
  sort && sort.field !== 'created_at'
    ? `o.${sort.field} ${sort.order}, o.created_at DESC, o.id DESC`
    : `o.created_at ${sort?.order ?? 'DESC'}, o.id ${sort?.order ?? 'DESC'}`;

/**
 * Newest first unless asked otherwise. At a million orders: the page's ids come from an index alone
 * before the rows are read (deep OFFSET pages), `after` continues from a keyset position in the
 * newest-first order (no OFFSET at all), and when only the status narrows the list the total comes from
 * the pre-aggregated statistics; otherwise the matching rows are counted through the filters' indexes.
 */
export async function listOrders(
  db: Queryable,
  scope: OrderScope,
  filters: OrderFilters,
  page: { offset: number; limit: number; sort?: OrderSort; after?: OrderCursor },
): Promise<{ rows: OrderView[]; total: number }> {
  const params: unknown[] = [];
  const clause = orderConditions(scope, filters, params);
  const pageParams = [...params];
  const keyset = page.after && (!page.sort || (page.sort.field === 'created_at' && page.sort.order === 'DESC'));
  const pageClause = keyset
    ? `${clause ? `${clause} AND` : 'WHERE'} (o.created_at, o.id) < ($${pageParams.push(page.after!.createdAt)}::timestamptz, $${pageParams.push(page.after!.id)}::uuid)`
    : clause;
  const order = orderBy(page.sort);
  // The total rides on the page's statement (an InitPlan, counted once): one round trip per list answer.
  const totalSql = orderTotalExpression(scope, filters, clause, pageParams);
  const { rows } = await db.query<OrderRow & { items: OrderItemRow[]; list_total: string }>(
    `SELECT ${ORDER_COLUMNS}, o.items, (${totalSql}) AS list_total
       FROM (SELECT o.id FROM read.orders o ${pageClause} ORDER BY ${order} OFFSET $${pageParams.push(keyset ? 0 : page.offset)} LIMIT $${pageParams.push(page.limit)}) AS page
       JOIN read.orders o ON o.id = page.id LEFT JOIN read.users p ON p.id = o.placed_by
       ORDER BY ${order}`,
    pageParams,
  );
  // Past the last page there is no row to carry the total: count it on its own.
  const total = rows[0] ? Number(rows[0].list_total) : await countOrders(db, scope, filters, clause, params);
  return { rows: rows.map(({ items, list_total: _total, ...row }) => toOrderView(row, items)), total };
}

/**
 * The list's total as an SQL expression over `params` (the clause's parameters come first in it): when only
 * the status narrows the list, the pre-aggregated statistics hold the count; when only the days it was placed
 * on (and one organisation) narrow it, the orders per day the dashboards keep hold it (the dashboards' cards
 * and this total are then one count); otherwise the matching rows are counted through the filters' indexes.
 */
function orderTotalExpression(scope: OrderScope, filters: OrderFilters, clause: string, params: unknown[]): string {
  const source = totalSourceOf(scope, filters);
  if (source === 'rows') return `SELECT count(*) FROM read.orders o ${clause}`;
  if (source === 'days') {
    const param = (value: unknown) => `$${params.push(value)}`;
    const organisation = `${param(scope.organisationId ?? filters.organisationId ?? ALL_ORGANISATIONS)}::uuid`;
    const days = { from: filters.dateFrom, before: filters.dateTo ? dayAfter(filters.dateTo) : undefined };
    return `SELECT coalesce(sum(orders), 0) ${orderDaysBetween(organisation, days, param)}`;
  }
  const statuses = filters.awaitingShipment
    ? [...PENDING_LIKE_STATUSES, 'approved']
    : filters.status
      ? filters.status === 'pending'
        ? [...PENDING_LIKE_STATUSES]
        : [filters.status]
      : null;
  const organisation = `$${params.push(scope.organisationId ?? ALL_ORGANISATIONS)}::uuid`;
  return `SELECT coalesce(sum(orders), 0) FROM read.order_stats WHERE organisation_id = ${organisation}${statuses ? ` AND status = ANY($${params.push(statuses)}::text[])` : ''}`;
}

/** No filter the pre-aggregated statistics cannot answer (they hold counts per organisation and status only). */
const withinStatistics = (filters: OrderFilters) =>
  !filters.search && !filters.ids && !filters.dateFrom && !filters.dateTo && filters.totalMin === undefined && filters.totalMax === undefined;

/**
 * Where a list's total is counted: the statistics (only the status narrows it), the orders per placing day
 * (only the days, and at most one organisation), or the matching rows themselves.
 */
function totalSourceOf(scope: OrderScope, filters: OrderFilters): 'statistics' | 'days' | 'rows' {
  if (withinStatistics(filters) && !filters.organisationId && filters.awaitingShipment !== false && !(filters.awaitingShipment && filters.status))
    return 'statistics';
  const onlyDays =
    (filters.dateFrom || filters.dateTo) &&
    !filters.search &&
    !filters.ids &&
    !filters.status &&
    filters.awaitingShipment === undefined &&
    filters.totalMin === undefined &&
    filters.totalMax === undefined &&
    // A caller confined to an organisation who also names one is counted from the rows (both conditions hold there).
    !(scope.organisationId && filters.organisationId);
  return onlyDays ? 'days' : 'rows';
}

async function countOrders(db: Queryable, scope: OrderScope, filters: OrderFilters, clause: string, params: unknown[]): Promise<number> {
  // A pre-aggregated count does not read the clause, so the clause's parameters stay out (a parameter no statement reads has no type).
  const countParams = totalSourceOf(scope, filters) === 'rows' ? [...params] : [];
  const { rows } = await db.query<{ n: string }>(`SELECT (${orderTotalExpression(scope, filters, clause, countParams)}) AS n`, countParams);
  return Number(rows[0].n);
}

/** How many orders each status tab holds under the other filters; `all` is every status. */
export async function orderStatusCounts(db: Queryable, scope: OrderScope, filters: OrderFilters): Promise<OrderStatusCounts> {
  const params: unknown[] = [];
  const clause = orderConditions(scope, filters, params, { withStatus: false });
  // Without other filters (the list as it opens), the pre-aggregated statistics hold the counts: no scan of every order.
  // A caller confined to an organisation who also names one is counted the long way (both conditions hold there).
  const unfiltered = withinStatistics(filters) && filters.awaitingShipment === undefined && !(scope.organisationId && filters.organisationId);
  const { rows } = unfiltered
    ? await db.query<{ status: string; n: string }>('SELECT status, sum(orders) AS n FROM read.order_stats WHERE organisation_id = $1 GROUP BY status', [
        scope.organisationId ?? filters.organisationId ?? ALL_ORGANISATIONS,
      ])
    : await db.query<{ status: string; n: string }>(`SELECT o.status, count(*) AS n FROM read.orders o ${clause} GROUP BY o.status`, params);
  const counts: OrderStatusCounts = { all: 0, pending: 0, approved: 0, shipped: 0, delivered: 0, cancelled: 0 };
  for (const row of rows) {
    const n = Number(row.n);
    counts.all += n;
    const status = (PENDING_LIKE_STATUSES as readonly string[]).includes(row.status) ? 'pending' : row.status;
    if (status in counts) counts[status as OrderStatus] += n;
  }
  return counts;
}

/** A list row as the CSV export writes it: the order without its item lines. */
export type OrderExportRow = Omit<OrderRow, 'shipping_address' | 'notes' | 'placed_by'> & { country: string | null };

/**
 * Every order the filters select, in the list's order, read through a cursor in batches so that an
 * export of a million orders neither holds them in memory nor re-reads them page by page.
 */
export async function* allOrders(pool: Pool, scope: OrderScope, filters: OrderFilters, sort?: OrderSort): AsyncGenerator<OrderExportRow> {
  const params: unknown[] = [];
  const clause = orderConditions(scope, filters, params);
  const client = await pool.connect();
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(
      `DECLARE orders_export NO SCROLL CURSOR FOR
       SELECT o.id, o.order_number, o.organisation_id, o.company_name, p.full_name AS placed_by_name, o.status, o.estimated_delivery::text AS estimated_delivery,
              o.total_amount, o.item_count, o.created_at, o.updated_at, o.approved_at, o.shipped_at, o.delivered_at, o.cancelled_at, o.carrier, o.tracking_number,
              o.shipping_address->>'country' AS country
       FROM ${ORDER_FROM} ${clause} ORDER BY ${orderBy(sort)}`,
      params,
    );
    for (;;) {
      const { rows } = await client.query<OrderExportRow>('FETCH 1000 FROM orders_export');
      yield* rows;
      if (rows.length < 1000) break;
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The organisations a caller may filter orders by: the partner and distributor accounts. */
export async function orderOrganisations(db: Queryable, scope: OrderScope): Promise<OrderOrganisation[]> {
  const params: unknown[] = [];
  const own = scope.organisationId ? `AND u.id = $${params.push(scope.organisationId)}` : '';
  const { rows } = await db.query<OrderOrganisation>(
    `SELECT u.id, coalesce(nullif(u.company_name, ''), u.full_name) AS name FROM read.users u
     WHERE u.role IN ('partner', 'distributor') ${own} ORDER BY 2, 1`,
    params,
  );
  return rows;
}

/**
 * The statistics cards (spec 001 §9): this calendar month's total (UTC; cancelled orders left out),
 * the rounded mean of days from ordering to delivery, and pending (pending or processing) orders.
 */
export async function orderStatistics(db: Queryable, scope: OrderScope, now: Date = new Date()): Promise<OrderStatistics> {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  // From the pre-aggregated rows (one per month and status): a few hundred rows whatever the number of orders.
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
    `SELECT coalesce(sum(orders), 0) AS total,
            coalesce(sum(orders) FILTER (WHERE status = ANY($2::text[])), 0) AS pending,
            coalesce(sum(orders) FILTER (WHERE status = 'approved'), 0) AS approved,
            coalesce(sum(orders) FILTER (WHERE status = 'shipped'), 0) AS shipped,
            coalesce(sum(orders) FILTER (WHERE status = 'delivered'), 0) AS delivered,
            coalesce(sum(orders) FILTER (WHERE status = 'cancelled'), 0) AS cancelled,
            coalesce(sum(orders) FILTER (WHERE month >= $1 AND status <> 'cancelled'), 0) AS month_orders,
            coalesce(sum(total_amount) FILTER (WHERE month >= $1 AND status <> 'cancelled'), 0) AS month_total,
            sum(delivery_days) FILTER (WHERE status = 'delivered') / nullif(sum(orders) FILTER (WHERE status = 'delivered'), 0) AS delivery_days
     FROM read.order_stats WHERE organisation_id = $3`,
    [monthStart.toISOString().slice(0, 10), [...PENDING_LIKE_STATUSES], scope.organisationId ?? ALL_ORGANISATIONS],
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

/**
 * From the organisation's partner profile (questionnaire and application) when it has one, else its
 * account: contact name, e-mail, phone, street, city and country. A country outside the shipping
 * form's list becomes "Other".
 */
export async function orderShippingProfile(db: Queryable, organisationId: string): Promise<ShippingProfile> {
  const { rows } = await db.query<{
    company_name: string | null;
    full_name: string;
    email: string;
    contact_name: string | null;
    contact_email: string | null;
    phone_number: string | null;
    location: string | null;
    business_address: string | null;
    city: string | null;
    state_region: string | null;
    postal_code: string | null;
    country: string | null;
    country_other: string | null;
  }>(
    `SELECT u.company_name, u.full_name, u.email, p.contact_name, p.contact_email, p.phone_number, p.location, p.business_address, p.city, p.state_region, p.postal_code, p.country, p.country_other
     FROM read.users u LEFT JOIN LATERAL (SELECT * FROM read.partners WHERE user_id = u.id ORDER BY updated_at DESC LIMIT 1) p ON true
     WHERE u.id = $1`,
    [organisationId],
  );
  const row = rows[0];
  if (!row) return { company_name: null, address: {}, profile_country: null };
  const name = (row.contact_name || row.full_name).trim();
  const [firstName, ...rest] = name.split(/\s+/);
  const country = (row.country === 'Other' ? row.country_other : row.country)?.trim() || null;
  const address: Partial<ShippingAddress> = {
    firstName: firstName ?? '',
    lastName: rest.join(' '),
    email: row.contact_email || row.email,
  };
  if (row.phone_number) address.phone = row.phone_number;
  const street = row.location || row.business_address;
  if (street) address.addressLine1 = street;
  if (row.city) address.city = row.city;
  if (row.state_region) address.state = row.state_region;
  if (row.postal_code) address.zipCode = row.postal_code;
  if (country) address.country = (SHIPPING_COUNTRIES as readonly string[]).includes(country) ? country : 'Other';
  return { company_name: row.company_name, address, profile_country: country };
}

/** The filters of a list query, as the read model takes them. */
export const orderFiltersOf = (q: OrderListQuery): OrderFilters => ({
  ids: q.ids,
  status: q.filters.status,
  organisationId: q.filters.organisation_id,
  dateFrom: q.filters.date_gte,
  dateTo: q.filters.date_lte,
  totalMin: q.filters.total_gte,
  totalMax: q.filters.total_lte,
  awaitingShipment: q.filters.awaiting_shipment,
  search: q.search,
});

/** The total GET /orders answers under a react-admin `filter`, for the same scope (the dashboards' cards count with it). */
export async function orderListTotal(db: Queryable, scope: OrderScope, filter: Readonly<Record<string, unknown>>): Promise<number> {
  const q = orderListQuery.parse({ filter: JSON.stringify(filter), range: '[0,0]' });
  const filters = orderFiltersOf(q);
  const params: unknown[] = [];
  return countOrders(db, scope, filters, orderConditions(scope, filters, params), params);
}
