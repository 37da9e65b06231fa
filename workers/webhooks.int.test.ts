import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { activityLineOf } from '../domain/audit/activity';
import { publicEventOf, ORGANISATION_TYPE_NAMES } from '../domain/webhooks/catalogue';
import { as, login, type Session } from '../src/testing/api';
import { startTestPortal, type TestPortal } from '../src/testing/portal';

/**
 * A consumer on a local port verifies every request with the standardwebhooks library, and can be
 * told to answer 500 for a while (an outage) on one of its paths.
 */
interface Received {
  path: string;
  id: string;
  body: { type: string; event_id: string; timestamp: string; data: Record<string, unknown> };
}

// Long enough for the outage test (which recovers after the second attempt) on a busy machine, short enough to see an endpoint disabled.
const RETRY_PERIOD_MS = 8000;
let t: TestPortal;
let admin: Session;
let partner: Session;
let sakura: Session;
let consumer: http.Server;
let base = '';
const secrets = new Map<string, string>();
const received: Received[] = [];
const badSignatures: string[] = [];
const down = new Set<string>();
let outageStartedAt = '';

beforeAll(async () => {
  consumer = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = request.url ?? '';
      const secret = secrets.get(path);
      try {
        if (!secret) throw new Error(`no secret for ${path}`);
        new Webhook(secret).verify(raw, request.headers as Record<string, string>);
      } catch (error) {
        badSignatures.push(`${path}: ${(error as Error).message}`);
        response.writeHead(400).end('bad signature');
        return;
      }
      if (down.has(path) || path === '/broken') {
        response.writeHead(500).end('consumer is down');
        return;
      }
      received.push({ path, id: String(request.headers['webhook-id']), body: JSON.parse(raw) });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => consumer.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(consumer.address() as AddressInfo).port}`;
  t = await startTestPortal({
    env: {
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_RETRY_MAX_DELAY_MS: '800',
      WEBHOOK_RETRY_PERIOD_MS: String(RETRY_PERIOD_MS),
      WEBHOOK_SWEEP_MS: '3000',
      JOB_BACKOFF_MS: '100',
      // Months of demo history: the seeded world the partner endpoint's replay runs over.
      DEMO_HISTORY_DAYS: '90',
    },
  });
  [admin, partner, sakura] = await Promise.all(
    ['admin@partnerhub.test', 'partner@partnerhub.test', 'kenji.mori@sakura-netcom.test'].map((email) => login(t.app, email)),
  );
}, 600_000);
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => consumer?.close(resolve));
});

const call = (session: Session) => as(t.app, session);

async function register(session: Session, path: string, eventTypes: string[]) {
  const response = await call(session)({ method: 'POST', url: '/api/webhooks', payload: { url: `${base}${path}`, event_types: eventTypes, active: true } });
  expect(response.statusCode, response.body).toBe(201);
  const endpoint = response.json();
  expect(endpoint.secret).toMatch(/^whsec_/);
  secrets.set(path, endpoint.secret);
  return endpoint as { id: string; secret: string };
}

let leadCounter = 0;
async function leadFor(organisationId: string) {
  const company = `Webhook Customer ${Date.now().toString(36)}${leadCounter++}`;
  const created = await call(admin)({
    method: 'POST',
    url: '/api/leads',
    payload: {
      company,
      contact_name: 'Grace Hopper',
      email: `grace@${company.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`,
      country: 'IS',
      region: 'EMEA',
      source: 'event',
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data.id as string;
  // The demo routing rules may have offered it to the organisation already.
  if (created.json().data.organisation_id === organisationId) return id;
  const assigned = await call(admin)({
    method: 'POST',
    url: `/api/leads/${id}/assign`,
    payload: { organisation_id: organisationId, reason: 'Known account.' },
  });
  expect(assigned.statusCode, assigned.body).toBe(200);
  return id;
}

/** The statuses the consumer saw for one lead, each message once (a retried message keeps its webhook-id). */
const statusesOf = (path: string, leadId: string) => {
  const seen = new Set<string>();
  return received.filter((r) => r.path === path && r.body.data.lead_id === leadId && !seen.has(r.id) && seen.add(r.id)).map((r) => r.body.data.status);
};

describe('deliveries through a consumer outage', () => {
  it('delivers each event, signed, in order per record, once the consumer recovers; another organisation hears nothing', async () => {
    outageStartedAt = new Date().toISOString();
    const endpoint = await register(partner, '/partner', ['lead.assigned', 'lead.status_changed']);
    await register(sakura, '/sakura', ['lead.assigned', 'lead.status_changed']);
    down.add('/partner');
    const leads = [await leadFor(partner.user.id), await leadFor(partner.user.id)];
    for (const id of leads) {
      expect((await call(partner)({ method: 'POST', url: `/api/leads/${id}/accept` })).statusCode).toBe(200);
      for (const status of ['contacted', 'qualified']) {
        const changed = await call(partner)({ method: 'POST', url: `/api/leads/${id}/status`, payload: { status, reason: null } });
        expect(changed.statusCode, changed.body).toBe(200);
      }
    }
    // While it is down, the first message of each lead is retried and the rest wait behind it.
    await vi.waitFor(
      async () => {
        const log = (await call(partner)({ method: 'GET', url: `/api/webhooks/${endpoint.id}/deliveries?limit=100` })).json().data.deliveries as Array<{
          status: string;
          attempts: number;
          status_code: number | null;
        }>;
        expect(log.some((d) => d.attempts >= 2 && d.status_code === 500 && d.status === 'pending')).toBe(true);
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(received.filter((r) => r.path === '/partner')).toHaveLength(0);
    down.delete('/partner');
    await vi.waitFor(
      () => {
        for (const id of leads) expect(statusesOf('/partner', id)).toEqual(['assigned', 'accepted', 'contacted', 'qualified']);
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(badSignatures).toEqual([]);
    expect(received.filter((r) => r.path === '/partner').every((r) => r.body.data.organisation_id === partner.user.id)).toBe(true);
    // Sakura hears only of its own part (a lead the routing rules offered it before the admin reassigned it).
    expect(received.filter((r) => r.path === '/sakura').every((r) => r.body.data.organisation_id === sakura.user.id && r.body.data.status === 'assigned')).toBe(
      true,
    );

    const log = (await call(partner)({ method: 'GET', url: `/api/webhooks/${endpoint.id}/deliveries?status=delivered&limit=100` })).json().data;
    expect(log.total).toBe(8);
    expect(log.deliveries[0]).toMatchObject({ status: 'delivered', status_code: 200, response_excerpt: 'ok', kind: 'live' });
    expect(log.deliveries.some((d: { attempts: number }) => d.attempts > 1)).toBe(true);
  }, 90_000);

  it('redelivers a logged delivery on request, and replays every matching event since a date from the log', async () => {
    const endpoint = (await call(partner)({ method: 'GET', url: '/api/webhooks' }))
      .json()
      .data.webhooks.find((w: { url: string }) => w.url.endsWith('/partner'));
    const log = (await call(partner)({ method: 'GET', url: `/api/webhooks/${endpoint.id}/deliveries?limit=100` })).json().data.deliveries as Array<{
      id: string;
      event_id: string;
    }>;
    const before = received.filter((r) => r.path === '/partner').length;
    const redeliver = await call(partner)({ method: 'POST', url: `/api/webhooks/${endpoint.id}/deliveries/${log[0].id}/redeliver` });
    expect(redeliver.statusCode, redeliver.body).toBe(200);
    await vi.waitFor(() => expect(received.filter((r) => r.path === '/partner').length).toBe(before + 1), { timeout: 15_000, interval: 100 });
    expect(received.at(-1)!.body.event_id).toBe(log[0].event_id);

    const replay = await call(partner)({ method: 'POST', url: `/api/webhooks/${endpoint.id}/replay`, payload: { from: outageStartedAt } });
    expect(replay.statusCode, replay.body).toBe(200);
    await vi.waitFor(
      async () => {
        const replayed = (await call(partner)({ method: 'GET', url: `/api/webhooks/${endpoint.id}/deliveries?limit=100` }))
          .json()
          .data.deliveries.filter((d: { kind: string; status: string }) => d.kind === 'replay' && d.status === 'delivered');
        expect(replayed.length).toBe(8);
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(received.filter((r) => r.path === '/partner').length).toBe(before + 1 + 8);
    expect(badSignatures).toEqual([]);
  }, 60_000);

  it('gives up on a delivery after the retry period, disables the endpoint and tells its owner', async () => {
    const endpoint = await register(admin, '/broken', ['lead.created']);
    await leadFor(sakura.user.id);
    await vi.waitFor(
      async () => {
        const view = (await call(admin)({ method: 'GET', url: `/api/webhooks/${endpoint.id}` })).json();
        expect(view.status).toBe('disabled');
        expect(view.status_reason).toMatch(/kept failing/);
      },
      { timeout: RETRY_PERIOD_MS + 20_000, interval: 300 },
    );
    const failed = (await call(admin)({ method: 'GET', url: `/api/webhooks/${endpoint.id}/deliveries?status=failed` })).json().data.deliveries;
    expect(failed).toHaveLength(1);
    expect(failed[0].attempts).toBeGreaterThan(2);
    await vi.waitFor(
      async () => {
        const notes = (await call(admin)({ method: 'GET', url: '/api/notifications?limit=50' })).json().data.notifications as Array<{ title: string }>;
        expect(notes.some((n) => n.title === 'A webhook endpoint was disabled')).toBe(true);
      },
      { timeout: 15_000, interval: 200 },
    );
  }, 60_000);
});

describe('a partner endpoint over the seeded world', () => {
  it("replays every event of the partner's organisation since long ago, and nothing of another organisation's or internal", async () => {
    const endpoint = await register(partner, '/world', [...ORGANISATION_TYPE_NAMES]);
    const replay = await call(partner)({
      method: 'POST',
      url: `/api/webhooks/${endpoint.id}/replay`,
      payload: { from: new Date(Date.now() - 360 * 86_400_000).toISOString() },
    });
    expect(replay.statusCode, replay.body).toBe(200);
    // What the log says the organisation should hear of: the catalogue's events that the activity feed's rule gives it.
    const { rows } = await t.db.pool.query<{ event_id: string; stream_id: string; type: string; data: unknown }>(
      'SELECT event_id, stream_id, type, data FROM events ORDER BY global_position',
    );
    const expected = new Set(
      rows
        .filter((r) => {
          const published = publicEventOf({ id: r.event_id, streamId: r.stream_id, type: r.type, data: r.data });
          return published && ORGANISATION_TYPE_NAMES.includes(published.type) && published.organisationId === partner.user.id;
        })
        .map((r) => r.event_id),
    );
    expect(expected.size).toBeGreaterThan(5);
    await vi.waitFor(() => expect(new Set(received.filter((r) => r.path === '/world').map((r) => r.body.event_id)).size).toBe(expected.size), {
      timeout: 60_000,
      interval: 300,
    });
    const world = received.filter((r) => r.path === '/world');
    const byId = new Map(rows.map((r) => [r.event_id, r]));
    for (const message of world) {
      expect(expected.has(message.body.event_id), message.body.type).toBe(true);
      const source = byId.get(message.body.event_id)!;
      if (source.type === 'TicketCommented.v1') expect((source.data as { isInternal: boolean }).isInternal).toBe(false);
      const line = activityLineOf(
        { id: source.event_id, streamId: source.stream_id, type: source.type, data: source.data },
        { projectTitle: () => null, person: () => null },
      );
      if (line) expect(line.organisationId).toBe(partner.user.id);
      const organisation = message.body.data.organisation_id;
      if (organisation !== undefined) expect(organisation).toBe(partner.user.id);
    }
    expect(badSignatures).toEqual([]);
  }, 120_000);
});
