import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_MESSAGES } from '../../domain/settings/apiKeys';
import { startPortal, type Portal } from '../portal';
import { API_KEY_AUTH_MESSAGES } from '../plugins/apiKeys';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
/** A second API process on the same database: a revocation must reach it at once too. */
let other: Portal;
let admin: Session;
let partner: Session;

beforeAll(async () => {
  t = await startTestPortal();
  other = await startPortal(t.portal.services.config, { processes: ['api'], listen: false });
  [admin, partner] = await Promise.all(['admin', 'partner'].map((name) => login(t.app, `${name}@partnerhub.test`)));
}, 120_000);
afterAll(async () => {
  await other?.stop();
  await t?.close();
});

async function createKey(name: string, scopes?: string[]) {
  const created = await as(t.app, admin)({ method: 'POST', url: '/api/settings/api-keys', payload: scopes ? { name, scopes } : { name } });
  expect(created.statusCode, created.body).toBe(201);
  return created.json() as { id: string; key: string; prefix: string; name: string; status: string; scopes: string[]; message: string };
}

/** The writes a scope may allow: a key without the scope is refused there for that reason, not as read-only. */
const SCOPED_WRITES = new Set(['POST /api/leads', 'POST /api/leads/import']);
const leadPayload = (company: string) => ({ company, contact_name: 'Grace Hopper', email: `grace@${company.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`, country: 'US', region: 'Americas', source: 'web_form' });
async function leadCsv(company: string) {
  const lead = leadPayload(company);
  const form = new FormData();
  form.append('file', new Blob([`company,contact_name,email,country,region,source\n${lead.company},${lead.contact_name},${lead.email},US,Americas,event\n`], { type: 'text/csv' }), 'leads.csv');
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}
const leadCount = async () => (await t.portal.services.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM read.leads')).rows[0].n;

const withKey = (key: string, header: 'bearer' | 'x-api-key' = 'bearer') => (header === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key });

