import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserId } from '../seed/identity';
import { as, login, type Session } from '../testing/api';
import { completeQuestionnaire } from '../testing/questionnaire';
import { startTestPortal, type TestPortal } from '../testing/portal';
import { AS_OF_MESSAGE } from './versions';

/**
 * Every record type with a decider, read as of several moments: before it existed (404), just before a
 * change (the old values), after it (the new ones); its versions name who changed what; and a caller
 * of another organisation gets 404 at any time, as for the record today.
 */

let t: TestPortal;
let admin: Session;
let partner: Session;
let support: Session;

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  [admin, partner, support] = await Promise.all(['admin', 'partner', 'support'].map((name) => login(t.app, `${name}@partnerhub.test`)));
});
afterAll(() => t?.close());

const call = (session: Session | undefined) => (options: InjectOptions) => as(t.app, session)(options);
const get = (session: Session, url: string) => call(session)({ method: 'GET', url });
const asOf = (session: Session, url: string, time: string) => get(session, `${url}?asOf=${encodeURIComponent(time)}`);
const now = () => new Date().toISOString();
/** Events are timed to the millisecond: a pause keeps "before" and "after" a change apart. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
const LONG_AGO = '2001-01-01T00:00:00Z';
const partnerOrganisation = demoUserId('partner@partnerhub.test');

interface Version {
  revision: number;
  occurred_at: string;
  actor_id: string | null;
  actor_name: string | null;
  actor_role: string | null;
  event_type: string;
  summary: string;
  changes: Array<{ field: string; before: unknown; after: unknown }>;
}

function ok(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/**
 * Reads the record just before `change` and just after it, and long before it existed; checks that the
 * newest version is the change, by `actor`, with `field` before → after.
 */
async function travel(options: {
  session: Session;
  url: string;
  field: string;
  change: () => Promise<LightMyRequestResponse>;
  actor: { session: Session; role: string };
}) {
  const { session, url, field } = options;
  const before = ok(await asOf(session, url, now()));
  const beforeChange = now();
  await pause();
  const changed = await options.change();
  expect(changed.statusCode, changed.body).toBeLessThan(300);
  await pause();
  const afterChange = now();

  const then = ok(await asOf(session, url, beforeChange));
  expect(then[field]).toEqual(before[field]);
  expect(then.data[field]).toEqual(before[field]);
  expect(Date.parse(then.version_time)).toBeLessThanOrEqual(Date.parse(beforeChange));
  const later = ok(await asOf(session, url, afterChange));
  expect(later[field]).not.toEqual(before[field]);
  expect(later.version).toBeGreaterThan(then.version);

  const early = await asOf(session, url, LONG_AGO);
  expect(early.statusCode).toBe(404);
  expect(early.json().message).toMatch(/did not exist yet on 2001-01-01T00:00:00.000Z: it was created on /);

  const versions = ok(await get(session, `${url}/versions`)).data as Version[];
  expect(versions.map((v) => v.revision)).toEqual(versions.map((_, index) => index));
  const last = versions.at(-1)!;
  expect(Date.parse(last.occurred_at)).toBeGreaterThan(Date.parse(beforeChange));
  expect(last).toMatchObject({ actor_id: options.actor.session.user.id, actor_role: options.actor.role, actor_name: expect.any(String) });
  expect(last.changes).toContainEqual({ field, before: before[field], after: later[field] });
  expect(last.summary.length).toBeGreaterThan(0);
  // The first version created the record: every field it had came from nothing.
  expect(versions[0].changes.every((change) => change.before === null)).toBe(true);
  return { before, later, versions };
}

/** A record of an organisation other than the demo partner's, from a list answered to an administrator. */
async function otherOrganisationsRecord(listUrl: string): Promise<{ id: string }> {
  const rows = ok(await get(admin, `${listUrl}?range=[0,99]`)) as Array<{ id: string; organisation_id: string }>;
  const other = rows.find((row) => row.organisation_id && row.organisation_id !== partnerOrganisation);
  expect(other, `a record of another organisation in ${listUrl}`).toBeDefined();
  return other!;
}

async function refusedToOtherOrganisation(listUrl: string, recordUrl: (id: string) => string) {
  const other = await otherOrganisationsRecord(listUrl);
  for (const time of [LONG_AGO, now()]) expect((await asOf(partner, recordUrl(other.id), time)).statusCode).toBe(404);
  expect((await get(partner, `${recordUrl(other.id)}/versions`)).statusCode).toBe(404);
}

