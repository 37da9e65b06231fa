import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES } from '../../domain/webhooks/webhooks';
import { demoWebhookId } from '../seed/webhooks';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
let admin: Session;
let partner: Session;
let teamMember: Session;
let distributor: Session;
let manufacturer: Session;

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  [admin, partner, teamMember, distributor, manufacturer] = await Promise.all(
    ['admin@partnerhub.test', 'partner@partnerhub.test', 'partner.user@partnerhub.test', 'distributor@partnerhub.test', 'manufacturer@partnerhub.test'].map(
      (email) => login(t.app, email),
    ),
  );
});
afterAll(() => t?.close());

const call = (session: Session) => as(t.app, session);
const create = (session: Session, payload: Record<string, unknown>) => call(session)({ method: 'POST', url: '/api/webhooks', payload });

describe('registering endpoints', () => {
  it('answers the signing secret once, in whsec_ form; it is in neither the record nor the event log', async () => {
    const created = await create(partner, { url: 'https://erp.example.com/hooks', event_types: ['order.status_changed', 'lead.assigned'], active: true });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(body.data).toMatchObject({
      organisation_id: partner.user.id,
      url: 'https://erp.example.com/hooks',
      event_types: ['order.status_changed', 'lead.assigned'],
      active: true,
      status: 'active',
    });
    const shown = await call(partner)({ method: 'GET', url: `/api/webhooks/${body.id}` });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toContain(body.secret);
    const { rows } = await t.db.pool.query<{ data: unknown }>(`SELECT data FROM events WHERE stream_id = $1`, [`webhooks-${body.id}`]);
    expect(JSON.stringify(rows)).not.toContain(body.secret.slice(6));
    const kept = await t.db.pool.query<{ value: string }>(`SELECT value FROM secret.event_secrets WHERE name = 'secret' AND value = $1`, [body.secret]);
    expect(kept.rows).toHaveLength(1);
  });

  it("makes an admin's endpoint the vendor's, which may take vendor-only types", async () => {
    const created = await create(admin, { url: 'https://crm.example.com/hooks', event_types: ['lead.created', 'partner.application_submitted'] });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ organisation_id: null, active: true });
  });

  it('refuses what the rules refuse, with clear messages', async () => {
    const vendorOnly = await create(partner, { url: 'https://erp.example.com/hooks', event_types: ['lead.created'] });
    expect(vendorOnly.statusCode).toBe(400);
    expect(vendorOnly.json().message).toBe(WEBHOOK_MESSAGES.eventTypeVendorOnly('lead.created'));
    const unknown = await create(partner, { url: 'https://erp.example.com/hooks', event_types: ['order.exploded'] });
    expect(unknown.json().message).toBe(WEBHOOK_MESSAGES.eventTypeUnknown('order.exploded'));
    const plain = await create(partner, { url: 'http://erp.example.com/hooks', event_types: ['order.placed'] });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().message).toBe(WEBHOOK_MESSAGES.httpsRequired);
    // Outside production, http to localhost is allowed (a consumer under development).
    expect((await create(partner, { url: 'http://localhost:4000/hooks', event_types: ['order.placed'] })).statusCode).toBe(201);
    const empty = await create(partner, { url: 'https://erp.example.com/hooks', event_types: [] });
    expect(empty.statusCode).toBe(400);
    expect((await create(partner, { url: 'https://erp.example.com/hooks', event_types: ['order.placed'], secret: 'mine' })).statusCode).toBe(400);
  });

  it('is for admins and organisation owners only', async () => {
    for (const session of [teamMember, manufacturer])
      expect((await create(session, { url: 'https://erp.example.com/hooks', event_types: ['order.placed'] })).statusCode).toBe(403);
    expect((await call(teamMember)({ method: 'GET', url: '/api/webhooks' })).statusCode).toBe(403);
  });
});

describe('reading and changing endpoints', () => {
  it("shows an owner its organisation's endpoints only, and admins all", async () => {
    const mine = (await call(partner)({ method: 'GET', url: '/api/webhooks?limit=100' })).json().data.webhooks as Array<{ organisation_id: string }>;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((w) => w.organisation_id === partner.user.id)).toBe(true);
    const all = (await call(admin)({ method: 'GET', url: '/api/webhooks?limit=100' })).json().data.webhooks as Array<{ organisation_id: string | null }>;
    expect(new Set(all.map((w) => w.organisation_id)).size).toBeGreaterThan(2);
    const other = demoWebhookId('atlas-erp');
    for (const url of [`/api/webhooks/${other}`, `/api/webhooks/${other}/deliveries`])
      expect((await call(partner)({ method: 'GET', url })).statusCode).toBe(404);
    expect((await call(distributor)({ method: 'GET', url: `/api/webhooks/${other}` })).statusCode).toBe(200);
  });

  it('lists the catalogue: every type for admins, the organisation kinds for owners', async () => {
    const forAdmin = (await call(admin)({ method: 'GET', url: '/api/webhooks/catalogue' })).json().data;
    const forPartner = (await call(partner)({ method: 'GET', url: '/api/webhooks/catalogue' })).json().data;
    expect(forAdmin.event_types.map((e: { type: string }) => e.type)).toContain('lead.created');
    expect(forPartner.event_types.map((e: { type: string }) => e.type)).not.toContain('lead.created');
    expect(forPartner.event_types.map((e: { type: string }) => e.type)).toContain('order.status_changed');
  });

  it('pauses, changes and deletes an endpoint; replay and redelivery need it active', async () => {
    const id = (await create(partner, { url: 'https://erp.example.com/a', event_types: ['order.placed'] })).json().id;
    const paused = await call(partner)({
      method: 'PUT',
      url: `/api/webhooks/${id}`,
      payload: { active: false, event_types: ['order.placed', 'order.status_changed'], status: 'active', id },
    });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json()).toMatchObject({ active: false, status: 'inactive', event_types: ['order.placed', 'order.status_changed'] });
    const replay = await call(partner)({ method: 'POST', url: `/api/webhooks/${id}/replay`, payload: { from: '2026-01-01T00:00:00Z' } });
    expect(replay.statusCode).toBe(409);
    await call(partner)({ method: 'PUT', url: `/api/webhooks/${id}`, payload: { active: true } });
    const future = await call(partner)({
      method: 'POST',
      url: `/api/webhooks/${id}/replay`,
      payload: { from: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(future.statusCode).toBe(400);
    expect(future.json().message).toBe(WEBHOOK_MESSAGES.replayFuture);
    expect((await call(partner)({ method: 'POST', url: `/api/webhooks/${id}/replay`, payload: { from: 'yesterday' } })).statusCode).toBe(400);
    const ok = await call(partner)({ method: 'POST', url: `/api/webhooks/${id}/replay`, payload: { from: new Date(Date.now() - 86_400_000).toISOString() } });
    expect(ok.statusCode, ok.body).toBe(200);
    const missing = await call(partner)({ method: 'POST', url: `/api/webhooks/${id}/deliveries/${demoWebhookId('none')}/redeliver` });
    expect(missing.statusCode).toBe(404);
    const deliveries = await call(partner)({ method: 'GET', url: `/api/webhooks/${id}/deliveries?status=failed` });
    expect(deliveries.json().data).toMatchObject({ deliveries: [], total: 0 });
    expect((await call(partner)({ method: 'DELETE', url: `/api/webhooks/${id}` })).statusCode).toBe(200);
    expect((await call(partner)({ method: 'GET', url: `/api/webhooks/${id}` })).statusCode).toBe(404);
  });
});