describe('API keys', () => {
  it('an administrator creates a named key that is shown once and listed only by its prefix', async () => {
    const created = await createKey('  Finance   BI ');
    expect(created).toMatchObject({ name: 'Finance BI', status: 'active', message: API_KEY_MESSAGES.created });
    expect(created.key).toMatch(/^phk_[\w-]{40}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    const listed = await as(t.app, admin)({ method: 'GET', url: '/api/settings/api-keys' });
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(created.key);
    expect(listed.json().data.find((k: { id: string }) => k.id === created.id)).toMatchObject({ name: 'Finance BI', prefix: created.prefix, status: 'active', created_by_name: 'Alex Morgan' });
    // Only the hash is kept: neither the read model nor the event log holds the key.
    const stored = await t.portal.services.pool.query(`SELECT 1 FROM secret.api_keys WHERE key_hash = $1 OR prefix = $1`, [created.key]);
    expect(stored.rowCount).toBe(0);
    const events = await t.portal.services.store.readStream(`apikeys-${created.id}`);
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain(created.key);
  });

  it('reads GET /api/orders across organisations, with either header', async () => {
    const { key } = await createKey('Orders export');
    for (const header of ['bearer', 'x-api-key'] as const) {
      const orders = await t.app.inject({ method: 'GET', url: '/api/orders?limit=100', headers: withKey(key, header) });
      expect(orders.statusCode, orders.body).toBe(200);
      const rows = orders.json().data.orders as Array<{ organisation_id: string }>;
      expect(new Set(rows.map((o) => o.organisation_id)).size).toBeGreaterThan(1);
    }
    const products = await t.app.inject({ method: 'GET', url: '/api/products', headers: withKey(key) });
    expect(products.statusCode).toBe(200);
    // Each use is an audit entry naming the key, the method and the path.
    const { id } = await t.portal.services.pool.query<{ id: string }>(`SELECT id FROM secret.api_keys WHERE name = 'Orders export'`).then((r) => r.rows[0]);
    const used = () =>
      t.portal.services.pool
        .query<{ summary: string }>(`SELECT summary FROM read.audit_log WHERE event_type = 'ApiKeyUsed.v1' AND record_id = $1 ORDER BY occurred_at`, [id])
        .then((r) => r.rows.map((row) => row.summary));
    // The audit log is a projection: the last use reaches it a moment after the answer.
    await expect.poll(used, { timeout: 5_000 }).toEqual(['API key “Orders export” called GET /api/orders', 'API key “Orders export” called GET /api/orders', 'API key “Orders export” called GET /api/products']);
  });

  it('is refused on every write route, public ones included, before anything runs', async () => {
    const { key } = await createKey('Read only');
    const writes = t.app.apiRoutes.filter((route) => route.method !== 'GET' && !SCOPED_WRITES.has(`${route.method} ${route.url}`));
    expect(writes.length).toBeGreaterThan(30);
    for (const route of writes) {
      const url = route.url.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
      for (const header of ['bearer', 'x-api-key'] as const) {
        const answer = await t.app.inject({ method: route.method as 'POST', url, headers: withKey(key, header), payload: {} });
        expect(answer.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(answer.json().error.code).toBe('API_KEY_READ_ONLY');
        expect(answer.json().message).toBe(API_KEY_AUTH_MESSAGES.readOnly);
      }
    }
    const orders = await t.portal.services.pool.query('SELECT count(*)::int AS n FROM read.orders');
    const created = await t.app.inject({ method: 'POST', url: '/api/orders', headers: withKey(key), payload: { items: [] } });
    expect(created.statusCode).toBe(403);
    expect((await t.portal.services.pool.query('SELECT count(*)::int AS n FROM read.orders')).rows[0].n).toBe(orders.rows[0].n);
  });

  it('a key without the leads:write scope may not create or import leads', async () => {
    const { key, scopes } = await createKey('No scopes');
    expect(scopes).toEqual([]);
    const before = await leadCount();
    const created = await t.app.inject({ method: 'POST', url: '/api/leads', headers: withKey(key), payload: leadPayload('Unscoped Ltd') });
    expect(created.statusCode, created.body).toBe(403);
    expect(created.json()).toMatchObject({ message: API_KEY_AUTH_MESSAGES.scopeMissing('leads:write'), error: { code: 'API_KEY_SCOPE_MISSING' } });
    const { payload, contentType } = await leadCsv('Unscoped Import Ltd');
    const imported = await t.app.inject({ method: 'POST', url: '/api/leads/import', headers: { ...withKey(key), 'content-type': contentType }, payload });
    expect(imported.statusCode).toBe(403);
    expect(imported.json().error.code).toBe('API_KEY_SCOPE_MISSING');
    expect(await leadCount()).toBe(before);
  });

  it('a leads:write key creates and imports leads, is listed with its scope, and makes no other write', async () => {
    const { id, key, scopes } = await createKey('Web form leads', ['leads:write']);
    expect(scopes).toEqual(['leads:write']);
    const listed = (await as(t.app, admin)({ method: 'GET', url: '/api/settings/api-keys' })).json().data;
    expect(listed.find((k: { id: string }) => k.id === id)).toMatchObject({ name: 'Web form leads', scopes: ['leads:write'] });
    // The scope goes into the creation event; the key itself nowhere.
    const events = await t.portal.services.store.readStream(`apikeys-${id}`);
    expect(events[0].data).toMatchObject({ scopes: ['leads:write'] });
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain(key);

    const company = `Form Lead ${Date.now().toString(36)}`;
    const created = await t.app.inject({ method: 'POST', url: '/api/leads', headers: withKey(key, 'x-api-key'), payload: leadPayload(company) });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ company, status: 'assigned' });
    const { payload, contentType } = await leadCsv(`Imported Lead ${Date.now().toString(36)}`);
    const imported = await t.app.inject({ method: 'POST', url: '/api/leads/import', headers: { ...withKey(key), 'content-type': contentType }, payload });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json().data).toMatchObject({ created: 1, invalid: 0 });
    // Bad input is still a 400 with the field named.
    const bad = await t.app.inject({ method: 'POST', url: '/api/leads', headers: withKey(key), payload: { ...leadPayload('Bad Ltd'), email: 'not-an-address' } });
    expect(bad.statusCode).toBe(400);

    const leadId = created.json().data.id;
    const edit = await t.app.inject({ method: 'PUT', url: `/api/leads/${leadId}`, headers: withKey(key), payload: { phone: '+1 555 0100' } });
    expect(edit.statusCode).toBe(403);
    expect(edit.json()).toMatchObject({ message: API_KEY_AUTH_MESSAGES.readOnly, error: { code: 'API_KEY_READ_ONLY' } });
    for (const route of t.app.apiRoutes.filter((r) => r.method !== 'GET' && !SCOPED_WRITES.has(`${r.method} ${r.url}`))) {
      const url = route.url.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
      const answer = await t.app.inject({ method: route.method as 'POST', url, headers: withKey(key), payload: {} });
      expect(answer.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(answer.json().error.code).toBe('API_KEY_READ_ONLY');
    }
  });

  it('refuses scopes that do not exist', async () => {
    const answer = await as(t.app, admin)({ method: 'POST', url: '/api/settings/api-keys', payload: { name: 'Too much', scopes: ['orders:write'] } });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe(API_KEY_MESSAGES.scopeInvalid);
  });

  it('reads lists only: administrators-only reads are refused', async () => {
    const { key } = await createKey('Curious tool');
    for (const url of ['/api/users', '/api/settings/api-keys', '/api/settings/backup/events', '/api/jobs/failed']) {
      const answer = await t.app.inject({ method: 'GET', url, headers: withKey(key) });
      expect(answer.statusCode, url).toBe(403);
    }
  });

  it('never breaks a read: every GET route answers a key without a server error', async () => {
    const { key } = await createKey('Crawler');
    for (const route of t.app.apiRoutes.filter((r) => r.method === 'GET')) {
      const url = route.url.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
      const answer = await t.app.inject({ method: 'GET', url, headers: withKey(key) });
      expect(answer.statusCode, `GET ${route.url}: ${answer.body.slice(0, 200)}`).toBeLessThan(500);
    }
  });

  it('a revoked key is refused at once, in every API process', async () => {
    const { id, key } = await createKey('Short lived');
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
    const again = await as(t.app, admin)({ method: 'DELETE', url: `/api/settings/api-keys/${id}` });
    expect(again.statusCode).toBe(409);
  });

  it('refuses unknown keys, and key management to anyone but administrators', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/api/orders', headers: withKey('phk_notarealkeynotarealkeynotarealkeynotareal') });
    expect(unknown.statusCode).toBe(401);
    expect((await as(t.app, partner)({ method: 'POST', url: '/api/settings/api-keys', payload: { name: 'Mine' } })).statusCode).toBe(403);
    expect((await as(t.app, partner)({ method: 'GET', url: '/api/settings/api-keys' })).statusCode).toBe(403);
    const blank = await as(t.app, admin)({ method: 'POST', url: '/api/settings/api-keys', payload: { name: '   ' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe(API_KEY_MESSAGES.nameRequired);
  });
});
