import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_ROLES, DEFAULT_PERMISSIONS_BY_ROLE } from '../domain/access';
import { registerUser } from '../commands/users';
import { hashPassword } from '../platform/passwords';
import { startTestPortal, type TestPortal } from '../src/testing/portal';
import { startWorkers, type Workers } from '.';
import { createQueue, QUEUES } from '../platform/queues';
import { REACTOR_CHECKPOINT, reactorCheckpoints } from './reactor';

const WINDOW_SECONDS = 4;
const WINDOW_MS = WINDOW_SECONDS * 1000;
/** The digest's own wait past its window's end, plus a margin. */
const DIGEST_DUE_MS = 2_000 + 500;

let t: TestPortal;
let workers: Workers | undefined;
let notificationsQueue: Queue;
let digestsQueue: Queue;
let passwordHash: string;
const log: string[] = [];

beforeAll(async () => {
  // The workers are started by the tests, so a test can stop them and replay the log.
  t = await startTestPortal({
    processes: ['api', 'projector'],
    env: { REGISTRATION_DIGEST_WINDOW_SECONDS: String(WINDOW_SECONDS), JOB_BACKOFF_MS: '50', LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' },
  });
  notificationsQueue = createQueue(t.portal.services.config, QUEUES.notifications);
  digestsQueue = createQueue(t.portal.services.config, QUEUES.registrationDigests);
  workers = await startWorkers(t.portal.services, { log: (line) => log.push(line) });
  passwordHash = await hashPassword('Welcome2026');
});
afterAll(async () => {
  await workers?.stop();
  await Promise.all([notificationsQueue?.close(), digestsQueue?.close()]);
  await t?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The reactor has read the whole log and no notice or digest is waiting, due later, or running. */
async function settled() {
  const { pool, store } = t.portal.services;
  await vi.waitFor(
    async () => {
      expect(await reactorCheckpoints.load(pool, REACTOR_CHECKPOINT)).toEqual(await store.headPosition());
      for (const queue of [digestsQueue, notificationsQueue]) {
        const counts = await queue.getJobCounts('wait', 'active', 'delayed', 'prioritized');
        expect(
          Object.values(counts).reduce((a, b) => a + b, 0),
          queue.name,
        ).toBe(0);
      }
    },
    { timeout: 30_000, interval: 100 },
  );
}

/**
 * Waits until no self-registration happened for a whole window and the last one's digest is sent;
 * with `aligned`, also until a window starts, so what follows falls in one window.
 */
async function quietSpell(options: { aligned?: boolean } = {}) {
  const { rows } = await t.portal.services.pool.query<{ last: Date | null }>('SELECT max(created_at) AS last FROM read.users WHERE self_registered');
  const last = rows[0].last?.getTime() ?? 0;
  let from = Math.max(last + WINDOW_MS, (Math.floor(last / WINDOW_MS) + 1) * WINDOW_MS + DIGEST_DUE_MS, Date.now());
  if (options.aligned) from = Math.ceil(from / WINDOW_MS) * WINDOW_MS + 50;
  await sleep(from - Date.now());
  await settled();
  if (options.aligned) expect(Date.now() - from).toBeLessThan(WINDOW_MS / 4);
  return new Date(Date.now());
}

async function activeAdmins() {
  const { rows } = await t.portal.services.pool.query<{ id: string }>('SELECT id FROM read.users WHERE role = ANY($1) AND is_active ORDER BY id', [
    ADMIN_ROLES,
  ]);
  expect(rows.length).toBeGreaterThan(0);
  return rows.map((row) => row.id);
}

async function registrationNoticesSince(adminId: string, since: Date) {
  const { rows } = await t.portal.services.pool.query<{ id: string; kind: string; title: string; body: string }>(
    `SELECT id, kind, title, body FROM read.notifications
     WHERE user_id = $1 AND created_at >= $2 AND kind IN ('partner-registered', 'partner-registrations') ORDER BY created_at, id`,
    [adminId, since],
  );
  return rows;
}

/** A partner signing up through the registration form, as the route issues it. */
async function selfRegister(email: string) {
  const userId = randomUUID();
  await registerUser(
    t.portal.services,
    {
      type: 'RegisterUser',
      userId,
      email,
      fullName: 'Burst Applicant',
      companyName: null,
      role: 'partner',
      permissions: [...DEFAULT_PERMISSIONS_BY_ROLE.partner],
      parentUserId: null,
      passwordHash,
      isActive: false,
      selfRegistered: true,
    },
    { now: new Date().toISOString(), actorId: null, actorRole: null, correlationId: randomUUID(), causationId: null },
  );
  return userId;
}

describe('admins hear of self-registrations', () => {
  it('a single registration after a quiet spell: one notice at once, naming the applicant, and no digest after', async () => {
    const since = await quietSpell();
    const email = `solo.${randomUUID().slice(0, 8)}@example.test`;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/register/',
      payload: { email, password: 'Welcome2026', full_name: 'Solo Networks', company_name: 'Solo Networks' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const admins = await activeAdmins();
    // At once: well before the window (and its digest) ends.
    await vi.waitFor(
      async () => {
        for (const admin of admins) expect(await registrationNoticesSince(admin, since)).toHaveLength(1);
      },
      { timeout: WINDOW_MS, interval: 50 },
    );
    await sleep(WINDOW_MS + DIGEST_DUE_MS);
    await settled();
    for (const admin of admins) {
      const notices = await registrationNoticesSince(admin, since);
      expect(notices).toEqual([
        expect.objectContaining({
          kind: 'partner-registered',
          title: 'New partner registration',
          body: `Solo Networks (${email}) registered as a partner and is waiting for approval.`,
        }),
      ]);
    }
  });

  it('twenty registrations in a burst: each admin gets the first at once and one digest naming the other nineteen', async () => {
    const since = await quietSpell({ aligned: true });
    const tag = randomUUID().slice(0, 6);
    const emails = Array.from({ length: 20 }, (_, i) => `burst.${tag}.${String(i).padStart(2, '0')}@example.test`);
    await selfRegister(emails[0]);
    await Promise.all(emails.slice(1).map((email) => selfRegister(email)));
    expect(Date.now() - since.getTime()).toBeLessThan(WINDOW_MS - 500);
    await sleep(WINDOW_MS + DIGEST_DUE_MS);
    await settled();

    const admins = await activeAdmins();
    for (const admin of admins) {
      const notices = await registrationNoticesSince(admin, since);
      expect(notices.map((n) => n.title)).toEqual(['New partner registration', '19 new partner registrations']);
      expect(notices[0].body).toContain(emails[0]);
      const digest = notices[1].body;
      expect(digest).toMatch(/^19 new partner registrations: (burst\.[^,]+@example\.test, ){10}and 9 more\. They are waiting for approval\.$/);
      for (const listed of digest.match(/burst\.[^,]+@example\.test/g)!) expect(emails.slice(1)).toContain(listed);
    }
  });

  it('a replay of the log, with the finished jobs forgotten, sends no notice twice', async () => {
    await quietSpell();
    const { pool } = t.portal.services;
    const before = (await pool.query('SELECT id, user_id, title, body FROM read.notifications ORDER BY id')).rows;
    expect(before.filter((n) => String(n.title).endsWith('new partner registrations')).length).toBeGreaterThan(0);

    await workers!.stop();
    await notificationsQueue.clean(0, 100_000, 'completed');
    await digestsQueue.clean(0, 100_000, 'completed');
    await pool.query('DELETE FROM subscription_checkpoints WHERE name = $1', [REACTOR_CHECKPOINT]);
    workers = await startWorkers(t.portal.services, { log: (line) => log.push(line) });
    // Every past window's digest is due at once and runs again.
    await vi.waitFor(async () => expect(await digestsQueue.getCompletedCount()).toBeGreaterThan(1), { timeout: 30_000, interval: 100 });
    await settled();

    expect(await notificationsQueue.getFailedCount()).toBe(0);
    expect(await digestsQueue.getFailedCount()).toBe(0);
    expect((await pool.query('SELECT id, user_id, title, body FROM read.notifications ORDER BY id')).rows).toEqual(before);
  });
});
