/**
 * Realistic order history for scale tests, written straight into the event log: the events the
 * orders decider produces (OrderPlaced.v1, OrderStatusChanged.v1, OrderUnitsSerialised.v1 at
 * shipping), with the same data and metadata, each order its own `orders-<id>` stream with revisions
 * from 0. Orders spread over two years and many organisations (the demo partner and distributor
 * among them); statuses move on days apart, and older orders are mostly delivered or cancelled.
 * For speed, many streams go into one multi-row INSERT of the columns appendToStream writes; the
 * order numbers are taken from the portal's own sequence, so later real orders never collide.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from '../../platform/db';
import { newEventId } from '../../platform/eventstore/eventIds';
import { formatOrderNumber, serialNumbersOf, type OrderLine, type OrderStatus } from '../../domain/orders/orders';

const DAY = 86_400_000;
const HISTORY_DAYS = 730;
const EVENTS_PER_INSERT = 4000;

export interface GeneratedOrders {
  orders: number;
  events: number;
  organisations: number;
  seconds: number;
}

interface Product {
  id: string;
  name: string;
  priceCents: number;
}

interface Organisation {
  id: string;
  companyName: string;
  placedBy: string;
}

const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)];

const CITIES = [
  ['Seattle', 'WA', '98101'],
  ['Austin', 'TX', '73301'],
  ['Denver', 'CO', '80202'],
  ['Boston', 'MA', '02108'],
  ['Chicago', 'IL', '60601'],
] as const;

async function organisationsFor(pool: Pool, orders: number): Promise<{ organisations: Organisation[]; weighted: (i: number) => Organisation }> {
  const { rows } = await pool.query<{ id: string; company_name: string | null; full_name: string }>(
    "SELECT id::text, company_name, full_name FROM read.users WHERE email IN ('partner@partnerhub.test', 'distributor@partnerhub.test') ORDER BY email DESC",
  );
  const demo = rows.map((r) => ({ id: r.id, companyName: r.company_name ?? r.full_name, placedBy: r.id }));
  // About 500 orders per organisation, as a channel of many small resellers and a few large distributors has.
  const count = Math.max(20, Math.round(orders / 500));
  const synthetic = Array.from({ length: count }, (_, k) => {
    const id = randomUUID();
    return { id, companyName: `Scale Networks ${k + 1}`, placedBy: id };
  });
  // The demo partner and distributor place 1% of the orders each, so their own lists are measured at scale too.
  return { organisations: [...demo, ...synthetic], weighted: (i) => (demo.length && i % 100 < demo.length ? demo[i % 100] : synthetic[i % synthetic.length]) };
}

/** One order's events as the decider would have produced them, oldest first. */
function orderEvents(organisation: Organisation, products: Product[], sequence: bigint, adminId: string | null, now: number) {
  const orderId = randomUUID();
  const placedAt = now - Math.random() * HISTORY_DAYS * DAY;
  const orderNumber = formatOrderNumber(new Date(placedAt), sequence);
  const chosen = [...new Set(Array.from({ length: randomInt(1, 3) }, () => pick(products)))];
  const items: OrderLine[] = chosen.map((p) => {
    const quantity = randomInt(1, 3);
    return { productId: p.id, productName: p.name, quantity, unitPriceCents: p.priceCents, lineTotalCents: p.priceCents * quantity };
  });
  const [city, state, zipCode] = pick(CITIES);
  const correlationId = randomUUID();
  const meta = (at: number, actorId: string | null, actorRole: string) => ({
    actorId,
    actorRole,
    correlationId,
    causationId: null,
    occurredAt: new Date(at).toISOString(),
  });
  const ref = { orderId, orderNumber, organisationId: organisation.id };
  const events: Array<{ type: string; data: unknown; metadata: unknown }> = [
    {
      type: 'OrderPlaced.v1',
      data: {
        ...ref,
        companyName: organisation.companyName,
        placedBy: organisation.placedBy,
        items,
        totalCents: items.reduce((n, i) => n + i.lineTotalCents, 0),
        shippingAddress: {
          firstName: 'Alex',
          lastName: 'Buyer',
          email: 'orders@example.test',
          phone: '+1 206 555 0100',
          addressLine1: `${randomInt(1, 999)} Main Street`,
          city,
          state,
          zipCode,
          country: 'United States',
        },
        estimatedDelivery: new Date(placedAt + 14 * DAY).toISOString().slice(0, 10),
        notes: null,
        status: 'pending',
        previousStatus: null,
      },
      metadata: meta(placedAt, organisation.placedBy, 'partner'),
    },
  ];

  // Where the order got to: recent orders are still moving, older ones mostly delivered.
  const ageDays = (now - placedAt) / DAY;
  const roll = Math.random();
  const path: OrderStatus[] =
    ageDays < 2
      ? roll < 0.7
        ? []
        : ['approved']
      : ageDays < 10
        ? roll < 0.2
          ? []
          : roll < 0.5
            ? ['approved']
            : roll < 0.9
              ? ['approved', 'shipped']
              : ['cancelled']
        : roll < 0.8
          ? ['approved', 'shipped', 'delivered']
          : roll < 0.9
            ? ['cancelled']
            : roll < 0.95
              ? ['approved', 'cancelled']
              : ['approved', 'shipped'];
  let at = placedAt;
  let previous: OrderStatus = 'pending';
  for (const status of path) {
    at = Math.min(now, at + (status === 'delivered' ? randomInt(2, 8) : randomInt(1, 3)) * DAY * (0.5 + Math.random()));
    events.push({ type: 'OrderStatusChanged.v1', data: { ...ref, status, previousStatus: previous, reason: null }, metadata: meta(at, adminId, 'admin') });
    if (status === 'shipped')
      events.push({ type: 'OrderUnitsSerialised.v1', data: { ...ref, units: serialNumbersOf(orderNumber, items) }, metadata: meta(at, adminId, 'admin') });
    previous = status;
  }
  return { streamId: `orders-${orderId}`, events };
}

