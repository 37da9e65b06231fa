import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../src/testing/database';
import {
  ConcurrencyError,
  comparePositions,
  type EventStore,
  type ExpectedRevision,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './eventstore';
import { PostgresEventStore, appendStatement, type AppendRow } from './postgres';

interface Harness {
  store: EventStore;
  teardown(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const until = (assertion: () => void, timeout = 10_000) => vi.waitFor(assertion, { timeout, interval: 5 });
/** A per-test prefix: every store is shared by the tests of one suite, so each test looks only at its own streams. */
const uniquePrefix = () => `t${randomUUID().slice(0, 8)}-`;

function newEvent(type = 'ThingHappened.v1', data: Record<string, unknown> = {}): NewEvent {
  return {
    id: randomUUID(),
    type,
    data: { ...data, note: 'naïve ✓ "quoted"' },
    metadata: {
      actorId: randomUUID(),
      actorRole: 'partner_admin',
      correlationId: randomUUID(),
      causationId: null,
      occurredAt: new Date().toISOString(),
    },
  };
}

/** A subscriber that keeps the events of streams starting with `prefix`, in delivery order. */
function collect(store: EventStore, options: SubscribeOptions, prefix: string) {
  const events: RecordedEvent[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let largestBatch = 0;
  const subscription = store.subscribeToAll(options, async (batch) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    largestBatch = Math.max(largestBatch, batch.length);
    await Promise.resolve();
    events.push(...batch.filter((e) => e.streamId.startsWith(prefix)));
    inFlight -= 1;
  });
  return {
    events,
    subscription,
    ids: () => events.map((e) => e.id),
    stats: () => ({ maxInFlight, largestBatch }),
  };
}

function expectStrictlyIncreasing(positions: GlobalPosition[], message?: string) {
  for (let i = 1; i < positions.length; i++) {
    expect(comparePositions(positions[i - 1], positions[i]), `${message ?? ''} at index ${i}`).toBe(-1);
  }
}

/** Mulberry32: a seeded generator, so a failing randomized run can be replayed with EVENTSTORE_TEST_SEED. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function describeEventStoreContract(name: string, factory: () => Promise<Harness>) {
  describe(name, () => {
    let harness: Harness | undefined;
    const subscriptions: Subscription[] = [];
    const store = () => {
      if (!harness) throw new Error('the store did not start');
      return harness.store;
    };
    const track = <T extends { subscription: Subscription }>(collector: T): T => {
      subscriptions.push(collector.subscription);
      return collector;
    };

    beforeAll(async () => {
      harness = await factory();
    });
    afterAll(async () => {
      await Promise.all(subscriptions.map((s) => s.stop()));
      await harness?.teardown();
    });

    describe('append and read', () => {
      it('reads back what was appended, in revision order, with types, data and metadata', async () => {
        const stream = `${uniquePrefix()}order`;
        const first = [newEvent('OrderPlaced.v1', { n: 0, lines: [{ sku: 'SW-48', qty: 2 }] }), newEvent('OrderSubmitted.v1', { n: 1 })];
        const second = [
          newEvent('OrderStatusChanged.v1', { n: 2, to: 'approved' }),
          newEvent('OrderStatusChanged.v1', { n: 3, to: 'shipped' }),
          newEvent('OrderClosed.v1', { n: 4 }),
        ];

        const r1 = await store().appendToStream(stream, first, { expectedRevision: 'no_stream' });
        expect(r1.nextExpectedRevision).toBe(1n);
        const r2 = await store().appendToStream(stream, second, { expectedRevision: 1n });
        expect(r2.nextExpectedRevision).toBe(4n);
        expect(comparePositions(r1.position, r2.position)).toBe(-1);

        const read = await store().readStream(stream);
        const appended = [...first, ...second];
        expect(read).toHaveLength(appended.length);
        read.forEach((event, i) => {
          expect(event).toMatchObject({
            id: appended[i].id,
            type: appended[i].type,
            data: appended[i].data,
            metadata: appended[i].metadata,
            streamId: stream,
            revision: BigInt(i),
          });
          expect(event.recordedAt).toBeInstanceOf(Date);
        });
        expectStrictlyIncreasing(read.map((e) => e.position));
      });

      it('reads a stream that does not exist as empty', async () => {
        expect(await store().readStream(`${uniquePrefix()}missing`)).toEqual([]);
      });

      it("'any' appends to a new stream and to an existing one", async () => {
        const stream = `${uniquePrefix()}any`;
        expect((await store().appendToStream(stream, [newEvent()], { expectedRevision: 'any' })).nextExpectedRevision).toBe(0n);
        expect((await store().appendToStream(stream, [newEvent(), newEvent()], { expectedRevision: 'any' })).nextExpectedRevision).toBe(2n);
        expect((await store().readStream(stream)).map((e) => e.revision)).toEqual([0n, 1n, 2n]);
      });
    });

    describe('expected revision', () => {
      it("rejects 'no_stream' on an existing stream", async () => {
        const stream = `${uniquePrefix()}exists`;
        await store().appendToStream(stream, [newEvent()], { expectedRevision: 'no_stream' });
        await expect(store().appendToStream(stream, [newEvent()], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(ConcurrencyError);
        expect(await store().readStream(stream)).toHaveLength(1);
      });

      it('rejects a stale revision, and a revision on a stream that does not exist', async () => {
        const stream = `${uniquePrefix()}stale`;
        await store().appendToStream(stream, [newEvent(), newEvent()], { expectedRevision: 'no_stream' });
        const stale = store().appendToStream(stream, [newEvent()], { expectedRevision: 0n });
        await expect(stale).rejects.toBeInstanceOf(ConcurrencyError);
        await expect(stale).rejects.toMatchObject({ code: 'CONCURRENCY_CONFLICT', streamId: stream, expected: 0n, actual: 1n });
        await expect(store().appendToStream(stream, [newEvent()], { expectedRevision: 5n })).rejects.toBeInstanceOf(ConcurrencyError);
        await expect(store().appendToStream(`${uniquePrefix()}missing`, [newEvent()], { expectedRevision: 0n })).rejects.toBeInstanceOf(ConcurrencyError);
        expect(await store().readStream(stream)).toHaveLength(2);
      });

      it.each<[string, ExpectedRevision]>([
        ['the same revision', 0n],
        ["'no_stream'", 'no_stream'],
      ])('lets exactly one of 10 concurrent appends at %s win', async (_label, expectedRevision) => {
        const stream = `${uniquePrefix()}race`;
        const existing = expectedRevision === 'no_stream' ? [] : [newEvent()];
        if (existing.length) await store().appendToStream(stream, existing, { expectedRevision: 'no_stream' });

        const candidates = Array.from({ length: 10 }, (_, i) => newEvent('Raced.v1', { candidate: i }));
        const results = await Promise.allSettled(candidates.map((event) => store().appendToStream(stream, [event], { expectedRevision })));

        const winners = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
        expect(winners).toHaveLength(1);
        for (const result of results) {
          if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(ConcurrencyError);
        }
        const read = await store().readStream(stream);
        expect(read.map((e) => e.id)).toEqual([...existing.map((e) => e.id), candidates[winners[0]].id]);
        expect((results[winners[0]] as PromiseFulfilledResult<{ nextExpectedRevision: bigint }>).value.nextExpectedRevision).toBe(BigInt(existing.length));
      });
    });

    describe('idempotent retries', () => {
      it('answers a retried append with the same event ids as a success, without storing or delivering duplicates', async () => {
        const prefix = uniquePrefix();
        const stream = `${prefix}retried`;
        const baseline = await store().headPosition();
        const subscriber = track(collect(store(), { fromPosition: baseline }, prefix));

        const first = [newEvent(), newEvent()];
        const r1 = await store().appendToStream(stream, first, { expectedRevision: 'no_stream' });
        const again = await store().appendToStream(stream, first, { expectedRevision: 'no_stream' });
        expect(again.nextExpectedRevision).toBe(r1.nextExpectedRevision);
        expect(again.position).toEqual(r1.position);

        const second = [newEvent()];
        const r2 = await store().appendToStream(stream, second, { expectedRevision: 1n });
        const secondAgain = await store().appendToStream(stream, second, { expectedRevision: 1n });
        expect(secondAgain.nextExpectedRevision).toBe(r2.nextExpectedRevision);
        const secondAny = await store().appendToStream(stream, second, { expectedRevision: 'any' });
        expect(secondAny.nextExpectedRevision).toBe(r2.nextExpectedRevision);

        const ids = [...first, ...second].map((e) => e.id);
        expect((await store().readStream(stream)).map((e) => e.id)).toEqual(ids);

        // A later event in another stream proves the subscriber is past anything a duplicate could be.
        const sentinel = newEvent('Sentinel.v1');
        await store().appendToStream(`${prefix}sentinel`, [sentinel], { expectedRevision: 'no_stream' });
        await until(() => expect(subscriber.ids()).toContain(sentinel.id));
        expect(subscriber.ids()).toEqual([...ids, sentinel.id]);
      });
    });

    describe('subscribeToAll', () => {
      it('catches up on existing events, then delivers new ones live, one batch at a time', async () => {
        const prefix = uniquePrefix();
        const baseline = await store().headPosition();
        const existing = [newEvent('A.v1'), newEvent('B.v1'), newEvent('C.v1')];
        await store().appendToStream(`${prefix}one`, existing.slice(0, 2), { expectedRevision: 'no_stream' });
        await store().appendToStream(`${prefix}two`, existing.slice(2), { expectedRevision: 'no_stream' });

        const subscriber = track(collect(store(), { fromPosition: baseline, batchSize: 2 }, prefix));
        await until(() => expect(subscriber.ids()).toEqual(existing.map((e) => e.id)));

        const live = [newEvent('D.v1'), newEvent('E.v1')];
        await store().appendToStream(`${prefix}one`, [live[0]], { expectedRevision: 1n });
        await store().appendToStream(`${prefix}three`, [live[1]], { expectedRevision: 'no_stream' });
        await until(() => expect(subscriber.ids()).toEqual([...existing, ...live].map((e) => e.id)));

        expect(subscriber.events.map((e) => [e.streamId, e.revision])).toEqual([
          [`${prefix}one`, 0n],
          [`${prefix}one`, 1n],
          [`${prefix}two`, 0n],
          [`${prefix}one`, 2n],
          [`${prefix}three`, 0n],
        ]);
        expect(subscriber.events[0]).toMatchObject({ type: 'A.v1', data: existing[0].data, metadata: existing[0].metadata });
        expectStrictlyIncreasing(subscriber.events.map((e) => e.position));
        expect(subscriber.stats().maxInFlight).toBe(1);
        expect(subscriber.stats().largestBatch).toBeLessThanOrEqual(2);
      });

      it('resumes strictly after fromPosition, also inside a multi-event append', async () => {
        const prefix = uniquePrefix();
        const baseline = await store().headPosition();
        const events = [newEvent(), newEvent(), newEvent(), newEvent()];
        await store().appendToStream(`${prefix}a`, events.slice(0, 3), { expectedRevision: 'no_stream' });
        await store().appendToStream(`${prefix}b`, events.slice(3), { expectedRevision: 'no_stream' });

        const all = track(collect(store(), { fromPosition: baseline }, prefix));
        await until(() => expect(all.events).toHaveLength(4));

        for (let k = 0; k < 4; k++) {
          const resumed = track(collect(store(), { fromPosition: all.events[k].position }, prefix));
          const sentinel = newEvent('Sentinel.v1');
          await store().appendToStream(`${prefix}sentinel${k}`, [sentinel], { expectedRevision: 'no_stream' });
          await until(() => expect(resumed.ids()).toContain(sentinel.id));
          expect(resumed.ids().slice(0, 4 - (k + 1))).toEqual(events.slice(k + 1).map((e) => e.id));
          expect(resumed.ids().at(-1)).toBe(sentinel.id);
          await resumed.subscription.stop();
        }
      });

      it('stop() waits for the running handler, resolves done with undefined and ends delivery', async () => {
        const prefix = uniquePrefix();
        const baseline = await store().headPosition();
        const seen: string[] = [];
        let handlerRunning = false;
        let release: () => void = () => {};
        const handlerEntered = new Promise<void>((resolve) => (release = resolve));
        const subscription = store().subscribeToAll({ fromPosition: baseline }, async (batch) => {
          handlerRunning = true;
          release();
          await sleep(50);
          seen.push(...batch.filter((e) => e.streamId.startsWith(prefix)).map((e) => e.id));
          handlerRunning = false;
        });
        subscriptions.push(subscription);

        const first = newEvent();
        await store().appendToStream(`${prefix}s`, [first], { expectedRevision: 'no_stream' });
        await handlerEntered;
        await subscription.stop();
        expect(handlerRunning).toBe(false);
        expect(await subscription.done).toBeUndefined();

        await store().appendToStream(`${prefix}s`, [newEvent()], { expectedRevision: 0n });
        await sleep(100);
        expect(seen).toEqual([first.id]);
      });

      it('ends with the error when the handler fails', async () => {
        const prefix = uniquePrefix();
        const baseline = await store().headPosition();
        let calls = 0;
        const failure = new Error('projection failed');
        const subscription = store().subscribeToAll({ fromPosition: baseline }, async (batch) => {
          if (batch.some((e) => e.streamId.startsWith(prefix))) {
            calls += 1;
            throw failure;
          }
        });
        subscriptions.push(subscription);
        await store().appendToStream(`${prefix}s`, [newEvent()], { expectedRevision: 'no_stream' });
        expect(await subscription.done).toBe(failure);
        await store().appendToStream(`${prefix}s`, [newEvent()], { expectedRevision: 0n });
        await sleep(50);
        expect(calls).toBe(1);
      });
    });

    describe('under concurrent writers', () => {
      it('delivers every event exactly once, in position order and per-stream revision order, to every subscriber', { timeout: 60_000 }, async () => {
        const seed = Number(process.env.EVENTSTORE_TEST_SEED ?? Math.floor(Math.random() * 2 ** 31));
        const rand = random(seed);
        const pick = <T>(items: T[]) => items[Math.floor(rand() * items.length)];
        const WRITERS = 20;
        const EVENTS_PER_WRITER = 200;
        const prefix = uniquePrefix();
        const streams = Array.from({ length: 30 }, (_, i) => `${prefix}s${i}`);
        const knownRevision = new Map<string, bigint>();
        const appendedIds = new Set<string>();

        const baseline = await store().headPosition();
        const live = track(collect(store(), { fromPosition: baseline, batchSize: 64 }, prefix));

        const appendWithRetries = async (stream: string, events: NewEvent[]) => {
          if (rand() < 0.3) {
            await store().appendToStream(stream, events, { expectedRevision: 'any' });
            return;
          }
          let expected: ExpectedRevision = knownRevision.get(stream) ?? 'no_stream';
          for (;;) {
            try {
              const result = await store().appendToStream(stream, events, { expectedRevision: expected });
              knownRevision.set(stream, result.nextExpectedRevision);
              if (rand() < 0.1) {
                const retried = await store().appendToStream(stream, events, { expectedRevision: expected });
                expect(retried.nextExpectedRevision, `seed ${seed}`).toBe(result.nextExpectedRevision);
              }
              return;
            } catch (error) {
              if (!(error instanceof ConcurrencyError)) throw error;
              expected = typeof error.actual === 'bigint' ? error.actual : error.actual === 'no_stream' ? 'no_stream' : 'any';
            }
          }
        };

        const writer = async (w: number) => {
          let written = 0;
          while (written < EVENTS_PER_WRITER) {
            const size = Math.min(EVENTS_PER_WRITER - written, rand() < 0.5 ? 1 : 2 + Math.floor(rand() * 4));
            const events = Array.from({ length: size }, (_, k) => newEvent('Randomized.v1', { writer: w, sequence: written + k }));
            await appendWithRetries(pick(streams), events);
            events.forEach((e) => appendedIds.add(e.id));
            written += size;
            if (rand() < 0.3) await sleep(Math.floor(rand() * 4));
          }
        };
        await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
        const total = WRITERS * EVENTS_PER_WRITER;
        expect(appendedIds.size).toBe(total);

        await until(() => expect(live.events.length, `seed ${seed}`).toBeGreaterThanOrEqual(total), 20_000);
        const sentinel = newEvent('Sentinel.v1');
        await store().appendToStream(`${prefix}sentinel`, [sentinel], { expectedRevision: 'no_stream' });
        await until(() => expect(live.ids()).toContain(sentinel.id));

        const delivered = live.events.filter((e) => e.id !== sentinel.id);
        expect(delivered, `seed ${seed}`).toHaveLength(total);
        expect(new Set(delivered.map((e) => e.id)), `seed ${seed}`).toEqual(appendedIds);
        expectStrictlyIncreasing(
          delivered.map((e) => e.position),
          `seed ${seed}: positions`,
        );

        const byStream = new Map<string, RecordedEvent[]>();
        for (const event of delivered) byStream.set(event.streamId, [...(byStream.get(event.streamId) ?? []), event]);
        for (const [stream, events] of byStream) {
          expect(
            events.map((e) => e.revision),
            `seed ${seed}: ${stream}`,
          ).toEqual(events.map((_, i) => BigInt(i)));
          expect(
            (await store().readStream(stream)).map((e) => e.id),
            `seed ${seed}: ${stream}`,
          ).toEqual(events.map((e) => e.id));
        }

        const replay = track(collect(store(), { fromPosition: baseline }, prefix));
        await until(() => expect(replay.ids()).toContain(sentinel.id));
        expect(
          replay.events.map((e) => [e.id, e.position]),
          `seed ${seed}`,
        ).toEqual(live.events.map((e) => [e.id, e.position]));
        await Promise.all([live.subscription.stop(), replay.subscription.stop()]);
      });
    });
  });
}

describeEventStoreContract('PostgresEventStore', async () => {
  const db = await createTestDatabase();
  const store = new PostgresEventStore(db.pool, db.url);
  return {
    store,
    async teardown() {
      await store.close();
      await db.drop();
    },
  };
});

describe.skipIf(!process.env.EVENTSTORE_URL)('EventStoreDB', () => {
  describeEventStoreContract('EsdbEventStore', async () => {
    const { EsdbEventStore } = await import('./esdb');
    const store = await EsdbEventStore.connect(process.env.EVENTSTORE_URL as string);
    return { store, teardown: () => store.close() };
  });
});

describe('PostgresEventStore expectations with and without the head it has seen', () => {
  let db: TestDatabase;
  const stores: PostgresEventStore[] = [];
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await db?.drop();
  });
  const newStore = () => {
    const store = new PostgresEventStore(db.pool, db.url);
    stores.push(store);
    return store;
  };

  it('refuses a stale or unreached revision whether the store wrote the stream, read it, or never saw it', async () => {
    const stream = `${uniquePrefix()}expectations`;
    const writer = newStore();
    await writer.appendToStream(stream, [newEvent(), newEvent()], { expectedRevision: 'no_stream' });
    const reader = newStore();
    expect(await reader.readStream(stream)).toHaveLength(2);
    // Each expectation is tried on a store that wrote the head (writer), read it (reader) and a new one.
    for (const expectedRevision of [0n, 2n, 7n, 'no_stream'] as const) {
      for (const store of [writer, reader, newStore()]) {
        await expect(store.appendToStream(stream, [newEvent()], { expectedRevision })).rejects.toMatchObject({ code: 'CONCURRENCY_CONFLICT', actual: 1n });
      }
    }
    // The right revision is taken once: by a store that never saw the stream, then by one that read it.
    expect((await newStore().appendToStream(stream, [newEvent()], { expectedRevision: 1n })).nextExpectedRevision).toBe(2n);
    await expect(reader.appendToStream(stream, [newEvent()], { expectedRevision: 1n })).rejects.toMatchObject({ actual: 2n });
    expect((await reader.appendToStream(stream, [newEvent(), newEvent()], { expectedRevision: 2n })).nextExpectedRevision).toBe(4n);
    expect((await writer.readStream(stream)).map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n]);
  });
});

describe('PostgresEventStore visibility of transactions that commit out of order', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  const subscriptions: Subscription[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new PostgresEventStore(db.pool, db.url);
  });
  afterAll(async () => {
    await Promise.all(subscriptions.map((s) => s.stop()));
    await store?.close();
    await db?.drop();
  });

  // First in this suite, while the database holds no other events, so the head is known.
  it('orders transaction ids as numbers when their digit count grows (9 before 10)', async () => {
    // Ids 9 and 10 are long finished on any cluster, so both rows are below every snapshot's xmin.
    const insert = (transactionId: string, event: NewEvent) =>
      db.pool.query(
        `INSERT INTO events (transaction_id, stream_id, revision, event_id, type, data, metadata)
         VALUES ($1::text::xid8, $2, 0, $3, $4, $5, $6)`,
        [transactionId, `digits-${transactionId}`, event.id, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata)],
      );
    const nine = newEvent();
    const ten = newEvent();
    await insert('10', ten);
    await insert('9', nine);
    const start = { commit: 0n, prepare: 0n };

    expect((await store.readAllBatch(start, 10)).map((e) => e.id)).toEqual([nine.id, ten.id]);
    const [first] = await store.readAllBatch(start, 1);
    expect(first.position.commit).toBe(9n);
    expect((await store.readAllBatch(first.position, 1)).map((e) => e.id)).toEqual([ten.id]);
    expect((await store.headPosition())?.commit).toBe(10n);

    const subscriber = collect(store, { batchSize: 1 }, 'digits-');
    subscriptions.push(subscriber.subscription);
    const sentinel = newEvent();
    await store.appendToStream('digits-sentinel', [sentinel], { expectedRevision: 'no_stream' });
    await until(() => expect(subscriber.ids()).toEqual([nine.id, ten.id, sentinel.id]));
  });

  /**
   * Connection A appends inside an open transaction and so holds global position p; connection B
   * then appends p + 1 and commits first. Returns once both are in place, with A still open.
   */
  async function appendOutOfOrder(prefix: string) {
    const warmup = newEvent('Warmup.v1');
    await store.appendToStream(`${prefix}warmup`, [warmup], { expectedRevision: 'no_stream' });
    const subscriber = collect(store, {}, prefix);
    subscriptions.push(subscriber.subscription);
    await until(() => expect(subscriber.ids()).toEqual([warmup.id]));
    const afterWarmup = subscriber.events[0].position;

    const early = newEvent('Early.v1');
    const late = newEvent('Late.v1');
    const connectionA = await db.pool.connect();
    await connectionA.query('BEGIN');
    const { rows } = await connectionA.query<AppendRow>(appendStatement(`${prefix}a`, [early], 'no_stream'));
    const earlyPosition = { commit: BigInt(rows[0].commit as string), prepare: BigInt(rows[0].position as string) };
    const lateResult = await store.appendToStream(`${prefix}b`, [late], { expectedRevision: 'no_stream' });
    expect(lateResult.position.prepare).toBe(earlyPosition.prepare + 1n);
    expect(comparePositions(earlyPosition, lateResult.position)).toBe(-1);
    return { subscriber, afterWarmup, warmup, early, late, earlyPosition, latePosition: lateResult.position, connectionA };
  }

  const idsAfter = async (position: GlobalPosition, prefix: string) =>
    (await store.readAllBatch(position, 100)).filter((e) => e.streamId.startsWith(prefix)).map((e) => e.id);

  it('holds back an event that committed before an earlier position, then delivers both in order, once', async () => {
    const prefix = uniquePrefix();
    const { subscriber, afterWarmup, warmup, early, late, earlyPosition, latePosition, connectionA } = await appendOutOfOrder(prefix);
    try {
      // B's event is committed and readable by stream, but must not reach subscribers while A can still commit before it.
      expect((await store.readStream(`${prefix}b`)).map((e) => e.id)).toEqual([late.id]);
      await sleep(200);
      expect(subscriber.ids()).toEqual([warmup.id]);
      expect(await idsAfter(afterWarmup, prefix)).toEqual([]);
      expect(await store.headPosition()).toEqual(afterWarmup);
      await connectionA.query('COMMIT');
    } finally {
      await connectionA.query('ROLLBACK').catch(() => {});
      connectionA.release();
    }

    await until(() => expect(subscriber.ids()).toEqual([warmup.id, early.id, late.id]));
    expect(subscriber.events.slice(1).map((e) => e.position)).toEqual([earlyPosition, latePosition]);
    expect(await idsAfter(afterWarmup, prefix)).toEqual([early.id, late.id]);
    expect(await store.headPosition()).toEqual(latePosition);

    const sentinel = newEvent('Sentinel.v1');
    await store.appendToStream(`${prefix}sentinel`, [sentinel], { expectedRevision: 'no_stream' });
    await until(() => expect(subscriber.ids()).toContain(sentinel.id));
    expect(subscriber.ids()).toEqual([warmup.id, early.id, late.id, sentinel.id]);
  });

  it('releases the later event when the earlier transaction rolls back', async () => {
    const prefix = uniquePrefix();
    const { subscriber, afterWarmup, warmup, late, connectionA } = await appendOutOfOrder(prefix);
    try {
      await sleep(200);
      expect(subscriber.ids()).toEqual([warmup.id]);
      await connectionA.query('ROLLBACK');
    } finally {
      connectionA.release();
    }
    await until(() => expect(subscriber.ids()).toEqual([warmup.id, late.id]));
    expect(await idsAfter(afterWarmup, prefix)).toEqual([late.id]);
    expect(await store.readStream(`${prefix}a`)).toEqual([]);
  });

  it('answers an append with the position of its last event', async () => {
    const stream = `${uniquePrefix()}positions`;
    const result = await store.appendToStream(stream, [newEvent(), newEvent(), newEvent()], { expectedRevision: 'no_stream' });
    const read = await store.readStream(stream);
    expect(result.position).toEqual(read[2].position);
    expect(new Set(read.map((e) => e.position.commit)).size).toBe(1);
  });
});
