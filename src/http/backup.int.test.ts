import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../platform/passwords';
import { demoUserId } from '../seed/identity';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
let admin: Session;

beforeAll(async () => {
  t = await startTestPortal();
  admin = await login(t.app, 'admin@partnerhub.test');
});
afterAll(async () => {
  await t?.close();
});

const backup = async () => {
  const download = await as(t.app, admin)({ method: 'GET', url: '/api/settings/backup/events' });
  expect(download.statusCode).toBe(200);
  return download.body;
};
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('the event log backup', () => {
  it('holds no password hash, API key hash or other secret, while sign-in, password change and API keys keep working', async () => {
    const created = await as(t.app, admin)({ method: 'POST', url: '/api/settings/api-keys', payload: { name: 'Backup probe' } });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json().key as string;
    const partner = await login(t.app, 'partner@partnerhub.test');
    const changed = await as(
      t.app,
      partner,
    )({ method: 'POST', url: '/api/auth/change-password', payload: { currentPassword: 'Demo2026!', newPassword: 'Backup-probe-2026!' } });
    expect(changed.statusCode, changed.body).toBe(200);

    const body = await backup();
    expect(body.split('\n').length).toBeGreaterThan(100);
    expect(count(body, 'argon2')).toBe(0);
    expect(count(body, 'keyHash')).toBe(0);
    expect(count(body, 'passwordHash')).toBe(0);
    expect(body).not.toContain(key);
    expect(body).not.toContain(createHash('sha256').update(key).digest('hex'));
    // Refresh tokens and sessions are never events; nothing token-like is either.
    expect(body).not.toMatch(/"(refreshToken|token|resetCode|secret)"/i);

    await login(t.app, 'partner@partnerhub.test', 'Backup-probe-2026!');
    expect((await t.app.inject({ method: 'GET', url: '/api/orders', headers: { authorization: `Bearer ${key}` } })).statusCode).toBe(200);
  });

  it('serves an event written before hashes left the log without its hash, and its account still signs in', async () => {
    // An event as the log held them before: the hash in the event's data.
    const userId = randomUUID();
    const email = `legacy-${userId.slice(0, 8)}@example.test`;
    const passwordHash = await hashPassword('Legacy-account-2026!');
    await t.db.pool.query(`INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES ($1, 0, $2, 'UserRegistered.v1', $3, $4)`, [
      `users-${userId}`,
      randomUUID(),
      {
        userId,
        email,
        fullName: 'Legacy Account',
        companyName: null,
        role: 'support',
        permissions: [],
        parentUserId: null,
        passwordHash,
        selfRegistered: false,
        status: 'active',
        previousStatus: null,
      },
      { actorId: demoUserId('admin'), actorRole: 'admin', correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString() },
    ]);
    await t.db.pool.query(`SELECT pg_notify('partnerhub_events', '')`);
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'Legacy-account-2026!' } })).statusCode;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    const stream = await t.portal.services.store.readStream(`users-${userId}`);
    expect(JSON.stringify(stream[0]!.data)).not.toContain('argon2');
    expect(count(await backup(), 'argon2')).toBe(0);
  });

  it('the migration moves the hashes already in the Postgres log out of it and renames e-mail claim streams by hash', async () => {
    const userId = randomUUID();
    const eventId = randomUUID();
    const claimId = randomUUID();
    const email = `migrated-${userId.slice(0, 8)}@example.test`;
    const metadata = { actorId: null, actorRole: 'admin', correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString() };
    await t.db.pool.query(
      `INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES ($1, 0, $2, 'UserPasswordChanged.v1', $3, $4), ($5, 0, $6, 'EmailClaimed.v1', $7, $4)`,
      [`users-${userId}`, eventId, { userId, passwordHash: '$argon2id$v=19$migrated' }, metadata, `user-emails-${email}`, claimId, { email, userId }],
    );
    // The migration's data statements, as node-pg-migrate ran them on a database that held such events.
    const sql = await readFile(new URL('../../migrations/1700000019200_secrets-out-of-events.sql', import.meta.url), 'utf8');
    const up = sql.slice(0, sql.indexOf('-- Down Migration'));
    const statements = up
      .split(/;\s*\n/)
      .map((statement) =>
        statement
          .split('\n')
          .filter((line) => !line.startsWith('--'))
          .join('\n')
          .trim(),
      )
      .filter((statement) => /^(INSERT|UPDATE)/.test(statement));
    expect(statements).toHaveLength(4);
    for (const statement of statements) await t.db.pool.query(statement);

    const { rows } = await t.db.pool.query<{ stream_id: string; data: string }>(
      'SELECT stream_id, data::text AS data FROM events WHERE event_id = ANY($1::uuid[]) ORDER BY type',
      [[eventId, claimId]],
    );
    expect(rows[0]!.stream_id).toBe(`user-emails-${createHash('sha256').update(email).digest('hex')}`);
    expect(rows[1]!.data).not.toContain('argon2');
    const stored = await t.db.pool.query('SELECT value FROM secret.event_secrets WHERE event_id = $1', [eventId]);
    expect(stored.rows).toEqual([{ value: '$argon2id$v=19$migrated' }]);
  });
});