export async function generateOrders(
  pool: Pool,
  orders: number,
  options: { connections?: number; log?: (line: string) => void } = {},
): Promise<GeneratedOrders> {
  const began = Date.now();
  const log = options.log ?? (() => {});
  const products = (
    await pool.query<{ id: string; name: string; price: string }>('SELECT id::text, name, price::text FROM read.products ORDER BY name')
  ).rows.map((p) => ({ id: p.id, name: p.name, priceCents: Math.round(Number(p.price) * 100) }));
  if (!products.length) throw new Error('The catalogue is empty: migrate and seed the database first (npm run seed).');
  const admin = (await pool.query<{ id: string }>("SELECT id::text FROM read.users WHERE role = 'admin' ORDER BY created_at LIMIT 1")).rows[0]?.id ?? null;
  const { organisations, weighted } = await organisationsFor(pool, orders);

  // Reserve a block of the portal's order numbers.
  const reserved = await pool.query<{ first: string }>("SELECT nextval('order_numbers') AS first, setval('order_numbers', nextval('order_numbers') + $1)", [
    orders,
  ]);
  const first = BigInt(reserved.rows[0].first);
  const now = Date.now();

  let next = 0;
  let events = 0;
  let lastLog = Date.now();
  const worker = async () => {
    const columns = {
      stream: [] as string[],
      revision: [] as number[],
      id: [] as string[],
      type: [] as string[],
      data: [] as string[],
      metadata: [] as string[],
    };
    const flush = async () => {
      if (!columns.stream.length) return;
      await pool.query(
        'INSERT INTO events (stream_id, revision, event_id, type, data, metadata) SELECT * FROM unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[])',
        [columns.stream, columns.revision, columns.id, columns.type, columns.data, columns.metadata],
      );
      events += columns.stream.length;
      for (const list of Object.values(columns)) list.length = 0;
      if (Date.now() - lastLog > 5000) {
        lastLog = Date.now();
        log(`  ${next.toLocaleString('en-US')} of ${orders.toLocaleString('en-US')} orders, ${events.toLocaleString('en-US')} events`);
      }
    };
    while (next < orders) {
      const i = next++;
      const organisation = weighted(i);
      const order = orderEvents(organisation, products, first + BigInt(i), admin, now);
      order.events.forEach((event, revision) => {
        columns.stream.push(order.streamId);
        columns.revision.push(revision);
        columns.id.push(newEventId());
        columns.type.push(event.type);
        columns.data.push(JSON.stringify(event.data));
        columns.metadata.push(JSON.stringify(event.metadata));
      });
      if (columns.stream.length >= EVENTS_PER_INSERT) await flush();
    }
    await flush();
  };
  await Promise.all(Array.from({ length: options.connections ?? 2 }, worker));
  return { orders, events, organisations: organisations.length, seconds: (Date.now() - began) / 1000 };
}
