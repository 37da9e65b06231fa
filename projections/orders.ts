import { centsToAmount } from '../domain/money';
import type { OrderEvent } from '../domain/orders/orders';
import type { ShippingAddress } from '../domain/orders/shipping';
import type { PoolClient } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { Projection } from './projection';
import { erasedData, erasedValue } from '../domain/personalData';
import { forgetRecipients } from './dashboards';

/** When each status was reached, kept on the order row for lists and statistics. */
const STATUS_TIME_COLUMN: Readonly<Record<string, string>> = {
  approved: 'approved_at',
  shipped: 'shipped_at',
  delivered: 'delivered_at',
  cancelled: 'cancelled_at',
};

/** The organisation id of order_stats rows that hold everyone's figures. */
export const ALL_ORGANISATIONS = '00000000-0000-0000-0000-000000000000';

interface PlacedRow {
  id: string;
  orderNumber: string;
  organisationId: string;
  companyName: string | null;
  placedBy: string;
  status: string;
  notes: string | null;
  shippingAddress: ShippingAddress;
  estimatedDelivery: string;
  /** Money stays in integer cents until SQL divides it into a numeric column. */
  totalCents: number;
  itemCount: number;
  at: string;
  /** The order's lines as the API shows them (they never change after placement); amounts are exact two-decimal JSON numbers. */
  lines: Array<{ line: number; product_id: string; product_name: string; quantity: number; unit_price: number; line_total: number }>;
  /** Status changes later in the same batch, folded into the row it is inserted as. */
  updatedAt: string;
  times: Record<string, string>;
  carrier: string | null;
  trackingNumber: string | null;
}

/** Where a batch leaves one order: its last status, when it changed, when each status was reached. */
interface StatusRow {
  status: string;
  updatedAt: string;
  times: Record<string, string>;
  /** The shipment named when the order was shipped. */
  carrier: string | null;
  trackingNumber: string | null;
}

/** Moves an order's row on by one status change. */
function moveOn(row: StatusRow, change: { status: string; carrier?: string | null; trackingNumber?: string | null }, at: string): void {
  row.status = change.status;
  row.updatedAt = at;
  if (change.carrier) {
    row.carrier = change.carrier;
    row.trackingNumber = change.trackingNumber ?? null;
  }
  if (STATUS_TIME_COLUMN[change.status]) row.times[change.status] = at;
}

/**
 * read.orders, read.order_items, read.order_units and read.order_stats. A batch is a few set-based
 * statements whatever its size (a full rebuild replays millions of events): placements are inserted
 * together, with the status changes the same batch holds for them already applied (a rebuild meets most
 * orders' whole lives in one batch); each other order's status changes are folded into one update, and
 * the statistics move by the difference between the orders' rows before and after.
 */
