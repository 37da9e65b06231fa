import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PERMISSIONS_BY_ROLE, type Role } from '../domain/access';
import type { CommandMetadata } from '../domain/decider';
import { users } from '../domain/identity/users';
import { emailTemplateSetting, NOTIFICATION_SETTINGS_SETTING, settings } from '../domain/settings/settings';
import { runCommand } from '../platform/commands/dispatch';
import { registerUser } from '../commands/users';
import { loadConfig, type Config } from '../platform/config';
import { hashPassword } from '../platform/passwords';
import { startPortal, type Portal } from '../src/portal';
import { buildApp } from '../src/server';
import type { Services } from '../platform/services';
import { createTestDatabase, type TestDatabase } from '../src/testing/database';
import { startWorkers, type Workers } from '.';
import { mailSentKey } from './notifications';
import { createQueue, JOB_ATTEMPTS, QUEUES, reactionJobId } from '../platform/queues';
import { REACTOR_CHECKPOINT, reactorCheckpoints } from './reactor';

// ---- a real SMTP server that keeps what it receives and can refuse recipients ----

interface ReceivedMail {
  to: string[];
  raw: string;
}

const received: ReceivedMail[] = [];
/** Recipient attempts, with the time of each, so retries and their backoff can be checked. */
const attempts = new Map<string, number[]>();
/** Address → how many more attempts to refuse (Infinity: always). */
const refusals = new Map<string, number>();

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onRcptTo(address, _session, callback) {
    const to = address.address.toLowerCase();
    attempts.set(to, [...(attempts.get(to) ?? []), Date.now()]);
    const left = refusals.get(to) ?? 0;
    if (left > 0) {
      refusals.set(to, left - 1);
      return callback(Object.assign(new Error(`Mailbox ${to} is temporarily unavailable`), { responseCode: 450 }));
    }
    callback();
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') });
      callback();
    });
  },
});

const mailsTo = (address: string) => received.filter((mail) => mail.to.includes(address.toLowerCase()));

// ---- the portal: projector from startPortal, workers started and stopped by the tests ----

let db: TestDatabase;
let config: Config;
let portal: Portal;
let services: Services;
let workers: Workers | undefined;
let app: FastifyInstance;
let notificationsQueue: Queue;
const log: string[] = [];

const metadata = (): CommandMetadata => ({ now: new Date().toISOString(), actorId: null, actorRole: null, correlationId: randomUUID(), causationId: null });
const PASSWORD = 'Secret2026!';
let passwordHash: string;

async function register(role: Role, options: { active: boolean; selfRegistered?: boolean; company?: string }) {
  const userId = randomUUID();
  const email = `${role}-${userId.slice(0, 8)}@example.test`;
  await registerUser(
    services,
    {
      type: 'RegisterUser',
      userId,
      email,
      fullName: `Test ${role}`,
      companyName: options.company ?? null,
      role,
      permissions: [...DEFAULT_PERMISSIONS_BY_ROLE[role]],
      parentUserId: null,
      passwordHash,
      isActive: options.active,
      selfRegistered: options.selfRegistered ?? false,
    },
    metadata(),
  );
  return { id: userId, email };
}

async function activate(userId: string) {
  await runCommand(services, users, userId, { type: 'ActivateUser' }, metadata());
  const stream = await services.store.readStream(`users-${userId}`);
  const activated = stream.find((event) => event.type === 'UserActivated.v1')!;
  return reactionJobId(activated.id, 'account-activated', userId);
}

async function notificationsOf(userId: string) {
  const { rows } = await services.pool.query<{ id: string; kind: string; title: string; body: string; link: string | null }>(
    'SELECT id, kind, title, body, link FROM read.notifications WHERE user_id = $1 ORDER BY created_at',
    [userId],
  );
  return rows;
}

/** The reactor has read the whole log and no job is waiting, running or due for a retry. */
async function waitUntilSettled() {
  await vi.waitFor(
    async () => {
      const head = await services.store.headPosition();
      const checkpoint = await reactorCheckpoints.load(services.pool, REACTOR_CHECKPOINT);
      expect(checkpoint).toEqual(head);
      const counts = await notificationsQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
      expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(0);
    },
    { timeout: 10_000, interval: 50 },
  );
}

async function loginAs(email: string) {
  const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: PASSWORD } });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { accessToken: string }).accessToken;
}

let admin: { id: string; email: string };

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  db = await createTestDatabase();
  config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    EVENTSTORE_URL: undefined,
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    REDIS_PREFIX: `test-${randomUUID()}`,
    JOB_BACKOFF_MS: '50',
    PUBLIC_URL: 'https://portal.example.test',
  });
  portal = await startPortal(config, { processes: ['projector'], listen: false });
  services = portal.services;
  workers = await startWorkers(services, { log: (line) => log.push(line) });
  notificationsQueue = createQueue(config, QUEUES.notifications);
  app = await buildApp(services);
  passwordHash = await hashPassword(PASSWORD);
  admin = await register('admin', { active: true });
});

