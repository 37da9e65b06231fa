import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOfScope, scopesFor } from '../../domain/access';
import { API_KEY_MESSAGES } from '../../domain/settings/apiKeys';
import { startPortal, type Portal } from '../portal';
import { API_KEY_AUTH_MESSAGES } from '../plugins/apiKeys';
import { demoUserId } from '../seed/identity';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
/** A second API process on the same database: a revocation must reach it at once too. */
let other: Portal;
let admin: Session;
let partner: Session;
let distributor: Session;
let partnerUser: Session;

beforeAll(async () => {
  t = await startTestPortal();
  other = await startPortal(t.portal.services.config, { processes: ['api'], listen: false });
  [admin, partner, distributor, partnerUser] = await Promise.all(
    ['admin', 'partner', 'distributor', 'partner.user'].map((name) => login(t.app, `${name}@partnerhub.test`)),
  );
});
afterAll(async () => {
  await other?.stop();
  await t?.close();
});

type CreatedKey = {
  id: string;
  key: string;
  prefix: string;
  name: string;
  status: string;
  scopes: string[];
  message: string;
  expires_at: string;
  rate_limit_per_minute: number;
  owner_kind: string;
  organisation_id: string | null;
};

async function createKey(name: string, scopes?: string[], extra: Record<string, unknown> = {}) {
  const created = await as(t.app, admin)({ method: 'POST', url: '/api/settings/api-keys', payload: { name, ...(scopes ? { scopes } : {}), ...extra } });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as CreatedKey;
}
async function createOrgKey(session: Session, name: string, scopes: string[], extra: Record<string, unknown> = {}) {
  const created = await as(t.app, session)({ method: 'POST', url: '/api/organisation/api-keys', payload: { name, scopes, ...extra } });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as CreatedKey;
}

const NORTHWIND = demoUserId('partner@partnerhub.test');
const ATLAS = demoUserId('distributor@partnerhub.test');

const leadPayload = (company: string) => ({
  company,
  contact_name: 'Grace Hopper',
  email: `grace@${company.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`,
  country: 'US',
  region: 'Americas',
  source: 'web_form',
});
async function leadCsv(company: string) {
  const lead = leadPayload(company);
  const form = new FormData();
  form.append(
    'file',
    new Blob([`company,contact_name,email,country,region,source\n${lead.company},${lead.contact_name},${lead.email},US,Americas,event\n`], {
      type: 'text/csv',
    }),
    'leads.csv',
  );
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}
/** A deal registration as a CRM sends it: multipart, like the portal's form. */
async function projectForm(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}
const leadCount = async () => (await t.portal.services.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM read.leads')).rows[0].n;

const withKey = (key: string, header: 'bearer' | 'x-api-key' = 'bearer') => (header === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key });
const ZERO = '00000000-0000-4000-8000-000000000000';
const fill = (url: string) => url.replace(/:(\w+)/g, ZERO);
const auditLines = (apiKeyId: string) =>
  t.portal.services.pool
    .query<{ event_type: string; actor_id: string | null; actor_role: string | null; api_key_name: string; summary: string; organisation_id: string | null }>(
      `SELECT event_type, actor_id, actor_role, api_key_name, summary, organisation_id FROM read.audit_log WHERE api_key_id = $1 ORDER BY occurred_at, event_id`,
      [apiKeyId],
    )
    .then((r) => r.rows);