async function applyOrderEvents(events: readonly RecordedEvent[], db: PoolClient): Promise<void> {
  const placed: PlacedRow[] = [];
  const placedHere = new Map<string, PlacedRow>();
  const items: Array<[string, string, string, number, number, number]> = [];
  const statuses = new Map<string, StatusRow>();
  const units: Array<[string, string, string, string, string, string]> = [];
  for (const recorded of events) {
    const event = asDomainEvent<OrderEvent>(recorded);
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'OrderPlaced.v1': {
        const d = event.data;
        placed.push({
          id: d.orderId,
          orderNumber: d.orderNumber,
          organisationId: d.organisationId,
          companyName: d.companyName,
          placedBy: d.placedBy,
          status: d.status,
          notes: d.notes,
          shippingAddress: d.shippingAddress,
          estimatedDelivery: d.estimatedDelivery,
          totalCents: d.totalCents,
          itemCount: d.items.reduce((n, i) => n + i.quantity, 0),
          at,
          lines: d.items.map((i, n) => ({
            line: n + 1,
            product_id: i.productId,
            product_name: i.productName,
            quantity: i.quantity,
            unit_price: centsToAmount(i.unitPriceCents),
            line_total: centsToAmount(i.lineTotalCents),
          })),
          updatedAt: at,
          times: {},
          carrier: null,
          trackingNumber: null,
        });
        placedHere.set(d.orderId, placed[placed.length - 1]);
        for (const i of d.items) items.push([d.orderId, i.productId, i.productName, i.quantity, i.unitPriceCents, i.lineTotalCents]);
        break;
      }
      case 'OrderStatusChanged.v1': {
        // An order placed in this batch is inserted as the batch leaves it; any other is updated once.
        const placement = placedHere.get(event.data.orderId);
        const row = placement ??
          statuses.get(event.data.orderId) ?? { status: event.data.status, updatedAt: at, times: {}, carrier: null, trackingNumber: null };
        moveOn(row, event.data, at);
        if (!placement) statuses.set(event.data.orderId, row);
        break;
      }
      case 'OrderUnitsSerialised.v1':
        for (const u of event.data.units) units.push([u.serialNumber, event.data.orderId, event.data.organisationId, u.productId, u.productName, at]);
        break;
    }
  }

  // Each statement takes its rows as one JSON document: native to serialise, unlike an escaped array literal per column.
  if (placed.length) {
    // Placed orders enter the statistics as pending; a retried placement (ON CONFLICT) changes nothing.
    await withoutEmptyStatistics(
      db,
      await db.query<StatsKey>(
        `WITH inserted AS (
         INSERT INTO orders (id, order_number, organisation_id, company_name, placed_by, status, notes, shipping_address, estimated_delivery, total_amount, item_count, created_at, updated_at,
           approved_at, shipped_at, delivered_at, cancelled_at, carrier, tracking_number, items)
         SELECT id, order_number, organisation_id, company_name, placed_by, status, notes, shipping_address, estimated_delivery, total_cents / 100.0, item_count, at, updated_at,
           approved_at, shipped_at, delivered_at, cancelled_at, carrier, tracking_number, items
         FROM json_to_recordset($1::json)
           AS t(id uuid, order_number text, organisation_id uuid, company_name text, placed_by uuid, status text, notes text, shipping_address jsonb, estimated_delivery date, total_cents bigint, item_count int, at timestamptz,
             updated_at timestamptz, approved_at timestamptz, shipped_at timestamptz, delivered_at timestamptz, cancelled_at timestamptz, carrier text, tracking_number text, items jsonb)
         ON CONFLICT (id) DO NOTHING
         RETURNING id, organisation_id, created_at, status, total_amount, delivered_at
       ),
       items AS (
         INSERT INTO order_items (order_id, line, product_id, product_name, quantity, unit_price, line_total)
         SELECT i.order_id, row_number() OVER (PARTITION BY i.order_id ORDER BY i.n), i.product_id, i.product_name, i.quantity, i.unit_price_cents / 100.0, i.line_total_cents / 100.0
         FROM json_to_recordset($2::json) AS i(order_id uuid, product_id uuid, product_name text, quantity int, unit_price_cents bigint, line_total_cents bigint, n int)
         WHERE i.order_id IN (SELECT id FROM inserted)
       )
       ${STATS_UPSERT(`SELECT organisation_id, created_at, status, total_amount, 1 AS orders, ${DELIVERY_DAYS} AS delivery_days FROM inserted`)}`,
        [
          JSON.stringify(
            placed.map((p) => ({
              id: p.id,
              order_number: p.orderNumber,
              organisation_id: p.organisationId,
              company_name: p.companyName,
              placed_by: p.placedBy,
              status: p.status,
              notes: p.notes,
              shipping_address: p.shippingAddress,
              estimated_delivery: p.estimatedDelivery,
              total_cents: p.totalCents,
              item_count: p.itemCount,
              at: p.at,
              updated_at: p.updatedAt,
              approved_at: p.times.approved ?? null,
              shipped_at: p.times.shipped ?? null,
              delivered_at: p.times.delivered ?? null,
              cancelled_at: p.times.cancelled ?? null,
              carrier: p.carrier,
              tracking_number: p.trackingNumber,
              items: p.lines,
            })),
          ),
          JSON.stringify(
            items.map((i, n) => ({ order_id: i[0], product_id: i[1], product_name: i[2], quantity: i[3], unit_price_cents: i[4], line_total_cents: i[5], n })),
          ),
        ],
      ),
    );
  }

  if (statuses.size) {
    // The statistics lose each order's row as it was and gain it as it is now.
    await withoutEmptyStatistics(
      db,
      await db.query<StatsKey>(
        `WITH changes AS (
         SELECT * FROM json_to_recordset($1::json)
           AS c(id uuid, status text, at timestamptz, approved_at timestamptz, shipped_at timestamptz, delivered_at timestamptz, cancelled_at timestamptz, carrier text, tracking_number text)
       ),
       before AS (SELECT o.organisation_id, o.created_at, o.status, o.total_amount, o.delivered_at FROM orders o JOIN changes c ON c.id = o.id),
       after AS (
         UPDATE orders o SET status = c.status, updated_at = c.at,
           approved_at = coalesce(c.approved_at, o.approved_at), shipped_at = coalesce(c.shipped_at, o.shipped_at),
           delivered_at = coalesce(c.delivered_at, o.delivered_at), cancelled_at = coalesce(c.cancelled_at, o.cancelled_at),
           carrier = coalesce(c.carrier, o.carrier), tracking_number = CASE WHEN c.carrier IS NULL THEN o.tracking_number ELSE c.tracking_number END
         FROM changes c WHERE o.id = c.id
         RETURNING o.organisation_id, o.created_at, o.status, o.total_amount, o.delivered_at
       )
       ${STATS_UPSERT(`SELECT organisation_id, created_at, status, -total_amount AS total_amount, -1 AS orders, -${DELIVERY_DAYS} AS delivery_days FROM before
          UNION ALL SELECT organisation_id, created_at, status, total_amount, 1, ${DELIVERY_DAYS} FROM after`)}`,
        [
          JSON.stringify(
            [...statuses].map(([id, r]) => ({
              id,
              status: r.status,
              at: r.updatedAt,
              approved_at: r.times.approved ?? null,
              shipped_at: r.times.shipped ?? null,
              delivered_at: r.times.delivered ?? null,
              cancelled_at: r.times.cancelled ?? null,
              carrier: r.carrier,
              tracking_number: r.trackingNumber,
            })),
          ),
        ],
      ),
    );
  }

  if (units.length) {
    await db.query(
      `INSERT INTO order_units (serial_number, order_id, organisation_id, product_id, product_name, shipped_at)
       SELECT serial_number, order_id, organisation_id, product_id, product_name, shipped_at
       FROM json_to_recordset($1::json) AS t(serial_number text, order_id uuid, organisation_id uuid, product_id uuid, product_name text, shipped_at timestamptz)
       ON CONFLICT (serial_number) DO NOTHING`,
      [
        JSON.stringify(
          units.map((u) => ({ serial_number: u[0], order_id: u[1], organisation_id: u[2], product_id: u[3], product_name: u[4], shipped_at: u[5] })),
        ),
      ],
    );
  }
}

