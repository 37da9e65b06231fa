import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { products } from '../domain/products/products';
import { orders } from '../domain/orders/orders';
import { runCommand } from '../platform/commands/dispatch';
import { as, login, type Session } from '../src/testing/api';
import { startTestPortal, type TestPortal } from '../src/testing/portal';

const GRACE_MS = 400;
let t: TestPortal;
let admin: Session;
let partner: Session;

beforeAll(async () => {
  t = await startTestPortal({ env: { RESERVATION_GRACE_MS: String(GRACE_MS), JOB_BACKOFF_MS: '50', LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' } });
  [admin, partner] = await Promise.all([login(t.app, 'admin@partnerhub.test'), login(t.app, 'partner@partnerhub.test')]);
});
afterAll(() => t?.close());

const metadata = () => ({ now: new Date().toISOString(), actorId: admin.user.id, actorRole: 'admin', correlationId: randomUUID(), causationId: null });
const stockOf = async (productId: string) =>
  (await t.db.pool.query<{ stock_quantity: number }>('SELECT stock_quantity FROM read.products WHERE id = $1', [productId])).rows[0].stock_quantity;

/** A product with plenty of stock from the demo catalogue. */
async function someProduct() {
  const { rows } = await t.db.pool.query<{ id: string; stock_quantity: number; moq: number }>(
    'SELECT id, stock_quantity, moq FROM read.products WHERE stock_quantity > 50 ORDER BY name LIMIT 1',
  );
  return rows[0];
}

describe('stock reservations left behind by a stopped process', () => {
  it('a reservation whose order never appeared is released after the grace period, once', async () => {
    const product = await someProduct();
    const orderId = randomUUID();
    // The placing process reserved, then stopped before placing the order.
    await runCommand(t.portal.services, products, product.id, { type: 'ReserveStock', orderId, quantity: product.moq + 2 }, metadata());
    expect(await stockOf(product.id)).toBe(product.stock_quantity - product.moq - 2);
    await vi.waitFor(async () => expect(await stockOf(product.id)).toBe(product.stock_quantity), { timeout: 20_000, interval: 100 });
    const released = (await t.portal.services.store.readStream(products.streamId(product.id))).filter((e) => e.type === 'StockReleased.v1');
    expect(released.map((e) => (e.data as { orderId: string }).orderId)).toEqual([orderId]);
    expect(released[0].metadata).toMatchObject({ actorRole: 'system' });
  });

  it("a placed order's reservation is kept", async () => {
    const product = await someProduct();
    const placed = await as(
      t.app,
      partner,
    )({
      method: 'POST',
      url: '/api/orders',
      payload: {
        estimated_delivery: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
        notes: 'Kept',
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
      },
    });
    expect(placed.statusCode).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS * 4));
    const jobs = await t.portal.services.redis.keys(`${t.portal.services.config.REDIS_PREFIX}:stock-reservations:*check-reservation*`);
    expect(jobs.length).toBeGreaterThan(0);
    expect(await stockOf(product.id)).toBe(product.stock_quantity - product.moq);
  });

  it("a cancelled order's stock is released even when the cancelling request stopped before releasing it", async () => {
    const product = await someProduct();
    const placed = await as(
      t.app,
      partner,
    )({
      method: 'POST',
      url: '/api/orders',
      payload: {
        estimated_delivery: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
        notes: 'To cancel',
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
      },
    });
    const orderId = placed.json().data.id;
    // Only the status change lands; the release that should follow it does not run in the request.
    await runCommand(t.portal.services, orders, orderId, { type: 'ChangeOrderStatus', status: 'cancelled', notes: 'Customer withdrew' }, metadata());
    await vi.waitFor(async () => expect(await stockOf(product.id)).toBe(product.stock_quantity), { timeout: 20_000, interval: 100 });
  });
});
