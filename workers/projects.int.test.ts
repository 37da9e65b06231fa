import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { projects } from '../domain/projects/projects';
import { as, login, type Session } from '../src/testing/api';
import { startTestPortal, type TestPortal } from '../src/testing/portal';
import { startWorkers } from './index';
import { createQueues, closeQueues } from '../platform/queues';
import { sweepDealRegistrations } from './projects';

// Registrations in this file are protected for a few seconds, so both reminders (14 and 3 days before) are due at once.
const VALIDITY_MS = 2500;
const EXTENSION_MS = 2500;
let t: TestPortal;
let admin: Session;
let partner: Session;

beforeAll(async () => {
  t = await startTestPortal({
    env: {
      DEAL_REGISTRATION_VALIDITY_MS: String(VALIDITY_MS),
      DEAL_REGISTRATION_EXTENSION_MS: String(EXTENSION_MS),
      JOB_BACKOFF_MS: '100',
      LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000',
    },
  });
  [admin, partner] = await Promise.all([login(t.app, 'admin@partnerhub.test'), login(t.app, 'partner@partnerhub.test')]);
});
afterAll(() => t?.close());

async function register(title: string) {
  const form = new FormData();
  form.append('title', title);
  form.append('end_user_customer_name', `${title} customer`);
  const request = new Request('http://x/', { method: 'POST', body: form });
  const response = await as(
    t.app,
    partner,
  )({
    method: 'POST',
    url: '/api/projects',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  });
  expect(response.statusCode).toBe(201);
  return response.json().data as { id: string; expires_at: string; submitted_at: string };
}

const eventsOf = async (id: string, type: string) => (await t.portal.services.store.readStream(projects.streamId(id))).filter((e) => e.type === type);
const registrationOf = async (id: string) =>
  (await t.db.pool.query<{ registration_status: string; expires_at: Date }>('SELECT registration_status, expires_at FROM read.projects WHERE id = $1', [id]))
    .rows[0];
const notificationsOf = async (userId: string, kind: string) =>
  (await t.db.pool.query<{ body: string }>('SELECT body FROM read.notifications WHERE user_id = $1 AND kind = $2', [userId, kind])).rows;

describe('registration expiry', () => {
  it('expires at expires_at, not before, once; each reminder goes out once', async () => {
    const project = await register('Expiring deal');
    await vi.waitFor(async () => expect((await registrationOf(project.id)).registration_status).toBe('expired'), { timeout: 20_000, interval: 100 });
    const [expired] = await eventsOf(project.id, 'ProjectRegistrationExpired.v1');
    expect(Date.parse(expired.metadata.occurredAt)).toBeGreaterThanOrEqual(Date.parse(project.expires_at));
    expect(expired.metadata.actorRole).toBe('system');
    const reminders = await eventsOf(project.id, 'ProjectExpiryReminderSent.v1');
    expect(reminders.map((e) => (e.data as { daysBefore: number }).daysBefore).sort()).toEqual([14, 3]);
    await vi.waitFor(
      async () => {
        // The demo projects expire too with this validity: count this project's only.
        expect((await notificationsOf(partner.user.id, 'registration-expired')).filter((n) => n.body.includes('"Expiring deal"'))).toHaveLength(1);
        expect((await notificationsOf(partner.user.id, 'registration-expiring')).filter((n) => n.body.includes('"Expiring deal"'))).toHaveLength(2);
      },
      { timeout: 20_000, interval: 100 },
    );

    // A restarted worker sweeps at start, and the sweep runs again: nothing happens twice.
    const second = await startWorkers(t.portal.services, { log: () => {} });
    const queues = createQueues(t.portal.services.config);
    await sweepDealRegistrations(t.portal.services, queues);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await second.stop();
    await closeQueues(queues);
    expect(await eventsOf(project.id, 'ProjectRegistrationExpired.v1')).toHaveLength(1);
    expect(await eventsOf(project.id, 'ProjectExpiryReminderSent.v1')).toHaveLength(2);
    const expiring = (await notificationsOf(partner.user.id, 'registration-expiring')).filter((n) => n.body.includes('"Expiring deal"'));
    expect(expiring).toHaveLength(2);
    expect((await notificationsOf(partner.user.id, 'registration-expired')).filter((n) => n.body.includes('"Expiring deal"'))).toHaveLength(1);
  });

  it('the sweep expires a registration whose job was lost', async () => {
    const project = await register('Lost job deal');
    // The jobs of this registration disappear from Redis (a restarted Redis, a flushed queue).
    const queues = createQueues(t.portal.services.config);
    const expiryJob = async () =>
      (await queues['project-registrations'].getJobs(['delayed', 'wait'])).find((job) => job?.id?.startsWith(`expire.${project.id}.`));
    await vi.waitFor(async () => expect(await expiryJob()).toBeDefined(), { timeout: 10_000, interval: 50 });
    await (await expiryJob())!.remove();
    await new Promise((resolve) => setTimeout(resolve, VALIDITY_MS + 200));
    expect((await registrationOf(project.id)).registration_status).toBe('pending');
    const swept = await sweepDealRegistrations(t.portal.services, queues);
    await closeQueues(queues);
    expect(swept.ran).toBeGreaterThanOrEqual(1);
    await vi.waitFor(async () => expect((await registrationOf(project.id)).registration_status).toBe('expired'), { timeout: 10_000, interval: 100 });
    // Recorded late, it carries the moment the registration lapsed, not the moment the sweep noticed.
    const [expired] = await eventsOf(project.id, 'ProjectRegistrationExpired.v1');
    const recordedAt = (await t.db.pool.query<{ recorded_at: Date }>('SELECT recorded_at FROM events WHERE event_id = $1', [expired.id])).rows[0].recorded_at;
    expect(recordedAt.getTime() - Date.parse(project.expires_at)).toBeGreaterThan(150);
    expect(Math.abs(Date.parse(expired.metadata.occurredAt) - Date.parse(project.expires_at))).toBeLessThan(150);
  });

  it('an approved extension moves the expiry and the job with it', async () => {
    const project = await register('Extended deal');
    expect(
      (await as(t.app, partner)({ method: 'POST', url: `/api/projects/${project.id}/extension`, payload: { reason: 'Customer needs more time.' } })).statusCode,
    ).toBe(200);
    const approved = await as(t.app, admin)({ method: 'POST', url: `/api/projects/${project.id}/extension/decision`, payload: { decision: 'approved' } });
    const moved = approved.json().data.expires_at;
    expect(Date.parse(moved) - Date.parse(project.expires_at)).toBe(EXTENSION_MS);
    // Past the first expiry: still protected.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(project.expires_at) - Date.now()) + 500));
    expect((await registrationOf(project.id)).registration_status).toBe('pending');
    await vi.waitFor(async () => expect((await registrationOf(project.id)).registration_status).toBe('expired'), { timeout: 20_000, interval: 100 });
    const [expired] = await eventsOf(project.id, 'ProjectRegistrationExpired.v1');
    expect((expired.data as { expiresAt: string }).expiresAt).toBe(moved);
    expect(Date.parse(expired.metadata.occurredAt)).toBeGreaterThanOrEqual(Date.parse(moved));
    await vi.waitFor(async () => expect((await notificationsOf(partner.user.id, 'registration-extension-approved')).length).toBeGreaterThanOrEqual(1), {
      timeout: 10_000,
    });
  });
});
