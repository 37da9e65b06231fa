import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { erasedValue, ERASED_NAME } from '../../domain/personalData';
import { createTestDatabase, type TestDatabase } from '../../src/testing/database';
import type { EventStore, NewEvent } from './eventstore';
import { PostgresEventStore } from './postgres';
import { ProtectedEventStore } from './protected';

const event = (type: string, data: Record<string, unknown>): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: { actorId: null, actorRole: 'admin', correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString() },
});

/** The same checks over each log: the protection must not depend on which store keeps the events. */
function describeProtection(name: string, connectLog: (db: TestDatabase) => Promise<EventStore>) {
  describe(`ProtectedEventStore over ${name}`, () => {
    let db: TestDatabase;
    let log: EventStore;
    let store: ProtectedEventStore;

    beforeAll(async () => {
      db = await createTestDatabase();
      log = await connectLog(db);
      store = new ProtectedEventStore(log, db.pool);
    });
    afterAll(async () => {
      await log?.close();
      await db?.drop();
    });

    const registration = (userId: string, email: string) =>
      event('UserRegistered.v1', {
        userId,
        email,
        fullName: 'Mira Kowalczyk',
        companyName: 'Kowalczyk Networks',
        role: 'support',
        permissions: [],
        parentUserId: null,
        passwordHash: '$argon2id$v=19$secret',
        selfRegistered: false,
        status: 'active',
        previousStatus: null,
      });

    it('keeps secrets out of the log and personal fields encrypted in it, and reads them back decrypted', async () => {
      const userId = randomUUID();
      const email = `mira.${userId.slice(0, 6)}@example.test`;
      const registered = registration(userId, email);
      await store.appendToStream(`users-${userId}`, [registered], { expectedRevision: 'no_stream' });

      const [raw] = await log.readStream(`users-${userId}`);
      expect(JSON.stringify(raw!.data)).not.toContain('argon2');
      expect(JSON.stringify(raw!.data)).not.toContain(email);
      expect(JSON.stringify(raw!.data)).not.toContain('Mira');
      expect(raw!.data).not.toHaveProperty('email');
      expect((raw!.data as { $personal: unknown }).$personal).toEqual({ fields: ['email', 'fullName'], sealed: expect.stringMatching(/^pii:v1:/) });
      // Not personal: the organisation's name stays readable.
      expect((raw!.data as { companyName: string }).companyName).toBe('Kowalczyk Networks');
      const { rows } = await db.pool.query('SELECT value FROM secret.event_secrets WHERE event_id = $1', [registered.id]);
      expect(rows).toEqual([{ value: '$argon2id$v=19$secret' }]);

      const [read] = await store.readStream(`users-${userId}`);
      expect(read!.data).toMatchObject({ email, fullName: 'Mira Kowalczyk', companyName: 'Kowalczyk Networks' });
      expect(read!.data).not.toHaveProperty('passwordHash');
    });

    it('reads an erased person’s fields as erased, new events about them included', async () => {
      const userId = randomUUID();
      const email = `mira.${userId.slice(0, 6)}@example.test`;
      await store.appendToStream(`users-${userId}`, [registration(userId, email)], { expectedRevision: 'no_stream' });
      await store.appendToStream(`users-${userId}`, [event('UserErased.v1', { userId, reason: 'Asked to' })], { expectedRevision: 0n });
      await store.appendToStream(`users-${userId}`, [event('UserDeleted.v1', { userId, email, status: 'deleted', previousStatus: 'active' })], {
        expectedRevision: 1n,
      });

      const read = await store.readStream(`users-${userId}`);
      expect(read[0]!.data).toMatchObject({ email: erasedValue('email', userId), fullName: ERASED_NAME });
      expect(read[2]!.data).toMatchObject({ email: erasedValue('email', userId) });
      expect(JSON.stringify((await log.readStream(`users-${userId}`)).map((e) => e.data))).not.toContain(email);
      const { rows } = await db.pool.query('SELECT key, erased_at FROM secret.person_keys WHERE person_id = $1', [userId]);
      expect(rows[0]).toMatchObject({ key: null, erased_at: expect.any(Date) });
    });

    it('serves events appended before protection existed: their hashes moved out, their plain fields readable until the person is erased', async () => {
      const userId = randomUUID();
      const email = `old.${userId.slice(0, 6)}@example.test`;
      const legacy = registration(userId, email);
      await log.appendToStream(`users-${userId}`, [legacy], { expectedRevision: 'no_stream' });

      const [before] = await store.readStream(`users-${userId}`);
      expect(before!.data).toMatchObject({ email, fullName: 'Mira Kowalczyk' });
      expect(before!.data).not.toHaveProperty('passwordHash');
      const { rows } = await db.pool.query('SELECT value FROM secret.event_secrets WHERE event_id = $1', [legacy.id]);
      expect(rows).toEqual([{ value: '$argon2id$v=19$secret' }]);

      await store.appendToStream(`users-${userId}`, [event('UserErased.v1', { userId, reason: 'Asked to' })], { expectedRevision: 0n });
      const [after] = await store.readStream(`users-${userId}`);
      expect(after!.data).toMatchObject({ email: erasedValue('email', userId), fullName: ERASED_NAME });
    });

    it('decrypts a subscription’s batches (what projections, the reactor and the backup read)', async () => {
      const userId = randomUUID();
      const email = `sub.${userId.slice(0, 6)}@example.test`;
      await store.appendToStream(`users-${userId}`, [registration(userId, email)], { expectedRevision: 'no_stream' });
      const seen: unknown[] = [];
      const subscription = store.subscribeToAll({ batchSize: 500 }, async (events) => {
        seen.push(...events.filter((e) => e.streamId === `users-${userId}`).map((e) => e.data));
      });
      try {
        await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 10_000, interval: 20 });
      } finally {
        await subscription.stop();
      }
      expect(seen).toEqual([expect.objectContaining({ email, fullName: 'Mira Kowalczyk' })]);
    });
  });
}

describeProtection('the Postgres log', async (db) => new PostgresEventStore(db.pool, db.url));

describe.skipIf(!process.env.EVENTSTORE_URL)('EventStoreDB', () => {
  describeProtection('EventStoreDB', async () => {
    const { EsdbEventStore } = await import('./esdb');
    return EsdbEventStore.connect(process.env.EVENTSTORE_URL as string);
  });
});
