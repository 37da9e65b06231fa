import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandMetadata } from '../../domain/decider';
import type { ShippingAddress } from '../../domain/orders/shipping';
import { recentActivity } from '../../projections/recentActivity';
import { changeOrderStatus, placeOrder } from '../../commands/orders';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';
import { DASHBOARD_MESSAGES, dashboardFigures } from './dashboards';

/**
 * Dashboard figures against hand-computed values. Orders are placed through the order commands with
 * pinned times in March 2024 (a leap year, long before any demo data), so the figures of that month
 * count only what this file creates; the route tests compare the answers with the same functions.
 */

let t: TestPortal;
let admin: Session;
let partner: Session;
let distributor: Session;
let manufacturer: Session;
let support: Session;
let newPartner: { id: string; session: Session };
let newDistributor: { id: string; session: Session };
let product: { id: string; price: number; moq: number };
const password = 'Dashboard2026';

/** The figures of a stats answer without its KPI cards and range (kpis.int.test.ts checks those against the lists). */
function figuresOf(res: { json(): { data: { data: Record<string, unknown> } } }) {
  const { kpis, range, ...figures } = res.json().data.data;
  expect(Array.isArray(kpis)).toBe(true);
  expect(range).toHaveProperty('key');
  return figures;
}

const NOW = new Date('2024-03-12T12:00:00.000Z'); // a Tuesday; the month so far is 1–12 March, the period before 18–29 February
const meta = (actor: { id: string; role: string }, at: string): CommandMetadata => ({
  now: at,
  actorId: actor.id,
  actorRole: actor.role,
  correlationId: randomUUID(),
  causationId: null,
});
const address = (email: string): ShippingAddress => ({
  firstName: 'Ines',
  lastName: 'Moreau',
  email,
  phone: '+1 415 555 0100',
  addressLine1: '1 Market Street',
  city: 'San Francisco',
  state: 'CA',
  zipCode: '94105',
  country: 'United States',
});

