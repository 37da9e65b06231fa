import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserEvent } from '../domain/identity/users';
import { createTestDatabase, type TestDatabase } from '../src/testing/database';
import { PostgresEventStore } from '../platform/eventstore/postgres';
import { comparePositions, type NewEvent } from '../platform/eventstore';
import { readModels } from '.';
import { rebuildProjections } from './rebuild';
import { READ_MODELS_CHECKPOINT, ProjectionRunner } from './runner';
import { ProjectionWatcher } from './watcher';
import { CheckpointStore } from './checkpoints';

let db: TestDatabase | undefined;
afterEach(async () => {
  await db?.drop();
  db = undefined;
});

const metadata = () => ({ actorId: null, actorRole: 'system', correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString() });
const event = (e: UserEvent): NewEvent => ({ id: randomUUID(), type: e.type, data: e.data, metadata: metadata() });

/** A user's life: registered, activated, renamed, and (every third) deactivated. */
async function appendUserLives(store: PostgresEventStore, count: number): Promise<number> {
  let statusChanges = 0;
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const userId = randomUUID();
      const email = `user${i}.${userId.slice(0, 6)}@example.test`;
      const events: UserEvent[] = [
        {
          type: 'UserRegistered.v1',
          data: {
            userId,
            email,
            fullName: `User ${i}`,
            companyName: null,
            role: 'support',
            permissions: ['Support.Read'],
            parentUserId: null,
            passwordHash: 'h',
            selfRegistered: false,
            status: 'inactive',
            previousStatus: null,
          },
        },
        { type: 'UserActivated.v1', data: { userId, status: 'active', previousStatus: 'inactive', reason: null } },
      ];
      await store.appendToStream(`users-${userId}`, events.map(event), { expectedRevision: 'no_stream' });
      await store.appendToStream(
        `users-${userId}`,
        [event({ type: 'UserProfileUpdated.v1', data: { userId, email, fullName: `User ${i} (renamed)`, companyName: 'Acme' } })],
        { expectedRevision: 1n },
      );
      statusChanges += 2;
      if (i % 3 === 0) {
        await store.appendToStream(
          `users-${userId}`,
          [event({ type: 'UserDeactivated.v1', data: { userId, status: 'inactive', previousStatus: 'active', reason: 'test' } })],
          { expectedRevision: 2n },
        );
        statusChanges += 1;
      }
    }),
  );
  return statusChanges;
}

async function snapshot(database: TestDatabase) {
  const tables = [
    'read.users ORDER BY id',
    'secret.user_credentials ORDER BY user_id',
    'read.status_history ORDER BY event_id',
    'read.notifications ORDER BY id',
  ];
  const result: Record<string, unknown[]> = {};
  for (const table of tables) result[table] = (await database.pool.query(`SELECT * FROM ${table}`)).rows;
  return result;
}

/** Waits until the projector has every event appended so far (not only those visible yet to subscribers). */
async function waitUntilCaughtUp(database: TestDatabase) {
  const { rows } = await database.pool.query<{ commit: string; prepare: string }>(
    'SELECT transaction_id::text AS commit, global_position AS prepare FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1',
  );
  const head = { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) };
  const checkpoints = new CheckpointStore('read.checkpoints');
  await vi.waitFor(
    async () => {
      const at = await checkpoints.load(database.pool, READ_MODELS_CHECKPOINT);
      expect(at && comparePositions(at, head) >= 0).toBe(true);
    },
    { timeout: 60_000, interval: 50 },
  );
}

describe('projection runner', () => {
  it('a projector killed mid-batch resumes without losing or repeating an event, and matches a fresh rebuild', async () => {
    db = await createTestDatabase();
    const store = new PostgresEventStore(db.pool, db.url);
    const statusChanges = await appendUserLives(store, 150);

    const child = spawn(process.execPath, ['--import', 'tsx', 'src/testing/slow-projector.ts'], {
      env: { ...process.env, DATABASE_URL: db.url },
      stdio: 'pipe',
    });
    const checkpoints = new CheckpointStore('read.checkpoints');
    // Kill it once it has committed some batches and is inside another one.
    await vi.waitFor(
      async () => {
        const at = await checkpoints.load(db!.pool, READ_MODELS_CHECKPOINT);
        const { rows } = await db!.pool.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'`);
        expect(at && rows.length > 0).toBeTruthy();
      },
      { timeout: 30_000, interval: 5 },
    );
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const partial = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM read.status_history');
    expect(Number(partial.rows[0].n)).toBeLessThan(statusChanges);

    const runner = new ProjectionRunner(store, db.pool, readModels);
    runner.start();
    await waitUntilCaughtUp(db);
    await runner.stop();

    const resumed = await snapshot(db);
    expect(resumed['read.status_history ORDER BY event_id']).toHaveLength(statusChanges);
    expect(resumed['read.users ORDER BY id']).toHaveLength(150);

    await rebuildProjections(store, db.pool, readModels);
    expect(await snapshot(db)).toEqual(resumed);
    await store.close();
  }, 90_000);

  it('a projector running during a rebuild resumes from the swapped-in checkpoint', async () => {
    db = await createTestDatabase();
    const store = new PostgresEventStore(db.pool, db.url);
    await appendUserLives(store, 30);
    const runner = new ProjectionRunner(store, db.pool, readModels);
    runner.start();
    await waitUntilCaughtUp(db);
    await rebuildProjections(store, db.pool, readModels);
    await appendUserLives(store, 5);
    await waitUntilCaughtUp(db);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM read.users')).rows[0].n).toBe(35);
    await runner.stop();
    await store.close();
  });

  it('read-your-writes: waitFor resolves once the appended position is projected, and the row is there', async () => {
    db = await createTestDatabase();
    const store = new PostgresEventStore(db.pool, db.url);
    const watcher = new ProjectionWatcher(db.pool, db.url);
    await watcher.start();
    const runner = new ProjectionRunner(store, db.pool, readModels);
    runner.start();
    for (let i = 0; i < 20; i++) {
      const userId = randomUUID();
      const appended = await store.appendToStream(
        `users-${userId}`,
        [
          event({
            type: 'UserRegistered.v1',
            data: {
              userId,
              email: `ryw${i}@example.test`,
              fullName: 'R',
              companyName: null,
              role: 'support',
              permissions: [],
              parentUserId: null,
              passwordHash: 'h',
              selfRegistered: false,
              status: 'active',
              previousStatus: null,
            },
          }),
        ],
        { expectedRevision: 'no_stream' },
      );
      expect(await watcher.waitFor(appended.position)).toBe(true);
      expect((await db.pool.query('SELECT 1 FROM read.users WHERE id = $1', [userId])).rowCount).toBe(1);
    }
    // With no projector, the wait gives up after its bound and says so.
    await runner.stop();
    const userId = randomUUID();
    const late = await store.appendToStream(
      `users-${userId}`,
      [event({ type: 'UserActivated.v1', data: { userId, status: 'active', previousStatus: 'inactive', reason: null } })],
      { expectedRevision: 'no_stream' },
    );
    expect(await watcher.waitFor(late.position, 300)).toBe(false);
    await watcher.stop();
    await store.close();
  });
});
