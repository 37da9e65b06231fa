import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../domain/orders/orders';
import { tickets } from '../../domain/tickets/tickets';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

/**
 * The programme tier's benefits other than the rebate rate, each read as of the moment of its event:
 * a promotion changes what comes after it and leaves what came before as it was.
 */

const DAY_MS = 86_400_000;
let t: TestPortal;
let admin: Session;
let partner: Session;

beforeAll(async () => {
  t = await startTestPortal({ env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' } });
  [admin, partner] = await Promise.all([login(t.app, 'admin@partnerhub.test'), login(t.app, 'partner@partnerhub.test')]);
});
afterAll(() => t?.close());

const call = (session: Session) => as(t.app, session);
const tierNamed = async (name: string) =>
  (
    (await call(partner)({ method: 'GET', url: '/api/programme/tiers' })).json().data.tiers as Array<{
      id: string;
      name: string;
      benefits: { protection_days: number };
    }>
  ).find((tier) => tier.name === name)!;

async function hold(tierName: string) {
  const tier = await tierNamed(tierName);
  const endsOn = new Date(Date.now() + 60 * DAY_MS).toISOString().slice(0, 10);
  const held = await call(admin)({
    method: 'POST',
    url: `/api/programme/organisations/${partner.user.id}/override`,
    payload: { tier_id: tier.id, reason: 'Benefit test', ends_on: endsOn },
  });
  expect(held.statusCode, held.body).toBe(200);
  return tier;
}

async function registerProject(title: string) {
  const form = new FormData();
  form.append('title', title);
  form.append('end_user_customer_name', `${title} customer ${Math.random().toString(36).slice(2, 8)}`);
  const request = new Request('http://x/', { method: 'POST', body: form });
  const response = await call(partner)({
    method: 'POST',
    url: '/api/projects',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string; expires_at: string; submitted_at: string };
}
const protectedDays = (project: { expires_at: string; submitted_at: string }) => (Date.parse(project.expires_at) - Date.parse(project.submitted_at)) / DAY_MS;
const project = async (id: string) =>
  (await call(partner)({ method: 'GET', url: `/api/projects/${id}` })).json().data as { expires_at: string; submitted_at: string };

describe('deal registration protection', () => {
  it('lasts as long as the tier in force at submission gives, before and after a promotion', async () => {
    const standing = (await call(partner)({ method: 'GET', url: '/api/programme/standing' })).json().data;
    expect(standing.tier.name).toBe('Registered');
    // The bottom tier gives the standard 60 days.
    const before = await registerProject('Harbour office refresh');
    expect(protectedDays(before)).toBe(60);

    const gold = await hold('Gold');
    expect(gold.benefits.protection_days).toBe(150);
    const after = await registerProject('Harbour warehouse wireless');
    expect(protectedDays(after)).toBe(150);
    // The earlier registration keeps the protection of its own time.
    expect(protectedDays(await project(before.id))).toBe(60);

    const ended = await call(admin)({ method: 'DELETE', url: `/api/programme/organisations/${partner.user.id}/override` });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(protectedDays(await registerProject('Harbour depot cameras'))).toBe(60);
    expect(protectedDays(await project(after.id))).toBe(150);
  });
});

async function multipart(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

async function placeOrder(productId: string, quantity: number) {
  const address = {
    firstName: 'Dana',
    lastName: 'Reyes',
    email: 'dana@example.test',
    phone: '+1 206 555 0100',
    addressLine1: '1 Pier Way',
    city: 'Seattle',
    state: 'WA',
    zipCode: '98101',
    country: 'United States',
  };
  const placed = await call(partner)({
    method: 'POST',
    url: '/api/orders',
    payload: {
      estimated_delivery: new Date(Date.now() + 7 * DAY_MS).toISOString().slice(0, 10),
      notes: 'Discount test',
      items: [{ product_id: productId, quantity }],
      shipping_address: address,
    },
  });
  expect(placed.statusCode, placed.body).toBe(201);
  const id = placed.json().data.id as string;
  const answer = (await call(partner)({ method: 'GET', url: `/api/orders/${id}` })).json().data;
  const [event] = await t.portal.services.store.readStream(orders.streamId(id));
  return {
    answer,
    event: event as unknown as {
      data: { items: Array<{ unitPriceCents: number; listPriceCents?: number; lineTotalCents: number }>; totalCents: number; discount?: unknown };
    },
  };
}

describe('catalogue discount', () => {
  it('prices the catalogue and the order at the tier in force, and an earlier order keeps its prices', async () => {
    const created = await call(admin)({
      method: 'POST',
      url: '/api/products',
      ...(await multipart({
        name: `HX-D${Date.now()} Discount Test Switch`,
        price: '250.00',
        category: 'Managed Switches',
        stock_quantity: '100',
        moq: '1',
        description: 'For discount tests.',
      })),
    });
    expect(created.statusCode, created.body).toBe(201);
    const productId = created.json().data.id as string;
    const product = async () => (await call(partner)({ method: 'GET', url: `/api/products/${productId}` })).json().data;

    // Registered gives no discount: the catalogue answers as before and the order pays the list price.
    expect(await product()).toMatchObject({ price: 250 });
    expect(await product()).not.toHaveProperty('your_price');
    const before = await placeOrder(productId, 4);
    expect(before.answer).toMatchObject({ total_amount: 1000, items: [{ unit_price: 250, line_total: 1000 }] });
    expect(before.event.data).not.toHaveProperty('discount');

    const gold = await hold('Gold');
    expect(await product()).toMatchObject({ price: 250, your_price: 237.5, discount_percent: 5, discount_tier: 'Gold' });
    const listed = (await call(partner)({ method: 'GET', url: '/api/products', query: { search: 'Discount Test Switch' } })).json().data;
    expect(listed.find((p: { id: string }) => p.id === productId)).toMatchObject({ price: 250, your_price: 237.5, discount_percent: 5 });
    // Staff see the list price only.
    expect((await call(admin)({ method: 'GET', url: `/api/products/${productId}` })).json().data).not.toHaveProperty('your_price');

    const after = await placeOrder(productId, 4);
    expect(after.answer).toMatchObject({ total_amount: 950, items: [{ unit_price: 237.5, line_total: 950 }] });
    expect(after.event.data).toMatchObject({
      totalCents: 95_000,
      discount: { tierId: gold.id, tierName: 'Gold', percent: 5 },
      items: [{ unitPriceCents: 23_750, listPriceCents: 25_000, lineTotalCents: 95_000 }],
    });
    // The earlier order keeps the prices of its own time.
    expect((await call(partner)({ method: 'GET', url: `/api/orders/${before.answer.id as string}` })).json().data).toMatchObject({ total_amount: 1000 });

    const ended = await call(admin)({ method: 'DELETE', url: `/api/programme/organisations/${partner.user.id}/override` });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await product()).not.toHaveProperty('your_price');
  });
});

describe('MDF allocation share', () => {
  it('multiplies the rule’s amount by the share of the tier in force when the rule is applied, recorded in the event', async () => {
    // A delivery today, inside the ten days measured for a fund that starts tomorrow.
    const created = await call(admin)({
      method: 'POST',
      url: '/api/products',
      ...(await multipart({
        name: `HX-M${Date.now()} Fund Test Switch`,
        price: '999.99',
        category: 'Managed Switches',
        stock_quantity: '100',
        moq: '1',
        description: 'For fund tests.',
      })),
    });
    expect(created.statusCode, created.body).toBe(201);
    const order = await placeOrder(created.json().data.id, 3);
    for (const status of ['approved', 'shipped', 'delivered']) {
      const moved = await call(admin)({
        method: 'PUT',
        url: `/api/orders/admin/${order.answer.id}/status`,
        payload: { status, ...(status === 'shipped' ? { carrier: 'DHL Express', tracking_number: 'JD014600006281' } : {}) },
      });
      expect(moved.statusCode, moved.body).toBe(200);
    }
    const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
    const fund = await call(admin)({
      method: 'POST',
      url: '/api/funds',
      payload: { name: `Tier share ${Date.now()}`, period_start: day(1), period_end: day(10), budget: 10_000_000 },
    });
    expect(fund.statusCode, fund.body).toBe(201);
    const fundId = fund.json().data.id as string;
    const preview = async () => {
      const answer = await call(admin)({ method: 'GET', url: `/api/funds/${fundId}/allocation-rule?percent=10` });
      expect(answer.statusCode, answer.body).toBe(200);
      return (
        answer.json().data.allocations as Array<{ organisation_id: string; purchases: number; amount: number; mdf_share_percent: number; tier: string | null }>
      ).find((a) => a.organisation_id === partner.user.id)!;
    };
    const applyRule = async () => {
      const applied = await call(admin)({ method: 'POST', url: `/api/funds/${fundId}/allocation-rule`, payload: { percent: 10 } });
      expect(applied.statusCode, applied.body).toBe(200);
      const events = (await t.portal.services.store.readStream(`funds-${fundId}`)).filter((e) => e.type === 'FundAllocationsSetByRule.v1');
      return (
        events.at(-1)!.data as {
          allocations: Array<{ organisationId: string; purchasesCents: number; amountCents: number; share?: { tierName: string; percent: number } }>;
        }
      ).allocations.find((a) => a.organisationId === partner.user.id)!;
    };

    // Registered: a share of 100 %, the rule's own amount (10 % of the purchases, to the cent).
    const before = await preview();
    expect(before.purchases).toBeGreaterThanOrEqual(2_999.97);
    const purchasesCents = Math.round(before.purchases * 100);
    expect(before).toMatchObject({ tier: 'Registered', mdf_share_percent: 100, amount: Math.floor(purchasesCents / 10) / 100 });
    expect(await applyRule()).toMatchObject({ purchasesCents, amountCents: Math.floor(purchasesCents / 10), share: { tierName: 'Registered', percent: 100 } });

    // Gold: 125 % of the rule's amount, rounded down once.
    await hold('Gold');
    const after = await preview();
    expect(after).toMatchObject({ tier: 'Gold', mdf_share_percent: 125, amount: Math.floor((purchasesCents * 1_000 * 125) / 1_000_000) / 100 });
    expect(await applyRule()).toMatchObject({
      purchasesCents,
      amountCents: Math.floor((purchasesCents * 1_000 * 125) / 1_000_000),
      share: { tierName: 'Gold', percent: 125 },
    });
    const allocation = (await call(admin)({ method: 'GET', url: `/api/funds/${fundId}` }))
      .json()
      .data.allocations.find((a: { organisation_id: string }) => a.organisation_id === partner.user.id);
    expect(allocation.amount).toBe(after.amount);

    const ended = await call(admin)({ method: 'DELETE', url: `/api/programme/organisations/${partner.user.id}/override` });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await preview()).toMatchObject({ tier: 'Registered', mdf_share_percent: 100 });
  });
});

describe('support priority', () => {
  async function openTicket(title: string) {
    const response = await call(partner)({
      method: 'POST',
      url: '/api/tickets',
      ...(await multipart({ title, description: 'The uplink port drops every hour.', priority: 'High' })),
    });
    expect(response.statusCode, response.body).toBe(201);
    const ticket = response.json().data as { id: string; due_date: string; created_at: string };
    const [event] = await t.portal.services.store.readStream(tickets.streamId(ticket.id));
    return { hours: (Date.parse(ticket.due_date) - Date.parse(ticket.created_at)) / 3_600_000, event: event.data as { support?: unknown } };
  }

  it('shortens the service level by the tier in force when the ticket is opened, recorded in the ticket', async () => {
    // Registered: standard support, the High service level of 24 hours.
    const before = await openTicket('Uplink drops (standard)');
    expect(before.hours).toBe(24);
    expect(before.event).not.toHaveProperty('support');

    const gold = await hold('Gold');
    const after = await openTicket('Uplink drops (priority)');
    expect(after.hours).toBe(12);
    expect(after.event.support).toEqual({ level: 'priority', tierId: gold.id, tierName: 'Gold' });

    const ended = await call(admin)({ method: 'DELETE', url: `/api/programme/organisations/${partner.user.id}/override` });
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await openTicket('Uplink drops (standard again)')).hours).toBe(24);
  });
});

