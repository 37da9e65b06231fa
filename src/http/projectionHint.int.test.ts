import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

/**
 * A NOTIFY on the projector's channel is a hint, never a fact: any database login may send one. The
 * analysts' read-only role (docs/read-models.md) sends the payload of a projector far ahead, and the
 * API must go on answering what the read models really hold.
 */

let t: TestPortal;
let admin: Session;
let partner: Session;
let analyst: pg.Client;

const MARKER_CHANNEL = 'partnerhub_test_marker';
/** The position the probe claimed: far beyond anything the projector will reach. */
const FORGED = 'read:9000000000000000000:9000000000000000000';

async function connectAsAnalyst(): Promise<pg.Client> {
  const url = new URL(t.db.url);
  url.username = 'partnerhub_analyst';
  url.password = 'partnerhub_analyst';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return client;
}

/** Sends the forged progress and returns once the API's listening connection has heard it (a marker sent after it arrived). */
async function forgeProgress(): Promise<void> {
  let heard: () => void = () => {};
  const arrived = new Promise<void>((resolve) => (heard = resolve));
  const unsubscribe = await t.portal.services.watcher.subscribe(MARKER_CHANNEL, { message: () => heard(), interrupted: () => {} });
  await analyst.query('SELECT pg_notify($1, $2), pg_notify($3, $4)', ['partnerhub_projected', FORGED, MARKER_CHANNEL, 'after']);
  await arrived;
  unsubscribe();
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends a request while the projector cannot commit (its checkpoint row is locked), and lets it go on
 * after a moment: an API that believed the forged position would answer before the read models moved.
 */
async function whileProjectorHeld<T>(request: () => Promise<T>): Promise<T> {
  const holder = await t.db.pool.connect();
  try {
    await holder.query('BEGIN');
    await holder.query("SELECT 1 FROM read.checkpoints WHERE name = 'read-models' FOR UPDATE");
    const answer = request();
    await delay(300);
    await holder.query('COMMIT');
    return await answer;
  } finally {
    holder.release();
  }
}

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  [admin, partner] = await Promise.all([login(t.app, 'admin@partnerhub.test'), login(t.app, 'partner@partnerhub.test')]);
  analyst = await connectAsAnalyst();
});
afterAll(async () => {
  await analyst?.end();
  await t?.close();
});

const call = (session: Session) => as(t.app, session);

async function placeableProduct(): Promise<{ id: string; moq: number }> {
  const products = (await call(admin)({ method: 'GET', url: '/api/products?range=[0,99]' })).json() as Array<{
    id: string;
    moq: number;
    stock_quantity: number;
  }>;
  const product = products.find((p) => p.stock_quantity >= p.moq * 10);
  if (!product) throw new Error('no product with stock in the demo data');
  return product;
}

const orderBody = (product: { id: string; moq: number }) => ({
  estimated_delivery: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
  items: [{ product_id: product.id, quantity: product.moq }],
  shipping_address: {
    firstName: 'Priya',
    lastName: 'Shah',
    email: 'priya@northwind.test',
    phone: '+1 206 555 0142',
    addressLine1: '410 Harbour Steps',
    city: 'Seattle',
    state: 'WA',
    zipCode: '98101',
    country: 'United States',
  },
});

describe('a forged NOTIFY from the analyst role', () => {
  it('moves nothing the API believes: kept answers, read-your-writes and new orders stay right', async () => {
    const product = await placeableProduct();
    const placed = await call(partner)({ method: 'POST', url: '/api/orders', payload: orderBody(product) });
    expect(placed.statusCode).toBe(201);
    const orderId = placed.json().data.id as string;
    // The order's answer is kept by this process (read twice at the same position).
    for (let i = 0; i < 2; i++) expect((await call(admin)({ method: 'GET', url: `/api/orders/${orderId}` })).json().data.status).toBe('pending');

    await forgeProgress();
    expect(t.portal.services.watcher.position?.commit).not.toBe(9_000_000_000_000_000_000n);

    // Read-your-writes: the command's answer shows the change it made.
    const approved = await whileProjectorHeld(() =>
      call(admin)({ method: 'PUT', url: `/api/orders/admin/${orderId}/status`, payload: { status: 'approved' } }),
    );
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data.status).toBe('approved');
    // The kept answer is not served after the change.
    expect((await call(admin)({ method: 'GET', url: `/api/orders/${orderId}` })).json().data.status).toBe('approved');

    // A new order is answered with the order, not "not found".
    const next = await whileProjectorHeld(() => call(partner)({ method: 'POST', url: '/api/orders', payload: orderBody(product) }));
    expect(next.statusCode).toBe(201);
    expect(next.json().data).toMatchObject({ status: 'pending', items: [{ product_id: product.id }] });
  }, 60_000);
});
