import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedRoutes } from '../testing/routes';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';
import { MEASURES } from '../../projections/programme';

/**
 * The partner programme over HTTP: the ladder, standings and what is missing, evaluation runs,
 * overrides, the rebate rate of the tier in force at a claim's time, and scorecards against figures
 * worked out by hand for a new organisation.
 */

let t: TestPortal;
let admin: Session;
let partner: Session;
let manufacturer: Session;
let fjord: Session;
const password = 'Partner2026';

beforeAll(async () => {
  t = await startTestPortal({ env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000', JOB_BACKOFF_MS: '50' } });
  [admin, partner, manufacturer] = await Promise.all(['admin', 'partner', 'manufacturer'].map((name) => login(t.app, `${name}@partnerhub.test`)));
  // A new partner organisation with no history: it orders, claims rebates and is evaluated here.
  const email = `fjord.${Date.now()}@example.test`;
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/user/register/',
    payload: { full_name: 'Ingrid Berg', email, password, company_name: 'Fjord Networks' },
  });
  const id = registered.json().data.id;
  const activated = await as(
    t.app,
    admin,
  )({
    method: 'PUT',
    url: `/api/users/${id}`,
    payload: {
      full_name: 'Ingrid Berg',
      email,
      role: 'partner',
      is_active: true,
      permissions: ['Orders.Read', 'Orders.Browse', 'Orders.Create', 'Orders.Checkout', 'Orders.Shipping', 'Rebates.Read', 'Rebates.Create'],
    },
  });
  expect(activated.statusCode, activated.body).toBe(200);
  fjord = await login(t.app, email, password);
});
afterAll(() => t?.close());

const call = (session: Session | undefined) => as(t.app, session);
const unique = () => Math.random().toString(36).slice(2, 8).toUpperCase();