async function activatedAccount(role: 'partner' | 'distributor', company: string, permissions: string[]) {
  const email = `${role}.${randomUUID().slice(0, 8)}@dash.example`;
  let id: string;
  if (role === 'partner') {
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/user/register/',
      payload: { full_name: `${company} Owner`, email, password, company_name: company },
    });
    id = registered.json().data.id;
    const activated = await as(
      t.app,
      admin,
    )({ method: 'PUT', url: `/api/users/${id}`, payload: { full_name: `${company} Owner`, email, role, is_active: true, permissions } });
    expect(activated.statusCode).toBe(200);
  } else {
    const created = await as(
      t.app,
      admin,
    )({
      method: 'POST',
      url: '/api/users',
      payload: { full_name: `${company} Owner`, email, password, role, company_name: company, permissions, is_active: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    id = created.json().data.id;
  }
  return { id, session: await login(t.app, email, password) };
}

/** Places an order of the test product at `at`, delivery expected `deliveryInDays` later. */
async function order(organisationId: string, role: string, at: string, recipient: string, deliveryInDays = 7) {
  const orderId = randomUUID();
  const estimated = new Date(Date.parse(at) + deliveryInDays * 86_400_000).toISOString().slice(0, 10);
  const placed = await placeOrder(
    t.portal.services,
    {
      orderId,
      organisationId,
      companyName: null,
      placedBy: organisationId,
      items: [{ productId: product.id, quantity: product.moq }],
      shippingAddress: address(recipient),
      estimatedDelivery: estimated,
      notes: null,
    },
    meta({ id: organisationId, role }, at),
  );
  expect(placed.created).toBe(true);
  return orderId;
}

const adminMeta = (at: string) => meta({ id: admin.user.id, role: 'admin' }, at);
const value = (orders: number) => Math.round(orders * product.price * product.moq * 100) / 100;

beforeAll(async () => {
  t = await startTestPortal();
  [admin, partner, distributor, manufacturer, support] = await Promise.all(
    ['admin', 'partner', 'distributor', 'manufacturer', 'support'].map((name) => login(t.app, `${name}@partnerhub.test`)),
  );
  const products = (await as(t.app, partner)({ method: 'GET', url: '/api/products?limit=50' })).json();
  const rows = (Array.isArray(products) ? products : (products.data?.products ?? products.data)) as Array<{
    id: string;
    price: number | string;
    moq: number;
    stock_quantity: number;
  }>;
  const chosen = rows.filter((p) => p.stock_quantity >= p.moq * 15).sort((a, b) => a.moq - b.moq)[0];
  product = { id: chosen.id, price: Number(chosen.price), moq: chosen.moq };

  newPartner = await activatedAccount('partner', 'Dashcove Networks', ['Orders.Browse']);
  newDistributor = await activatedAccount('distributor', 'Dashline Supply', ['Orders.Browse', 'Orders.Checkout', 'Orders.Shipping', 'Rebates.Read']);

  // The new partner: 3 orders this month so far (the first at midnight of 1 March), 2 in the 12 days before (the first at midnight of 18 February), 1 just before that.
  for (const at of [
    '2024-03-01T00:00:00.000Z',
    '2024-03-11T10:00:00.000Z',
    '2024-03-12T08:00:00.000Z',
    '2024-02-29T23:59:59.000Z',
    '2024-02-18T00:00:00.000Z',
    '2024-02-17T23:59:59.000Z',
  ]) {
    await order(newPartner.id, 'partner', at, 'buyer@dashcove.example');
  }
  // The demo partner ordered in the period before only.
  await order(partner.user.id, 'partner', '2024-02-20T09:00:00.000Z', 'buyer@northwind.example');

  // The new distributor: 2 orders today, 1 yesterday; three recipients, one of them first shipped to in February.
  const first = await order(newDistributor.id, 'distributor', '2024-02-10T10:00:00.000Z', 'old@reseller.example', 5);
  const onTime = await order(newDistributor.id, 'distributor', '2024-03-11T09:00:00.000Z', 'old@reseller.example', 3);
  const late = await order(newDistributor.id, 'distributor', '2024-03-12T01:00:00.000Z', 'new@reseller.example', 1);
  await order(newDistributor.id, 'distributor', '2024-03-12T02:00:00.000Z', 'NEW@reseller.example');
  await order(newDistributor.id, 'distributor', '2024-03-12T03:00:00.000Z', 'other@reseller.example');
  // Delivered by its estimated date (15 Feb), on its estimated date (14 Mar), and a day after it (13 Mar).
  const deliver = async (orderId: string, day: string) => {
    for (const [hour, status] of [
      ['08', 'approved'],
      ['09', 'shipped'],
      ['10', 'delivered'],
    ] as const)
      await changeOrderStatus(
        t.portal.services,
        orderId,
        status,
        null,
        adminMeta(`${day}T${hour}:00:00.000Z`),
        status === 'shipped' ? { carrier: 'DHL Express', trackingNumber: `JD${day}` } : null,
      );
  };
  await deliver(first, '2024-02-14');
  await deliver(onTime, '2024-03-14');
  await deliver(late, '2024-03-14');
});
afterAll(async () => {
  await t?.close();
});

const call = (session: Session | undefined) => as(t.app, session);

describe('figures at pinned times', () => {
  it("partner: this month's orders, their value and growth against the 12 days before, across the February–March boundary", async () => {
    const figures = await dashboardFigures.partner(t.portal.services.pool, newPartner.id, NOW);
    expect(figures.orders).toEqual({ thisMonth: 3, valueThisMonth: value(3), growthPercentage: 50, open: 6 });
    // Weeks start on Monday: 11 March holds 2 orders, 26 February 2 (29 Feb, 1 Mar), 12 February 2 (17, 18 Feb).
    const weeks = Object.fromEntries(figures.charts.ordersPerWeek.map((w) => [w.week, w.count]));
    expect(weeks).toMatchObject({ '2024-03-11': 2, '2024-03-04': 0, '2024-02-26': 2, '2024-02-19': 0, '2024-02-12': 2 });
    expect(figures.charts.ordersPerWeek).toHaveLength(12);
    expect(figures.charts.ordersPerWeek.at(-1)!.week).toBe('2024-03-11');
    const months = Object.fromEntries(figures.charts.orderValuePerMonth.map((m) => [m.month, m.value]));
    expect(months).toEqual({ '2023-10': 0, '2023-11': 0, '2023-12': 0, '2024-01': 0, '2024-02': value(3), '2024-03': value(3) });
  });

  it('a period starting at midnight counts the order placed at that instant, and the second before it in the previous period', async () => {
    const firstOfMonth = await dashboardFigures.partner(t.portal.services.pool, newPartner.id, new Date('2024-03-01T00:00:00.000Z'));
    // Month so far: 1 March only; the day before: 29 February.
    expect(firstOfMonth.orders).toMatchObject({ thisMonth: 1, growthPercentage: 0 });
    const lastOfFebruary = await dashboardFigures.partner(t.portal.services.pool, newPartner.id, new Date('2024-02-29T23:59:59.999Z'));
    // 1–29 February: 17, 18 and 29 February; the 29 days before hold none: growth from nothing has no percentage.
    expect(lastOfFebruary.orders).toMatchObject({ thisMonth: 3, growthPercentage: null });
  });

  it('distributor: orders today against yesterday, recipients served, pending shipments and on-time deliveries', async () => {
    const figures = await dashboardFigures.distributor(t.portal.services.pool, newDistributor.id, NOW);
    expect(figures.ordersToday).toEqual({ count: 3, growthPercentage: 200 });
    expect(figures.ordersThisMonth).toBe(4);
    expect(figures.orderValueThisMonth).toBe(value(4));
    // old@ (first in February), new@ (case folded), other@: two of them new this month.
    expect(figures.partnersServed).toEqual({ count: 3, newThisMonth: 2 });
    // Two orders still pending; of three delivered, two arrived by their estimated date.
    expect(figures.pendingShipments).toEqual({ count: 2, onTime: 67 });
    expect(figures.inventoryItems.items).toBeGreaterThan(0);
    expect(figures.inventoryItems.inStock).toBeGreaterThanOrEqual(0);
    expect(figures.inventoryItems.inStock).toBeLessThanOrEqual(100);
    expect(figures.rebateProgress).toHaveProperty('progressPercentage');
  });

  it('manufacturer: partners that ordered this month against the period before, and every organisation’s orders', async () => {
    const figures = await dashboardFigures.manufacturer(t.portal.services.pool, NOW);
    // This month: the new partner (distributors are not partners); before: the new partner and the demo partner.
    expect(figures.activePartners).toEqual({ count: 1, previousCount: 2, growthPercentage: -50 });
    // 3 partner orders and 4 distributor orders this month; 2 + 1 partner orders in the 12 days before.
    expect(figures.monthlyOrders).toEqual({ count: 7, value: value(7), growthPercentage: 133.3 });
    // Partners are approved now, not in 2024: none had been by then.
    expect(figures.managedPartners).toEqual({ count: 0, newThisMonth: 0 });
    const now = new Date();
    const approved = await t.portal.services.pool.query<{ n: string; recent: string }>(
      `SELECT count(*) AS n, count(*) FILTER (WHERE decided_at >= date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS recent FROM read.partners WHERE status = 'approved'`,
      [now],
    );
    expect((await dashboardFigures.manufacturer(t.portal.services.pool, now)).managedPartners).toEqual({
      count: Number(approved.rows[0].n),
      newThisMonth: Number(approved.rows[0].recent),
    });
  });

  it('distributor figures across every organisation (an administrator who chose nobody) count every recipient once', async () => {
    const all = await dashboardFigures.distributor(t.portal.services.pool, undefined, NOW);
    expect(all.ordersThisMonth).toBe(7);
    // By 12 March: old@ (10 Feb), buyer@dashcove (17 Feb), buyer@northwind (20 Feb), new@ and other@ (12 Mar); the demo's are later.
    expect(all.partnersServed).toEqual({ count: 5, newThisMonth: 2 });
  });
});

describe('routes', () => {
  it('answer success, data.data and message for each role', async () => {
    for (const [session, url] of [
      [partner, '/api/dashboard/stats'],
      [distributor, '/api/dashboard/distributor/stats'],
      [manufacturer, '/api/dashboard/manufacturer/stats'],
      [support, '/api/dashboard/support/stats'],
      [admin, '/api/dashboard/admin/stats'],
    ] as const) {
      const res = await call(session)({ method: 'GET', url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        message: DASHBOARD_MESSAGES.fetched,
        data: { data: expect.any(Object), user: { id: session.user.id } },
      });
    }
  });

  it('draw their charts over the chosen range: every week of a year, a past range ending on its own last day', async () => {
    const charts = async (session: Session, url: string) => (await call(session)({ method: 'GET', url })).json().data.data.charts;
    const year = await charts(admin, '/api/dashboard/admin/stats?range=year');
    const january = new Date(Date.UTC(new Date().getUTCFullYear(), 0, 1));
    const weeksThisYear = Math.floor((Date.now() - january.getTime()) / (7 * 86_400_000)) + 1;
    expect(year.ordersPerWeek.length).toBeGreaterThanOrEqual(Math.min(60, Math.max(12, weeksThisYear)));
    const past = await charts(support, '/api/dashboard/support/stats?range=custom&from=2026-03-01&to=2026-04-30');
    expect(past.ticketsOpenedResolved).toHaveLength(61);
    expect(past.ticketsOpenedResolved.at(0).day).toBe('2026-03-01');
    expect(past.ticketsOpenedResolved.at(-1).day).toBe('2026-04-30');
    const months = (await charts(partner, '/api/dashboard/stats?range=custom&from=2025-01-01&to=2025-12-31')).orderValuePerMonth;
    expect(months.map((m: { month: string }) => m.month)).toEqual(Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`));
  });

  it("answer the same figures as the query functions for the caller's organisation", async () => {
    const res = await call(newPartner.session)({ method: 'GET', url: '/api/dashboard/stats' });
    // the new partner has neither MDF.Read nor a rebates permission: its dashboard leaves the funds and rebate figures out
    expect(figuresOf(res)).toEqual({
      ...(await dashboardFigures.partner(t.portal.services.pool, newPartner.id, new Date())),
      funds: null,
      rebateProgress: null,
    });
    // the distributor reads its rebates: its dashboard shows their progress
    const ofDistributor = await call(newDistributor.session)({ method: 'GET', url: '/api/dashboard/distributor/stats' });
    expect(figuresOf(ofDistributor).rebateProgress).toEqual(
      (await dashboardFigures.distributor(t.portal.services.pool, newDistributor.id, new Date())).rebateProgress,
    );
  });

  it("refuse another user's figures to anyone but an administrator (403), and give them to an administrator", async () => {
    const other = await call(partner)({ method: 'GET', url: `/api/dashboard/stats?user_id=${newPartner.id}` });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ success: false, message: DASHBOARD_MESSAGES.otherUser });
    expect((await call(distributor)({ method: 'GET', url: `/api/dashboard/distributor/stats?user_id=${newDistributor.id}` })).statusCode).toBe(403);
    expect((await call(support)({ method: 'GET', url: `/api/dashboard/support/stats?user_id=${admin.user.id}` })).statusCode).toBe(403);
    expect((await call(partner)({ method: 'GET', url: `/api/dashboard/recent-activity?user_id=${newPartner.id}` })).statusCode).toBe(403);
    expect((await call(partner)({ method: 'GET', url: `/api/dashboard/stats?user_id=${partner.user.id}` })).statusCode).toBe(200);

    const chosen = await call(admin)({ method: 'GET', url: `/api/dashboard/stats?user_id=${newPartner.id}` });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().data.user).toMatchObject({ id: newPartner.id, role: 'partner', company_name: 'Dashcove Networks' });
    expect(figuresOf(chosen)).toEqual({
      ...(await dashboardFigures.partner(t.portal.services.pool, newPartner.id, new Date())),
      funds: null,
      rebateProgress: null,
    });
    const ofDistributor = await call(admin)({ method: 'GET', url: `/api/dashboard/distributor/stats?user_id=${newDistributor.id}` });
    expect(figuresOf(ofDistributor)).toEqual(await dashboardFigures.distributor(t.portal.services.pool, newDistributor.id, new Date()));
  });

  it('refuse a user of another role (400), an unknown user (404) and a malformed id (400)', async () => {
    expect((await call(admin)({ method: 'GET', url: `/api/dashboard/stats?user_id=${newDistributor.id}` })).statusCode).toBe(400);
    expect((await call(admin)({ method: 'GET', url: `/api/dashboard/stats?user_id=${randomUUID()}` })).json()).toMatchObject({
      message: DASHBOARD_MESSAGES.userNotFound,
    });
    expect((await call(admin)({ method: 'GET', url: '/api/dashboard/stats?user_id=42' })).statusCode).toBe(400);
  });

  it('are each for their own role (and administrators)', async () => {
    const routes = [
      '/api/dashboard/stats',
      '/api/dashboard/distributor/stats',
      '/api/dashboard/manufacturer/stats',
      '/api/dashboard/support/stats',
      '/api/dashboard/admin/stats',
    ];
    const allowed: Array<[Session, string]> = [
      [partner, routes[0]],
      [distributor, routes[1]],
      [manufacturer, routes[2]],
      [support, routes[3]],
    ];
    for (const session of [partner, distributor, manufacturer, support]) {
      for (const url of routes) {
        const expected = allowed.some(([s, u]) => s === session && u === url) ? 200 : 403;
        expect((await call(session)({ method: 'GET', url })).statusCode, `${session.user.role} ${url}`).toBe(expected);
      }
    }
    for (const url of routes) expect((await call(admin)({ method: 'GET', url })).statusCode).toBe(200);
    for (const url of routes) expect((await call(undefined)({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('support figures include the chosen support user’s assigned tickets', async () => {
    const res = await call(admin)({ method: 'GET', url: `/api/dashboard/support/stats?user_id=${support.user.id}` });
    expect(res.json().data.data.assignedToUser).toEqual({ active: expect.any(Number), overdue: expect.any(Number) });
    expect(res.json().data.data.charts.ticketsOpenedResolved).toHaveLength(Math.max(14, new Date().getUTCDate())); // this month so far, at least two weeks
  });
});

describe('quick actions', () => {
  const keys = async (session: Session, query = '') => {
    const res = await call(session)({ method: 'GET', url: `/api/dashboard/quick-actions${query}` });
    expect(res.statusCode).toBe(200);
    return { keys: (res.json().data.data as Array<{ key: string }>).map((a) => a.key), message: res.json().message as string };
  };

  it("follow the partner's permissions; Team Management is always shown", async () => {
    expect((await keys(newPartner.session)).keys).toEqual(['place-order', 'team-management']);
    expect((await keys(admin, `?user_id=${newPartner.id}&dashboard=partner`)).keys).toEqual(['place-order', 'team-management']);
    expect((await keys(admin, '?dashboard=partner')).keys).toEqual(['new-project', 'place-order', 'check-rebates', 'team-management']);
  });

  it('say so when none are available, and ignore another dashboard asked for by a non-administrator', async () => {
    const member = await login(t.app, 'partner.user@partnerhub.test');
    expect(await keys(member)).toEqual({ keys: [], message: 'No quick actions available with your current permissions.' });
    expect((await keys(newPartner.session, '?dashboard=admin')).keys).toEqual(['place-order', 'team-management']);
  });
});

describe('recent activity', () => {
  it("shows an organisation's own feed, newest first, each line saying what happened and linking to the record", async () => {
    const res = await call(newDistributor.session)({ method: 'GET', url: '/api/dashboard/recent-activity?limit=20' });
    expect(res.statusCode).toBe(200);
    const items = res.json().data.data.activities as Array<{
      record_type: string;
      occurred_at: string;
      actor_name: string | null;
      link: string;
      message: string;
      title: string;
    }>;
    expect(items.length).toBe(5 + 9);
    expect(items.every((i) => i.record_type === 'orders' && i.link.startsWith('/order/track/'))).toBe(true);
    expect(items.map((i) => i.occurred_at)).toEqual([...items.map((i) => i.occurred_at)].sort().reverse());
    expect(items[0]).toMatchObject({ message: expect.stringMatching(/^Your order .+ was delivered$/) });
    expect(items.filter((i) => /^Order .+ was placed: \$/.test(i.message))).toHaveLength(5);
    expect(res.json().data.data.recentPartners).toEqual([]);
  });

  it('for those who see every organisation, includes every organisation and partner applications', async () => {
    const items = await recentActivity(t.portal.services.pool, { partnerApplications: true }, 500);
    expect(items.some((i) => i.record_type === 'partners')).toBe(true);
    expect((await recentActivity(t.portal.services.pool, {}, 500)).some((i) => i.record_type === 'partners')).toBe(false);
    expect(items.map((i) => i.occurred_at)).toEqual([...items.map((i) => i.occurred_at)].sort().reverse());
    const mine = await recentActivity(t.portal.services.pool, { organisationId: newPartner.id }, 50);
    expect(mine).toHaveLength(6);
    expect(mine.every((i) => i.message.endsWith('was created (pending)'))).toBe(true);
  });
});