describe('a record as of any moment', () => {
  it('users: the administrator reads an account as it was; no password hash ever appears', async () => {
    const users = ok(await get(admin, '/api/users?range=[0,99]')) as Array<{ id: string; role: string; full_name: string; email: string }>;
    const user = users.find((u) => u.role === 'manufacturer')!;
    const url = `/api/users/${user.id}`;
    const { versions } = await travel({
      session: admin,
      url,
      field: 'full_name',
      actor: { session: admin, role: 'admin' },
      change: () => call(admin)({ method: 'PUT', url, payload: { full_name: `${user.full_name} Renamed`, email: user.email, is_active: true } }),
    });
    expect(JSON.stringify(versions)).not.toMatch(/password_?hash|argon2/i);
    expect(JSON.stringify(ok(await asOf(admin, url, now())))).not.toMatch(/password_?hash|argon2/i);
    expect((await asOf(partner, url, now())).statusCode).toBe(403);
  });

  it('team members: the owner reads a member as it was; another team’s member is not found at any time', async () => {
    const team = '/api/partner/management/sub-users';
    const createdAt = now();
    await pause();
    const created = await call(partner)({
      method: 'POST',
      url: team,
      payload: { full_name: 'Nadia Berg', email: `nadia.${Date.now()}@northwind.test`, password: 'Secret123', permissions: ['projects_read'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const member = created.json();
    const url = `${team}/${member.id}`;
    expect((await asOf(partner, url, createdAt)).json().message).toMatch(/did not exist yet/);
    await travel({
      session: partner,
      url,
      field: 'full_name',
      actor: { session: partner, role: 'partner' },
      change: () =>
        call(partner)({ method: 'PUT', url, payload: { full_name: 'Nadia Berg-Holm', email: member.email, permissions: ['projects_read'], is_active: true } }),
    });
    const distributorsMember = demoUserId('distributor.user@partnerhub.test');
    expect((await asOf(partner, `${team}/${distributorsMember}`, now())).statusCode).toBe(404);
    expect((await get(partner, `${team}/${distributorsMember}/versions`)).statusCode).toBe(404);
  });

  it('partners: an application as it was before and after its approval', async () => {
    const email = `applicant.${Date.now()}@example.test`;
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/user/register/',
      payload: { email, password: 'Welcome2026', full_name: 'Fjord Networks', company_name: 'Fjord Networks' },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const { data, onboardingToken } = registered.json();
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/api/partner/onboarding/questionnaire',
      headers: { authorization: `Bearer ${onboardingToken}` },
      payload: completeQuestionnaire({ id: data.id, email, company: 'Fjord Networks' }),
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const url = `/api/partner/partners/${data.id}`;
    const { before, later } = await travel({
      session: admin,
      url,
      field: 'status',
      actor: { session: admin, role: 'admin' },
      change: () =>
        call(admin)({
          method: 'PATCH',
          url,
          payload: { status: 'approved', category: 'Helix Authorized Distributor', permissions: ['Projects.Read', 'Orders.Track'] },
        }),
    });
    expect([before.status, later.status]).toEqual(['pending', 'approved']);
    expect(later).toMatchObject({ city: 'Oslo', category: 'Helix Authorized Distributor' });
    // Another organisation sees an approved partner in the directory today, but not its application's past.
    expect((await asOf(partner, url, now())).statusCode).toBe(403);
    expect((await get(partner, `${url}/versions`)).statusCode).toBe(403);
  });

  it('products: the catalogue entry as it was before an edit', async () => {
    const products = ok(await get(admin, '/api/products?range=[0,99]')) as Array<{
      id: string;
      name: string;
      category: string;
      moq: number;
      stock_quantity: number;
      description: string;
    }>;
    const product = products[0];
    const url = `/api/products/${product.id}`;
    const form = new FormData();
    for (const [name, value] of Object.entries({
      name: `${product.name} II`,
      price: '123.45',
      category: product.category,
      stock_quantity: String(product.stock_quantity),
      moq: String(product.moq),
      description: product.description,
    }))
      form.append(name, value);
    const request = new Request('http://x/', { method: 'POST', body: form });
    const body = { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
    const { later } = await travel({
      session: partner,
      url,
      field: 'name',
      actor: { session: admin, role: 'admin' },
      change: () => call(admin)({ method: 'PUT', url, ...body }),
    });
    expect(later.price).toBe(123.45);
    expect(JSON.stringify(later)).not.toMatch(/reservations/);
  });

  it('orders: an order as it was before its approval; another organisation’s order is not found at any time', async () => {
    const orders = ok(await get(admin, `/api/orders?filter=${encodeURIComponent(JSON.stringify({ status: 'pending' }))}&range=[0,99]`)) as Array<{
      id: string;
      organisation_id: string;
    }>;
    const order = orders.find((o) => o.organisation_id === partnerOrganisation)!;
    expect(order).toBeDefined();
    const url = `/api/orders/${order.id}`;
    const { before, later } = await travel({
      session: partner,
      url,
      field: 'status',
      actor: { session: admin, role: 'admin' },
      change: () => call(admin)({ method: 'PUT', url: `/api/orders/admin/${order.id}/status`, payload: { status: 'approved' } }),
    });
    expect([before.status, later.status]).toEqual(['pending', 'approved']);
    expect(later.items.length).toBe(later.item_count);
    await refusedToOtherOrganisation('/api/orders', (id) => `/api/orders/${id}`);
  });

  it('projects: a project folded to three moments of its life', async () => {
    const projects = ok(await get(partner, '/api/projects?range=[0,99]')) as Array<{ id: string }>;
    const project = ok(await get(partner, `/api/projects/${projects[0].id}`));
    const url = `/api/projects/${project.id}`;
    const first = await travel({
      session: partner,
      url,
      field: 'title',
      actor: { session: partner, role: 'partner' },
      change: () => call(partner)({ method: 'PUT', url, payload: { ...project, title: 'Renamed once' } }),
    });
    const second = await travel({
      session: admin,
      url,
      field: 'title',
      actor: { session: admin, role: 'admin' },
      change: () => call(admin)({ method: 'PUT', url, payload: { ...project, title: 'Renamed twice' } }),
    });
    expect([first.before.title, first.later.title, second.later.title]).toEqual([project.title, 'Renamed once', 'Renamed twice']);
    expect(second.versions.at(-1)!.summary).toMatch(/title/);
    await refusedToOtherOrganisation('/api/projects', (id) => `/api/projects/${id}`);
  });

  it('rebates: a claim as it was before its review', async () => {
    const rebates = ok(await get(admin, `/api/rebates/admin/all?filter=${encodeURIComponent(JSON.stringify({ status: 'pending' }))}&range=[0,99]`)) as Array<{
      id: string;
      organisation_id: string;
    }>;
    const rebate = rebates.find((r) => r.organisation_id === partnerOrganisation) ?? rebates[0];
    const url = `/api/rebates/${rebate.id}`;
    const { before, later } = await travel({
      session: admin,
      url,
      field: 'status',
      actor: { session: admin, role: 'admin' },
      change: () => call(admin)({ method: 'PATCH', url: `/api/rebates/admin/${rebate.id}/status`, payload: { status: 'processing' } }),
    });
    expect([before.status, later.status]).toEqual(['pending', 'processing']);
    expect(later).toMatchObject({ product_name: expect.any(String), invoice_number: expect.any(String), purchase_amount: expect.any(Number) });
    await refusedToOtherOrganisation('/api/rebates', (id) => `/api/rebates/${id}`);
  });

  it('tickets: a ticket as it was before support renamed it; comments are not part of its versions', async () => {
    const tickets = ok(await get(admin, '/api/tickets?range=[0,99]')) as Array<{ id: string; organisation_id: string; status: string }>;
    const ticket = tickets.find((row) => row.organisation_id === partnerOrganisation && !['Closed', 'Resolved'].includes(row.status))!;
    const url = `/api/tickets/${ticket.id}`;
    const { versions } = await travel({
      session: partner,
      url,
      field: 'title',
      actor: { session: support, role: 'support' },
      change: () => call(support)({ method: 'PUT', url, payload: { title: 'Renamed by support' } }),
    });
    expect(JSON.stringify(versions)).not.toMatch(/"comment"/);
    await refusedToOtherOrganisation('/api/tickets', (id) => `/api/tickets/${id}`);
  });
});

describe('asOf is validated', () => {
  it.each(['yesterday', '2026-13-01T00:00:00Z', '2026-10-01', '2026-10-01T09:00:00'])('%s answers 400 with a clear message', async (value) => {
    const projects = ok(await get(partner, '/api/projects?range=[0,0]')) as Array<{ id: string }>;
    const response = await asOf(partner, `/api/projects/${projects[0].id}`, value);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(AS_OF_MESSAGE);
  });
});

describe('what a partner reads in a past version', () => {
  it('people by name and no internal ids or stored file names; administrators read the ids', async () => {
    const projects = ok(await get(partner, '/api/projects?range=[0,99]')) as Array<{ id: string }>;
    const orders = ok(await get(partner, '/api/orders?range=[0,99]')) as Array<{ id: string }>;
    const tickets = ok(await get(partner, '/api/tickets?range=[0,99]')) as Array<{ id: string }>;
    for (const url of [`/api/projects/${projects[0].id}`, `/api/orders/${orders[0].id}`, `/api/tickets/${tickets[0].id}`]) {
      const seen = ok(await asOf(partner, url, now())).data as Record<string, unknown>;
      const internal = Object.keys(seen).filter((field) => field === 'id' || field.endsWith('_id'));
      expect(internal, url).toEqual([]);
      expect(JSON.stringify(seen), url).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
      for (const version of ok(await get(partner, `${url}/versions`)).data as Version[]) {
        expect(
          version.changes.filter((change) => change.field === 'id' || change.field.endsWith('_id')),
          url,
        ).toEqual([]);
        expect(JSON.stringify(version.changes), url).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
      }
      const asAdmin = ok(await asOf(admin, url, now())).data as Record<string, unknown>;
      expect(asAdmin.organisation_id, url).toBe(partnerOrganisation);
    }
    const order = ok(await asOf(partner, `/api/orders/${orders[0].id}`, now())).data as { placed_by: string };
    expect(order.placed_by).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
  });
});