async function multipart(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

/** A delivered order of `quantity` × a $250.00 product for Fjord. */
async function deliveredOrder(quantity: number) {
  const product = await call(admin)({
    method: 'POST',
    url: '/api/products',
    ...(await multipart({
      name: `HX-P${unique()} Programme Test Switch`,
      price: '250.00',
      category: 'Managed Switches',
      stock_quantity: '100',
      moq: '1',
      description: 'For programme tests.',
    })),
  });
  expect(product.statusCode, product.body).toBe(201);
  const address = {
    firstName: 'Ingrid',
    lastName: 'Berg',
    email: 'ingrid@fjord.test',
    phone: '+47 22 00 00 00',
    addressLine1: 'Kaigata 1',
    city: 'London',
    state: 'London',
    zipCode: 'EC1A 1BB',
    country: 'United Kingdom',
  };
  const placed = await call(fjord)({
    method: 'POST',
    url: '/api/orders',
    payload: {
      estimated_delivery: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
      notes: 'Programme test',
      items: [{ product_id: product.json().data.id, quantity }],
      shipping_address: address,
    },
  });
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json().data;
  for (const status of ['approved', 'shipped', 'delivered']) {
    const moved = await call(admin)({
      method: 'PUT',
      url: `/api/orders/admin/${order.id}/status`,
      payload: { status, ...(status === 'shipped' ? { carrier: 'DHL Express', tracking_number: 'JD014600006281' } : {}) },
    });
    expect(moved.statusCode, moved.body).toBe(200);
  }
  return order as { id: string };
}

async function claim(session: Session) {
  const response = await call(session)({
    method: 'POST',
    url: '/api/rebates/submit',
    ...(await multipart({
      product_name: 'HX-M2424 24-Port Gigabit Managed Switch',
      product_category: 'Managed Switches',
      purchase_date: new Date().toISOString().slice(0, 10),
      invoice_number: `INV-${unique()}`,
      purchase_amount: '1000.00',
      rebate_type: 'Volume Rebate',
      description: 'Programme test claim.',
    })),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string };
}
const rebate = async (id: string) => (await call(admin)({ method: 'GET', url: `/api/rebates/${id}` })).json().data;
const tiers = async () =>
  (await call(partner)({ method: 'GET', url: '/api/programme/tiers' })).json().data.tiers as Array<{
    id: string;
    name: string;
    rank: number;
    requirements: unknown[];
  }>;
const tierNamed = async (name: string) => (await tiers()).find((tier) => tier.name === name)!;
const evaluate = (organisationIds?: string[]) =>
  call(admin)({ method: 'POST', url: '/api/programme/evaluate', payload: organisationIds ? { organisation_ids: organisationIds } : {} });

describe('tiers', () => {
  it('are the seeded ladder, lowest first, with requirements and benefits; admins add and edit them, others may not', async () => {
    const ladder = await tiers();
    expect(ladder.map((tier) => [tier.name, tier.rank])).toEqual([
      ['Registered', 0],
      ['Silver', 1],
      ['Gold', 2],
      ['Platinum', 3],
    ]);
    expect(ladder[1]).toMatchObject({
      benefits: { rebate_rate_percent: 3.5 },
      requirements: [
        { kind: 'delivered_purchases', target: 1_000_000, window_months: 12 },
        { kind: 'deals_won', target: 1, window_months: 12 },
      ],
    });

    const body = {
      name: 'Diamond',
      rank: 4,
      requirements: [{ kind: 'delivered_purchases', target: 100_000_000, window_months: 12 }],
      benefits: { rebate_rate_percent: 8, mdf_share_percent: 150, protection_days: 180, catalogue_discount_percent: 10, support_priority: 'premium' },
    };
    expect((await call(partner)({ method: 'POST', url: '/api/programme/tiers', payload: body })).statusCode).toBe(403);
    const created = await call(admin)({ method: 'POST', url: '/api/programme/tiers', payload: body });
    expect(created.statusCode, created.body).toBe(201);
    const diamond = created.json().data;
    expect(diamond).toMatchObject({ name: 'Diamond', rank: 4, organisations: 0, version: 1 });
    const again = await call(admin)({ method: 'POST', url: '/api/programme/tiers', payload: { ...body, name: 'Diamond 2' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already has rank 4/);
    const wrongKind = await call(admin)({
      method: 'POST',
      url: '/api/programme/tiers',
      payload: { ...body, rank: 5, requirements: [{ kind: 'vibes', target: 1, window_months: 12 }] },
    });
    expect(wrongKind.statusCode).toBe(400);

    const edited = await call(admin)({
      method: 'PUT',
      url: `/api/programme/tiers/${diamond.id}`,
      payload: { requirements: [{ kind: 'deals_won', target: 50, window_months: 12 }] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ version: 2, requirements: [{ kind: 'deals_won', target: 50 }] });
    const versions = (await call(admin)({ method: 'GET', url: `/api/programme/tiers/${diamond.id}/versions` })).json().data;
    expect(versions).toHaveLength(2);
  });
});

describe('standings', () => {
  it('tell a partner its tier, every requirement of the next tier with what is missing, and the next evaluation; never another organisation’s', async () => {
    const response = await call(partner)({ method: 'GET', url: '/api/programme/standing' });
    expect(response.statusCode, response.body).toBe(200);
    const standing = response.json().data;
    expect(standing.organisation_id).toBe(partner.user.id);
    expect(standing.tier.name).toEqual(expect.any(String));
    expect(standing.next_evaluation).toMatch(/^\d{4}-(01|04|07|10)-01$/);
    for (const entry of standing.missing) {
      expect(entry.gap).toBe(Math.round((entry.target - entry.current) * 100) / 100);
      expect(entry.sentence).toMatch(/ more /);
    }
    expect(standing.progress.length).toBeGreaterThanOrEqual(standing.missing.length);

    expect((await call(partner)({ method: 'GET', url: `/api/programme/organisations/${fjord.user.id}/standing` })).statusCode).toBe(404);
    expect((await call(manufacturer)({ method: 'GET', url: `/api/programme/organisations/${partner.user.id}/standing` })).statusCode).toBe(200);
    expect((await call(manufacturer)({ method: 'GET', url: '/api/programme/standing' })).statusCode).toBe(403);
  });
});

describe('evaluation, promotion and the rebate rate in force', () => {
  it('suggests a claim’s rebate at the tier in force when it was submitted, before and after a promotion', async () => {
    // The programme asks $1,000 of delivered purchases for Silver (an admin lowers the bar).
    const silver = await tierNamed('Silver');
    const lowered = await call(admin)({
      method: 'PUT',
      url: `/api/programme/tiers/${silver.id}`,
      payload: { requirements: [{ kind: 'delivered_purchases', target: 100_000, window_months: 12 }] },
    });
    expect(lowered.statusCode, lowered.body).toBe(200);

    // First evaluation: nothing delivered yet, Fjord enters the ladder at Registered (2 %).
    const first = await evaluate([fjord.user.id]);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({
      kind: 'quarterly',
      trigger: 'admin',
      results: [{ organisation_id: fjord.user.id, to_tier: { name: 'Registered' } }],
    });
    const before = await claim(fjord);
    expect(await rebate(before.id)).toMatchObject({ suggested_tier: 'Registered', suggested_rate: 2, suggested_rebate_amount: 20 });
    const standing = (await call(fjord)({ method: 'GET', url: '/api/programme/standing' })).json().data;
    expect(standing).toMatchObject({
      tier: { name: 'Registered' },
      next_tier: { name: 'Silver' },
      at_risk: false,
      missing: [{ kind: 'delivered_purchases', current: 0, target: 100_000, gap: 100_000, sentence: '$1,000 more delivered purchases' }],
    });

    // $1,000 delivered: an interim evaluation in the same quarter promotes at once.
    await deliveredOrder(4);
    const second = await evaluate([fjord.user.id]);
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().data).toMatchObject({
      kind: 'interim',
      results: [{ outcome: 'promoted', from_tier: { name: 'Registered' }, to_tier: { name: 'Silver' }, measured: { 'delivered_purchases:12': 100_000 } }],
    });
    const after = await claim(fjord);
    expect(await rebate(after.id)).toMatchObject({ suggested_tier: 'Silver', suggested_rate: 3.5, suggested_rebate_amount: 35 });
    // The earlier claim keeps the rate of its own time.
    expect(await rebate(before.id)).toMatchObject({ suggested_tier: 'Registered', suggested_rate: 2 });

    const history = (await call(fjord)({ method: 'GET', url: `/api/programme/organisations/${fjord.user.id}/history` })).json().data.history;
    expect(history.map((h: { kind: string; to_tier: { name: string } | null }) => [h.kind, h.to_tier?.name])).toEqual([
      ['promoted', 'Silver'],
      ['promoted', 'Registered'],
    ]);
    const runs = (await call(manufacturer)({ method: 'GET', url: '/api/programme/evaluations' })).json().data.evaluations;
    expect(runs[0]).toMatchObject({ id: second.json().data.id, counts: { promoted: 1 } });
    expect((await call(partner)({ method: 'GET', url: '/api/programme/evaluations' })).statusCode).toBe(403);
  });

  it('lets an admin hold a tier with a reason until an end date, and end it', async () => {
    const gold = await tierNamed('Gold');
    const past = await call(admin)({
      method: 'POST',
      url: `/api/programme/organisations/${fjord.user.id}/override`,
      payload: { tier_id: gold.id, reason: 'Launch partner', ends_on: '2020-01-01' },
    });
    expect(past.statusCode).toBe(400);
    const endsOn = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    const held = await call(admin)({
      method: 'POST',
      url: `/api/programme/organisations/${fjord.user.id}/override`,
      payload: { tier_id: gold.id, reason: 'Launch partner', ends_on: endsOn },
    });
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json().data).toMatchObject({
      tier: { name: 'Gold' },
      measured_tier: { name: 'Silver' },
      override: { tier: { name: 'Gold' }, reason: 'Launch partner', ends_on: endsOn },
    });
    expect(
      (
        await call(partner)({
          method: 'POST',
          url: `/api/programme/organisations/${fjord.user.id}/override`,
          payload: { tier_id: gold.id, reason: 'x', ends_on: endsOn },
        })
      ).statusCode,
    ).toBe(403);
    const ended = await call(admin)({ method: 'DELETE', url: `/api/programme/organisations/${fjord.user.id}/override` });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().data).toMatchObject({ tier: { name: 'Silver' }, override: null });
  });
});

describe('scorecards', () => {
  it('hold the quarter’s figures worked out by hand, and a partner sees only its own row and rank band', async () => {
    // Fjord's quarter: one delivered order of 4 × $250.00 (above) and nothing else.
    const detail = (await call(admin)({ method: 'GET', url: `/api/scorecards/${fjord.user.id}` })).json().data;
    expect(detail.history).toHaveLength(1);
    expect(detail.current).toMatchObject({
      revenue_cents: 100_000,
      previous_revenue_cents: 0,
      growth_percent: null,
      deals_registered: 0,
      deals_won: 0,
      win_rate_percent: null,
      leads_received: 0,
      open_tickets: 0,
      overdue_tickets: 0,
      // 40 × min(1, $1,000 / $150,000) = 0.27, + 10 for no overdue tickets: 10.3 (one decimal).
      score: 10.3,
      // 1 + 4 × 10.3 / 100 = 1.41 stars, in halves: 1.5.
      rating: 1.5,
      tier: { name: 'Silver' },
    });
    expect(detail.sparklines.revenue_cents).toEqual([100_000]);

    const all = (await call(manufacturer)({ method: 'GET', url: `/api/scorecards?quarter=${detail.current.quarter}&limit=100` })).json().data;
    const row = all.scorecards.find((s: { organisation_id: string }) => s.organisation_id === fjord.user.id);
    expect(row.rank).toBeGreaterThan(0);
    expect(all.scorecards.map((s: { rank: number }) => s.rank)).toEqual([...all.scorecards.map((s: { rank: number }) => s.rank)].sort((a, b) => a - b));

    const own = (await call(fjord)({ method: 'GET', url: '/api/scorecards' })).json().data;
    expect(own.scorecards.map((s: { organisation_id: string }) => s.organisation_id)).toEqual([fjord.user.id]);
    expect(own.scorecards[0]).toMatchObject({ rank: null, ranked_organisations: null, rank_band: row.rank_band });
    expect((await call(fjord)({ method: 'GET', url: `/api/scorecards/${partner.user.id}` })).statusCode).toBe(404);
    const csv = await call(manufacturer)({ method: 'GET', url: '/api/scorecards/export' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Fjord Networks');
  });
});

describe('contract', () => {
  it('every programme and scorecard route declares its answer’s schema (CSV downloads aside)', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
    };
    const routes = (await documentedRoutes(t.app)).filter((route) => /^\/api\/(programme|scorecards)/.test(route.url) && !route.url.endsWith('/export'));
    expect(routes.length).toBeGreaterThanOrEqual(16);
    const missing = routes
      .filter((route) => {
        const operation = document.paths[route.url.replace(/:(\w+)/g, '{$1}')][route.method.toLowerCase()];
        return !Object.values(operation.responses ?? {}).some((response) => response.content?.['application/json']?.schema);
      })
      .map((route) => `${route.method} ${route.url}`);
    expect(missing).toEqual([]);
  });
});

describe('measures', () => {
  it('measure one organisation exactly as they measure every organisation (a standing reads the one, an evaluation the many)', async () => {
    // Fjord has a delivered order by now; the demo world holds deals, leads and certifications.
    const asOf = new Date();
    let compared = 0;
    for (const [kind, measure] of Object.entries(MEASURES)) {
      const every = await measure(t.db.pool, asOf, 12);
      for (const [organisationId, value] of every) {
        const one = await measure(t.db.pool, asOf, 12, organisationId);
        expect([...one], `${kind} of ${organisationId}`).toEqual([[organisationId, value]]);
        compared++;
      }
      // An organisation without any value of this kind measures nothing, as it is absent from the map of every one.
      const none = await measure(t.db.pool, asOf, 12, '00000000-0000-4000-8000-000000000000');
      expect(none.size, kind).toBe(0);
    }
    expect(compared).toBeGreaterThan(3);
  });
});