describe('vendor API keys (System Settings)', () => {
  it('an administrator creates a named key that is shown once and listed only by its prefix, with its scopes, expiry and limit', async () => {
    const created = await createKey('  Finance   BI ', ['orders:read']);
    expect(created).toMatchObject({
      name: 'Finance BI',
      status: 'active',
      message: API_KEY_MESSAGES.created,
      scopes: ['orders:read'],
      owner_kind: 'vendor',
      organisation_id: null,
      rate_limit_per_minute: 120,
    });
    expect(created.key).toMatch(/^phk_[\w-]{40}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    // 90 days unless chosen.
    expect(Math.round((Date.parse(created.expires_at) - Date.now()) / 86_400_000)).toBe(90);
    const listed = await as(t.app, admin)({ method: 'GET', url: '/api/settings/api-keys' });
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(created.key);
    expect(listed.json().data.find((k: { id: string }) => k.id === created.id)).toMatchObject({
      name: 'Finance BI',
      prefix: created.prefix,
      status: 'active',
      created_by_name: 'Alex Morgan',
      last_used_at: null,
    });
    // Organisation keys are not the vendor's list.
    expect(listed.json().data.every((k: { owner_kind: string }) => k.owner_kind === 'vendor')).toBe(true);
    // Only the hash is kept: neither the read model nor the event log holds the key.
    const stored = await t.portal.services.pool.query(`SELECT 1 FROM secret.api_keys WHERE key_hash = $1 OR prefix = $1`, [created.key]);
    expect(stored.rowCount).toBe(0);
    const events = await t.portal.services.store.readStream(`apikeys-${created.id}`);
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain(created.key);
  });

  it('a key made without scopes reads what keys always could: the lists across organisations, with either header; each use is audited and shown as last used', async () => {
    const { id, key, scopes } = await createKey('Orders export');
    expect(scopes.sort()).toEqual(['catalogue:read', 'orders:read', 'partners:read', 'projects:read', 'rebates:read', 'tickets:read']);
    for (const header of ['bearer', 'x-api-key'] as const) {
      const orders = await t.app.inject({ method: 'GET', url: '/api/orders?limit=100', headers: withKey(key, header) });
      expect(orders.statusCode, orders.body).toBe(200);
      const rows = orders.json().data.orders as Array<{ organisation_id: string }>;
      expect(new Set(rows.map((o) => o.organisation_id)).size).toBeGreaterThan(1);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/products', headers: withKey(key) })).statusCode).toBe(200);
    const used = () =>
      t.portal.services.pool
        .query<{ summary: string }>(`SELECT summary FROM read.audit_log WHERE event_type = 'ApiKeyUsed.v1' AND record_id = $1 ORDER BY occurred_at`, [id])
        .then((r) => r.rows.map((row) => row.summary));
    await expect
      .poll(used, { timeout: 5_000 })
      .toEqual([
        'API key “Orders export” called GET /api/orders',
        'API key “Orders export” called GET /api/orders',
        'API key “Orders export” called GET /api/products',
      ]);
    const listed = (await as(t.app, admin)({ method: 'GET', url: '/api/settings/api-keys' })).json().data.find((k: { id: string }) => k.id === id);
    expect(listed.last_used_at).not.toBeNull();
  });

  it('is refused, before anything runs, on every route no scope allows (sign-in, settings, administrators’ routes …)', async () => {
    const { key } = await createKey('Read only', ['orders:read']);
    const unscoped = t.app.apiRoutes.filter(
      (route) =>
        !scopesFor('vendor')
          .concat(scopesFor('organisation'))
          .some((scope) =>
            [...routesOfScope(scope, 'vendor'), ...routesOfScope(scope, 'organisation')].includes(`${route.method} ${route.url.slice(4)}` as never),
          ),
    );
    const checked = unscoped.filter((route) => !('public' in route.access && route.method === 'GET'));
    expect(checked.length).toBeGreaterThan(80);
    for (const route of checked) {
      const answer = await t.app.inject({ method: route.method as 'POST', url: fill(route.url), headers: withKey(key), payload: {} });
      expect(answer.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(answer.json()).toMatchObject({ message: API_KEY_AUTH_MESSAGES.notAllowed, error: { code: 'API_KEY_NOT_ALLOWED' } });
    }
    const orders = await t.portal.services.pool.query('SELECT count(*)::int AS n FROM read.orders');
    const created = await t.app.inject({ method: 'POST', url: '/api/orders', headers: withKey(key), payload: { items: [] } });
    expect(created.statusCode).toBe(403);
    expect((await t.portal.services.pool.query('SELECT count(*)::int AS n FROM read.orders')).rows[0].n).toBe(orders.rows[0].n);
  });

  it('a scope names what a key may reach: without it, the request is refused naming the scope it needs', async () => {
    const { key } = await createKey('Orders only', ['orders:read']);
    const projects = await t.app.inject({ method: 'GET', url: '/api/projects', headers: withKey(key) });
    expect(projects.statusCode).toBe(403);
    expect(projects.json()).toMatchObject({ message: API_KEY_AUTH_MESSAGES.scopeMissing(['projects:read']), error: { code: 'API_KEY_SCOPE_MISSING' } });
    const before = await leadCount();
    const lead = await t.app.inject({ method: 'POST', url: '/api/leads', headers: withKey(key), payload: leadPayload('Unscoped Ltd') });
    expect(lead.statusCode, lead.body).toBe(403);
    expect(lead.json()).toMatchObject({ message: API_KEY_AUTH_MESSAGES.scopeMissing(['leads:write']), error: { code: 'API_KEY_SCOPE_MISSING' } });
    const { payload, contentType } = await leadCsv('Unscoped Import Ltd');
    const imported = await t.app.inject({ method: 'POST', url: '/api/leads/import', headers: { ...withKey(key), 'content-type': contentType }, payload });
    expect(imported.statusCode).toBe(403);
    expect(await leadCount()).toBe(before);
  });

  it('a leads:write key creates and imports leads, attributed to the key, and makes no other write', async () => {
    const { id, key, scopes } = await createKey('Web form leads', ['leads:write']);
    expect(scopes).toEqual(['leads:write']);
    const events = await t.portal.services.store.readStream(`apikeys-${id}`);
    expect(events[0].data).toMatchObject({ scopes: ['leads:write'], ownerKind: 'vendor' });
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain(key);

    const company = `Form Lead ${Date.now().toString(36)}`;
    const created = await t.app.inject({ method: 'POST', url: '/api/leads', headers: withKey(key, 'x-api-key'), payload: leadPayload(company) });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ company, status: 'assigned' });
    const { payload, contentType } = await leadCsv(`Imported Lead ${Date.now().toString(36)}`);
    const imported = await t.app.inject({ method: 'POST', url: '/api/leads/import', headers: { ...withKey(key), 'content-type': contentType }, payload });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json().data).toMatchObject({ created: 1, invalid: 0 });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: withKey(key),
      payload: { ...leadPayload('Bad Ltd'), email: 'not-an-address' },
    });
    expect(bad.statusCode).toBe(400);
    // The lead's events name the key as their actor.
    const leadEvents = await t.portal.services.store.readStream(`leads-${created.json().data.id}`);
    expect(leadEvents[0].metadata).toMatchObject({ actorId: id, actorRole: 'integration', apiKeyId: id, apiKeyName: 'Web form leads' });

    const edit = await t.app.inject({ method: 'PUT', url: `/api/leads/${created.json().data.id}`, headers: withKey(key), payload: { phone: '+1 555 0100' } });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().error.code).toBe('API_KEY_NOT_ALLOWED');
  });

  it('refuses scopes that do not exist, or that vendor keys cannot hold', async () => {
    const unknown = await as(t.app, admin)({ method: 'POST', url: '/api/settings/api-keys', payload: { name: 'Too much', scopes: ['everything:write'] } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(API_KEY_MESSAGES.scopeInvalid);
    const foreign = await as(t.app, admin)({ method: 'POST', url: '/api/settings/api-keys', payload: { name: 'Deals', scopes: ['projects:write'] } });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(API_KEY_MESSAGES.scopeNotForOwner(['projects:write']));
  });

  it('never breaks a read: every GET route answers a key with every scope without a server error', async () => {
    const { key } = await createKey('Crawler', scopesFor('vendor'));
    for (const route of t.app.apiRoutes.filter((r) => r.method === 'GET')) {
      const answer = await t.app.inject({ method: 'GET', url: fill(route.url), headers: withKey(key) });
      expect(answer.statusCode, `GET ${route.url}: ${answer.body.slice(0, 200)}`).toBeLessThan(500);
    }
  });

  it('a revoked key is refused at once, in every API process', async () => {
    const { id, key } = await createKey('Short lived', ['orders:read']);
    expect((await other.app!.inject({ method: 'GET', url: '/api/orders', headers: withKey(key) })).statusCode).toBe(200);
    const revoked = await as(t.app, admin)({ method: 'DELETE', url: `/api/settings/api-keys/${id}` });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ status: 'revoked', message: API_KEY_MESSAGES.revoked });
    for (const app of [t.app, other.app!]) {
      for (const header of ['bearer', 'x-api-key'] as const) {
        const answer = await app.inject({ method: 'GET', url: '/api/orders', headers: withKey(key, header) });
        expect(answer.statusCode).toBe(401);
        expect(answer.json()).toMatchObject({ success: false, message: API_KEY_AUTH_MESSAGES.invalid, error: { code: 'INVALID_API_KEY' } });
      }
    }
    expect((await as(t.app, admin)({ method: 'DELETE', url: `/api/settings/api-keys/${id}` })).statusCode).toBe(409);
    expect((await as(t.app, admin)({ method: 'POST', url: `/api/settings/api-keys/${id}/rotate`, payload: { overlap_hours: 0 } })).statusCode).toBe(409);
  });

  it('refuses unknown keys, and vendor key management to anyone but administrators', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/api/orders', headers: withKey('phk_notarealkeynotarealkeynotarealkeynotareal') });
    expect(unknown.statusCode).toBe(401);
    expect((await as(t.app, partner)({ method: 'POST', url: '/api/settings/api-keys', payload: { name: 'Mine' } })).statusCode).toBe(403);
    expect((await as(t.app, partner)({ method: 'GET', url: '/api/settings/api-keys' })).statusCode).toBe(403);
    const blank = await as(t.app, admin)({ method: 'POST', url: '/api/settings/api-keys', payload: { name: '   ' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe(API_KEY_MESSAGES.nameRequired);
  });
});