/** An order's days from ordering to delivery, in numeric: the statistics add and subtract it exactly, in any order. */
const DELIVERY_DAYS = 'coalesce(extract(epoch FROM delivered_at - created_at) / 86400, 0)';

/**
 * Adds signed changes (organisation, created_at, status, total_amount, orders, delivery_days) to the
 * organisation's and everyone's rows, and answers the keys of the rows it left counting no order.
 */
const STATS_UPSERT = (changes: string) => `
  INSERT INTO order_stats AS s (organisation_id, month, status, orders, total_amount, delivery_days)
  SELECT scope, date_trunc('month', d.created_at AT TIME ZONE 'UTC')::date, d.status, sum(d.orders), sum(d.total_amount), sum(d.delivery_days)
  FROM (${changes}) AS d CROSS JOIN LATERAL (VALUES (d.organisation_id), ('${ALL_ORGANISATIONS}'::uuid)) AS scopes(scope)
  GROUP BY 1, 2, 3
  ON CONFLICT (organisation_id, month, status) DO UPDATE SET
    orders = s.orders + excluded.orders, total_amount = s.total_amount + excluded.total_amount, delivery_days = s.delivery_days + excluded.delivery_days
  RETURNING s.organisation_id, s.month::text AS month, s.status, s.orders`;

interface StatsKey {
  organisation_id: string;
  month: string;
  status: string;
  orders: string;
}

/**
 * A statistics row whose orders all moved to another status counts nothing: it is removed, as a replay
 * of the log (which meets most orders in their last status) never writes it. Sums are exact (numeric),
 * so such a row holds zero amounts and zero days too.
 */
async function withoutEmptyStatistics(db: PoolClient, result: { rows: StatsKey[] }): Promise<void> {
  const empty = result.rows.filter((row) => Number(row.orders) === 0);
  if (empty.length === 0) return;
  await db.query(
    `DELETE FROM order_stats s USING json_to_recordset($1::json) AS e(organisation_id uuid, month date, status text)
     WHERE s.organisation_id = e.organisation_id AND s.month = e.month AND s.status = e.status AND s.orders = 0`,
    [JSON.stringify(empty.map(({ organisation_id, month, status }) => ({ organisation_id, month, status })))],
  );
}

/**
 * The orders an erased person placed keep their delivery contact only as erased (the events read so
 * from now on; the rows copied it before). Their ship-to addresses leave the dashboard's recipients too.
 */
async function forgetPlacers(events: readonly RecordedEvent[], db: PoolClient): Promise<void> {
  for (const event of events) {
    if (event.type !== 'UserErased.v1') continue;
    const person = (event.data as { userId: string }).userId;
    const { rows } = await db.query<{ id: string; shipping_address: ShippingAddress }>('SELECT id, shipping_address FROM orders WHERE placed_by = $1', [
      person,
    ]);
    for (const row of rows) {
      const { shippingAddress } = erasedData('OrderPlaced.v1', { shippingAddress: row.shipping_address }, person);
      await db.query('UPDATE orders SET shipping_address = $2 WHERE id = $1', [row.id, JSON.stringify(shippingAddress)]);
    }
    const emails = [...new Set(rows.map((r) => r.shipping_address.email?.trim().toLowerCase()).filter((e): e is string => Boolean(e)))];
    await forgetRecipients(emails, erasedValue('email', person), db);
  }
}

export const ordersProjection: Projection = {
  name: 'orders',
  async apply(event: RecordedEvent, db: PoolClient) {
    await applyOrderEvents([event], db);
    await forgetPlacers([event], db);
  },
  async applyBatch(events: readonly RecordedEvent[], db: PoolClient) {
    await applyOrderEvents(events, db);
    await forgetPlacers(events, db);
  },
};