describe('rebate rate on the rebates page', () => {
  it('shows the programme tier in force, its rate, the ladder’s rates and what the next tier needs: the same tier the claims are suggested at', async () => {
    const overview = async () => (await call(partner)({ method: 'GET', url: '/api/rebates/dashboard/overview' })).json().data;
    const standing = (await call(partner)({ method: 'GET', url: '/api/programme/standing' })).json().data;
    const ladder = (await call(partner)({ method: 'GET', url: '/api/programme/tiers' })).json().data.tiers as Array<{
      name: string;
      benefits: { rebate_rate_percent: number };
    }>;
    const shown = await overview();
    expect(shown).toMatchObject({
      tier_source: 'programme',
      current_tier: { tier: standing.tier.name, next: standing.next_tier?.name ?? null },
      rate: standing.benefits.rebate_rate_percent,
      next_tier_missing: standing.missing_sentence,
      quarterly_progress: { percentage: null, target: null },
      remaining_to_next_tier: null,
    });
    expect(shown.tiers).toEqual(ladder.map((tier) => ({ name: tier.name, threshold: null, rate: tier.benefits.rebate_rate_percent })));

    const form = new FormData();
    const fields = {
      product_name: 'HX-M2424 24-Port Gigabit Managed Switch',
      product_category: 'Managed Switches',
      purchase_date: new Date().toISOString().slice(0, 10),
      invoice_number: `INV-${Date.now()}`,
      purchase_amount: '1000.00',
      rebate_type: 'Volume Rebate',
      description: 'Branch switches.',
    };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const body = new Request('http://x/', { method: 'POST', body: form });
    const claim = await call(partner)({
      method: 'POST',
      url: '/api/rebates/submit',
      payload: Buffer.from(await body.arrayBuffer()),
      headers: { 'content-type': body.headers.get('content-type')! },
    });
    expect(claim.statusCode, claim.body).toBeLessThan(300);
    const suggested = (await call(admin)({ method: 'GET', url: `/api/rebates/${claim.json().data.id}` })).json().data;
    expect(suggested).toMatchObject({ suggested_tier: shown.current_tier.tier, suggested_rate: shown.rate });
  });
});