describe('organisation API keys', () => {
  it("a partner's CRM registers deals and reads its orders with its key; every action is attributed to the key on behalf of the partner", async () => {
    const { id, key, owner_kind, organisation_id } = await createOrgKey(partner, 'Northwind CRM sync', ['projects:write', 'projects:read', 'orders:read']);
    expect({ owner_kind, organisation_id }).toEqual({ owner_kind: 'organisation', organisation_id: NORTHWIND });
    const customer = `Harbour ${Date.now().toString(36)}`;
    const form = await projectForm({ title: 'Harbour campus (CRM)', end_user_customer_name: customer, value: '25000' });
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: { ...withKey(key), 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(registered.statusCode, registered.body).toBe(201);
    expect(registered.json().data).toMatchObject({ title: 'Harbour campus (CRM)', company_name: 'Northwind Networks', registration_status: 'pending' });
    const projectId = registered.json().data.id as string;
    expect((await t.app.inject({ method: 'GET', url: `/api/projects/${projectId}`, headers: withKey(key) })).statusCode).toBe(200);

    const orders = await t.app.inject({ method: 'GET', url: '/api/orders?limit=100', headers: withKey(key) });
    expect(orders.statusCode, orders.body).toBe(200);
    const rows = orders.json().data.orders as Array<{ organisation_id: string }>;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((o) => o.organisation_id))).toEqual(new Set([NORTHWIND]));

    // The registration's events: the partner is the actor, the key is named.
    const events = await t.portal.services.store.readStream(`projects-${projectId}`);
    expect(events[0].metadata).toMatchObject({ actorId: NORTHWIND, actorRole: 'partner', apiKeyId: id, apiKeyName: 'Northwind CRM sync' });
    await expect
      .poll(async () => (await auditLines(id)).map((line) => [line.event_type, line.actor_id, line.api_key_name]), { timeout: 5_000 })
      .toEqual(
        expect.arrayContaining([
          ['ApiKeyUsed.v1', NORTHWIND, 'Northwind CRM sync'],
          [events[0].type, NORTHWIND, 'Northwind CRM sync'],
        ]),
      );
    const audit = await as(t.app, admin)({ method: 'GET', url: `/api/audit?record_id=${projectId}` });
    const line = (audit.json().data?.lines ?? audit.json().data ?? audit.json()) as unknown;
    expect(JSON.stringify(line)).toContain('Northwind CRM sync');
  });

  it("never reaches another organisation's records, nor beyond what the organisation's role allows", async () => {
    const { key } = await createOrgKey(partner, 'Northwind reader', ['orders:read', 'projects:read']);
    const atlasOrder = await t.portal.services.pool.query<{ id: string }>('SELECT id FROM read.orders WHERE organisation_id = $1 LIMIT 1', [ATLAS]);
    expect(atlasOrder.rowCount).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: `/api/orders/${atlasOrder.rows[0].id}`, headers: withKey(key) })).statusCode).toBe(404);
    const atlasProject = await t.portal.services.pool.query<{ id: string }>('SELECT id FROM read.projects WHERE organisation_id <> $1 LIMIT 1', [NORTHWIND]);
    if (atlasProject.rowCount)
      expect((await t.app.inject({ method: 'GET', url: `/api/projects/${atlasProject.rows[0].id}`, headers: withKey(key) })).statusCode).toBe(404);
    // Administrators' routes belong to no scope; a read key writes nothing.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/projects/00000000-0000-4000-8000-000000000000/history', headers: withKey(key) })).json().error.code,
    ).toBe('API_KEY_NOT_ALLOWED');
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/orders/admin/${atlasOrder.rows[0].id}/status`, headers: withKey(key), payload: {} })).statusCode,
    ).toBe(403);
    // The owner's permissions bound the scopes it may give: a distributor without Partners.Read or Leads rights cannot ask for them.
    const beyond = await as(t.app, distributor)({ method: 'POST', url: '/api/organisation/api-keys', payload: { name: 'Too much', scopes: ['leads:write'] } });
    expect(distributor.user.permissions.some((p) => p.startsWith('Leads.'))).toBe(false);
    expect(beyond.statusCode, beyond.body).toBe(403);
    expect(beyond.json().error.code).toBe('SCOPE_BEYOND_ROLE');
    const options = (await as(t.app, distributor)({ method: 'GET', url: '/api/organisation/api-keys/options' })).json().data;
    expect(options.scopes.find((s: { scope: string }) => s.scope === 'orders:read')).toMatchObject({ allowed: true });
    expect(options.scopes.map((s: { scope: string }) => s.scope)).not.toContain('partners:read');
  });

  it("acts with at most the owner's permissions now: a narrowed owner narrows its keys at once", async () => {
    const { key } = await createOrgKey(distributor, 'Atlas ERP orders', ['orders:read']);
    expect((await t.app.inject({ method: 'GET', url: '/api/orders', headers: withKey(key) })).statusCode).toBe(200);
    const before = distributor.user.permissions;
    const me = (await as(t.app, admin)({ method: 'GET', url: `/api/users/${ATLAS}` })).json().data;
    const narrowed = await as(
      t.app,
      admin,
    )({
      method: 'PUT',
      url: `/api/users/${ATLAS}`,
      payload: { full_name: me.full_name, email: me.email, role: me.role, is_active: true, permissions: before.filter((p) => !p.startsWith('Orders.')) },
    });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    try {
      const refused = await t.app.inject({ method: 'GET', url: '/api/orders', headers: withKey(key) });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('INSUFFICIENT_PERMISSIONS');
    } finally {
      const restored = await as(
        t.app,
        admin,
      )({
        method: 'PUT',
        url: `/api/users/${ATLAS}`,
        payload: { full_name: me.full_name, email: me.email, role: me.role, is_active: true, permissions: before },
      });
      expect(restored.statusCode).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/orders', headers: withKey(key) })).statusCode).toBe(200);
  });

  it('are managed only by the organisation’s owner account, each organisation its own', async () => {
    const { id } = await createOrgKey(partner, 'Northwind private', ['orders:read']);
    const atlasList = (await as(t.app, distributor)({ method: 'GET', url: '/api/organisation/api-keys' })).json().data.api_keys as Array<{
      id: string;
      organisation_id: string;
    }>;
    expect(atlasList.every((k) => k.organisation_id === ATLAS)).toBe(true);
    expect(atlasList.map((k) => k.id)).not.toContain(id);
    expect((await as(t.app, distributor)({ method: 'DELETE', url: `/api/organisation/api-keys/${id}` })).statusCode).toBe(404);
    expect((await as(t.app, distributor)({ method: 'POST', url: `/api/organisation/api-keys/${id}/rotate`, payload: { overlap_hours: 0 } })).statusCode).toBe(
      404,
    );
    // Team members and administrators do not manage an organisation's keys; vendor routes do not show them.
    expect((await as(t.app, partnerUser)({ method: 'GET', url: '/api/organisation/api-keys' })).statusCode).toBe(403);
    expect((await as(t.app, admin)({ method: 'POST', url: '/api/organisation/api-keys', payload: { name: 'x', scopes: ['orders:read'] } })).statusCode).toBe(
      403,
    );
    expect((await as(t.app, admin)({ method: 'DELETE', url: `/api/settings/api-keys/${id}` })).statusCode).toBe(404);
    const mine = (await as(t.app, partner)({ method: 'GET', url: '/api/organisation/api-keys' })).json().data.api_keys as Array<{ id: string }>;
    expect(mine.map((k) => k.id)).toContain(id);
    // Administrators oversee every organisation's keys (react-admin's list shape as well).
    const all = await as(t.app, admin)({ method: 'GET', url: '/api/organisation/api-keys?range=[0,99]&sort=["name","ASC"]' });
    expect(all.headers['content-range']).toMatch(/^api_keys 0-\d+\/\d+$/);
    expect(new Set((all.json() as Array<{ organisation_id: string }>).map((k) => k.organisation_id))).toEqual(new Set([NORTHWIND, ATLAS]));
    // An administrator may stop a leaked organisation key, but not rotate it (the new secret is the owner's to see).
    expect((await as(t.app, admin)({ method: 'POST', url: `/api/organisation/api-keys/${id}/rotate`, payload: { overlap_hours: 0 } })).statusCode).toBe(403);
    const stopped = await as(t.app, admin)({ method: 'DELETE', url: `/api/organisation/api-keys/${id}` });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toMatchObject({ status: 'revoked', organisation_id: NORTHWIND });
    const revokedOnly = await as(t.app, partner)({ method: 'GET', url: '/api/organisation/api-keys?status=revoked' });
    expect(revokedOnly.json().data.api_keys.every((k: { status: string }) => k.status === 'revoked')).toBe(true);
  });

  it('expire at the date chosen: refused from then on', async () => {
    const { id, key } = await createOrgKey(partner, 'Short trial', ['orders:read'], { expires_at: new Date(Date.now() + 2_500).toISOString() });
    expect((await t.app.inject({ method: 'GET', url: '/api/orders', headers: withKey(key) })).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const refused = await t.app.inject({ method: 'GET', url: '/api/orders', headers: withKey(key) });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('INVALID_API_KEY');
    const listed = (await as(t.app, partner)({ method: 'GET', url: '/api/organisation/api-keys' }))
      .json()
      .data.api_keys.find((k: { id: string }) => k.id === id);
    expect(listed.status).toBe('expired');
    const rotate = await as(t.app, partner)({ method: 'POST', url: `/api/organisation/api-keys/${id}/rotate`, payload: { overlap_hours: 1 } });
    expect(rotate.statusCode).toBe(409);
    expect(rotate.json().message).toBe(API_KEY_MESSAGES.expired);
    for (const expires_at of [new Date(Date.now() - 60_000).toISOString(), new Date(Date.now() + 366 * 86_400_000).toISOString(), 'tomorrow']) {
      const answer = await as(
        t.app,
        partner,
      )({ method: 'POST', url: '/api/organisation/api-keys', payload: { name: 'Bad expiry', scopes: ['orders:read'], expires_at } });
      expect(answer.statusCode, expires_at).toBe(400);
    }
  });

  it('rotate with an overlap: the old secret works until the overlap ends, then is refused', async () => {
    const { id, key: first, prefix } = await createOrgKey(partner, 'Rotating CRM', ['orders:read']);
    const rotated = await as(t.app, partner)({ method: 'POST', url: `/api/organisation/api-keys/${id}/rotate`, payload: { overlap_hours: 24 } });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const second = rotated.json().key as string;
    expect(rotated.json()).toMatchObject({ message: API_KEY_MESSAGES.rotated, status: 'active' });
    expect(second).not.toBe(first);
    expect(rotated.json().prefix).not.toBe(prefix);
    expect(Math.round((Date.parse(rotated.json().previous_valid_until) - Date.now()) / 3_600_000)).toBe(24);
    for (const secret of [first, second])
      expect((await other.app!.inject({ method: 'GET', url: '/api/orders', headers: withKey(secret) })).statusCode).toBe(200);
    // A second rotation without overlap: the first secret is long gone, the second refused at once.
    const again = await as(t.app, partner)({ method: 'POST', url: `/api/organisation/api-keys/${id}/rotate`, payload: { overlap_hours: 0 } });
    expect(again.statusCode).toBe(200);
    expect(again.json().previous_valid_until).toBeNull();
    const third = again.json().key as string;
    for (const app of [t.app, other.app!]) {
      expect((await app.inject({ method: 'GET', url: '/api/orders', headers: withKey(first) })).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/api/orders', headers: withKey(second) })).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/api/orders', headers: withKey(third) })).statusCode).toBe(200);
    }
    const bad = await as(t.app, partner)({ method: 'POST', url: `/api/organisation/api-keys/${id}/rotate`, payload: { overlap_hours: 500 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(API_KEY_MESSAGES.overlapInvalid);
  });

  it('each key has its own rate limit, counted apart from its owner and other keys', async () => {
    const { key } = await createOrgKey(partner, 'Chatty CRM', ['orders:read'], { rate_limit_per_minute: 3 });
    const { key: calm } = await createOrgKey(partner, 'Calm CRM', ['orders:read']);
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await t.app.inject({ method: 'GET', url: '/api/orders/counts', headers: withKey(key) });
      answers.push(answer.statusCode === 200 ? '200' : `${answer.statusCode} ${answer.body.slice(0, 200)}`);
    }
    expect(
      answers.map((a) => a.slice(0, 3)),
      answers.join('\n'),
    ).toEqual(['200', '200', '200', '429']);
    const limited = await t.app.inject({ method: 'GET', url: '/api/orders/counts', headers: withKey(key) });
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect((await t.app.inject({ method: 'GET', url: '/api/orders/counts', headers: withKey(calm) })).statusCode).toBe(200);
    const owner = await as(t.app, await login(t.app, 'partner@partnerhub.test'))({ method: 'GET', url: '/api/orders/counts' });
    expect(owner.statusCode, owner.body).toBe(200);
  });

  it('OpenAPI documents the key scheme and the scopes each route needs', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    expect(document.paths['/api/projects'].post['x-required-scopes']).toEqual(['projects:write']);
    expect(document.paths['/api/projects'].post.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    expect(document.paths['/api/orders/{id}'].get['x-required-scopes']).toEqual(['orders:read']);
    expect(document.paths['/api/users'].get['x-required-scopes']).toBeUndefined();
  });
});