afterAll(async () => {
  await app?.close();
  await workers?.stop();
  await notificationsQueue?.close();
  if (services) {
    let cursor = '0';
    do {
      const [next, keys] = await services.redis.scan(cursor, 'MATCH', `${config.REDIS_PREFIX}*`, 'COUNT', 500);
      if (keys.length) await services.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
  await portal?.stop();
  await db?.drop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('notifications worker', () => {
  let partner: { id: string; email: string };

  it('tells every active admin once, in the portal and by e-mail, when a partner registers themselves', async () => {
    const inactiveAdmin = await register('admin', { active: false });
    partner = await register('partner', { active: false, selfRegistered: true, company: 'Northwind Networks' });

    await vi.waitFor(
      async () => {
        expect(await notificationsOf(admin.id)).toHaveLength(1);
        expect(mailsTo(admin.email)).toHaveLength(1);
      },
      { timeout: 10_000, interval: 50 },
    );
    await waitUntilSettled();

    const [notification] = await notificationsOf(admin.id);
    expect(notification).toMatchObject({ kind: 'partner-registered', title: 'New partner registration', link: '/adminpanel' });
    expect(notification.body).toContain('Northwind Networks');
    expect(notification.body).toContain(partner.email);
    const [mail] = mailsTo(admin.email);
    expect(mail.raw).toContain('Subject: New partner registration');
    expect(mail.raw).toContain('https://portal.example.test/adminpanel');
    expect(mail.raw).toContain('Content-Type: text/html');

    expect(await notificationsOf(inactiveAdmin.id)).toHaveLength(0);
    expect(mailsTo(inactiveAdmin.email)).toHaveLength(0);
    // An admin's own registration (not self-registered) and the partner's pending account notify no one else.
    expect(await notificationsOf(partner.id)).toHaveLength(0);
    expect(mailsTo(partner.email)).toHaveLength(0);
  });

  it('tells a user once, in the portal and by e-mail, that their account is active', async () => {
    await activate(partner.id);

    await vi.waitFor(
      async () => {
        expect(await notificationsOf(partner.id)).toHaveLength(1);
        expect(mailsTo(partner.email)).toHaveLength(1);
      },
      { timeout: 10_000, interval: 50 },
    );
    await waitUntilSettled();
    const [notification] = await notificationsOf(partner.id);
    expect(notification).toMatchObject({ kind: 'account-activated', title: 'Your account is active', body: 'You can now sign in to PartnerHub.', link: '/' });
    expect(mailsTo(partner.email)[0].raw).toContain('Subject: Your account is active');

    const [sent] = await services.store.readStream(`notifications-${notification.id}`);
    expect(sent.metadata).toMatchObject({ actorId: null, actorRole: 'system' });
    expect(sent.metadata.causationId).toEqual(expect.any(String));
  });

  it('sends nothing twice when the log is replayed, with or without the finished job records', async () => {
    await waitUntilSettled();
    const before = { notifications: (await services.pool.query('SELECT id FROM read.notifications ORDER BY id')).rows, mails: received.length };
    expect(before.notifications.length).toBeGreaterThanOrEqual(2);

    // 1. Replay while BullMQ still holds the completed jobs: their ids are refused, nothing runs again.
    const finished = async () => (await notificationsQueue.getCompleted(0, -1)).map((job) => `${job.id}@${job.finishedOn}`).sort();
    const finishedBefore = await finished();
    expect(finishedBefore.length).toBeGreaterThanOrEqual(2);
    await workers!.stop();
    await services.pool.query('DELETE FROM subscription_checkpoints WHERE name = $1', [REACTOR_CHECKPOINT]);
    workers = await startWorkers(services, { log: (line) => log.push(line) });
    await waitUntilSettled();
    expect((await services.pool.query('SELECT id FROM read.notifications ORDER BY id')).rows).toEqual(before.notifications);
    expect(received.length).toBe(before.mails);
    expect(await finished()).toEqual(finishedBefore);

    // 2. Replay after the job records are gone: the jobs run again, but the notification ids and the mail-sent marks make them no-ops.
    const completedBefore = await notificationsQueue.getCompletedCount();
    await workers.stop();
    await notificationsQueue.clean(0, 1000, 'completed');
    expect(await notificationsQueue.getCompletedCount()).toBe(0);
    await services.pool.query('DELETE FROM subscription_checkpoints WHERE name = $1', [REACTOR_CHECKPOINT]);
    workers = await startWorkers(services, { log: (line) => log.push(line) });
    await vi.waitFor(async () => expect(await notificationsQueue.getCompletedCount()).toBe(completedBefore), { timeout: 10_000, interval: 50 });
    await waitUntilSettled();
    const rerun = await notificationsQueue.getCompleted(0, -1);
    expect(rerun.map((job) => job.returnvalue)).toEqual(rerun.map(() => ({ notified: false, mailed: 'already-sent' })));
    expect((await services.pool.query('SELECT id FROM read.notifications ORDER BY id')).rows).toEqual(before.notifications);
    expect(received.length).toBe(before.mails);
  });

  it('retries a refused e-mail with growing delays and delivers it once', async () => {
    const user = await register('distributor', { active: false });
    refusals.set(user.email, 2);
    const jobId = await activate(user.id);

    await vi.waitFor(() => expect(mailsTo(user.email)).toHaveLength(1), { timeout: 10_000, interval: 50 });
    await waitUntilSettled();

    const job = (await notificationsQueue.getJob(jobId))!;
    expect(await job.getState()).toBe('completed');
    expect(job.attemptsMade).toBe(3);
    const times = attempts.get(user.email)!;
    expect(times).toHaveLength(3);
    // Exponential backoff from a 50 ms base: at least 50 ms, then at least 100 ms.
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(50);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(100);
    expect(await notificationsOf(user.id)).toHaveLength(1);
    expect(await services.redis.exists(mailSentKey(config, jobId))).toBe(1);
  });

  it('keeps a job that gave up in the failed set, where admins (and only admins) see it', async () => {
    const user = await register('manufacturer', { active: false });
    refusals.set(user.email, Infinity);
    const jobId = await activate(user.id);

    await vi.waitFor(async () => expect(await (await notificationsQueue.getJob(jobId))?.getState()).toBe('failed'), { timeout: 10_000, interval: 50 });
    const job = (await notificationsQueue.getJob(jobId))!;
    expect(job.attemptsMade).toBe(JOB_ATTEMPTS);
    expect(job.failedReason).toContain('temporarily unavailable');
    expect(attempts.get(user.email)).toHaveLength(JOB_ATTEMPTS);
    expect(mailsTo(user.email)).toHaveLength(0);
    // The in-app notification went out on the first attempt, and only then.
    expect(await notificationsOf(user.id)).toHaveLength(1);
    expect(log.some((line) => line.includes(jobId) && line.includes('gave up'))).toBe(true);

    const adminToken = await loginAs(admin.email);
    const answer = await app.inject({ method: 'GET', url: '/api/jobs/failed', headers: { authorization: `Bearer ${adminToken}` } });
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json() as { success: boolean; data: { jobs: Array<Record<string, unknown>>; total: number } };
    expect(body.success).toBe(true);
    expect(body.data.total).toBe(1);
    expect(body.data.jobs).toEqual([
      expect.objectContaining({
        id: jobId,
        queue: QUEUES.notifications,
        name: 'account-activated',
        attemptsMade: JOB_ATTEMPTS,
        failedReason: expect.stringContaining('temporarily unavailable'),
        timestamp: expect.any(Number),
        data: expect.objectContaining({ userId: user.id, title: 'Your account is active' }),
      }),
    ]);

    const partnerToken = await loginAs(partner.email);
    const refused = await app.inject({ method: 'GET', url: '/api/jobs/failed', headers: { authorization: `Bearer ${partnerToken}` } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ success: false, error: { code: 'INSUFFICIENT_PERMISSIONS' } });
    const anonymous = await app.inject({ method: 'GET', url: '/api/jobs/failed' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('System Settings in the notifications worker', () => {
  const asAdmin = (): CommandMetadata => ({ ...metadata(), actorId: admin.id, actorRole: 'admin' });

  it("writes the e-mail with the event's template", async () => {
    await runCommand(
      services,
      settings,
      emailTemplateSetting('account-activated'),
      {
        type: 'ChangeEmailTemplate',
        kind: 'account-activated',
        subject: '[{{portal}}] {{title}}',
        body: 'Dear {{recipient_name}},\n\n{{message}}\n\n{{link}}',
      },
      asAdmin(),
    );
    const user = await register('partner', { active: false, company: 'Template Ltd' });
    await activate(user.id);
    await vi.waitFor(() => expect(mailsTo(user.email)).toHaveLength(1), { timeout: 10_000, interval: 50 });
    const [mail] = mailsTo(user.email);
    expect(mail.raw).toContain('Subject: [PartnerHub] Your account is active');
    expect(mail.raw).toContain('Dear Test partner,');
    expect(mail.raw).toContain('https://portal.example.test/');
  });

  it('e-mails only the audiences chosen for the event; the in-app notification always goes out', async () => {
    await runCommand(
      services,
      settings,
      NOTIFICATION_SETTINGS_SETTING,
      { type: 'ChangeNotificationSettings', mail: { 'account-activated': ['administrators'] } },
      asAdmin(),
    );
    const user = await register('partner', { active: false, company: 'Quiet Ltd' });
    await activate(user.id);
    await vi.waitFor(async () => expect(await notificationsOf(user.id)).toHaveLength(1), { timeout: 10_000, interval: 50 });
    await waitUntilSettled();
    expect(mailsTo(user.email)).toHaveLength(0);
  });
});
