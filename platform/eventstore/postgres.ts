import pg from 'pg';
import type { Pool } from '../db';
import {
  ConcurrencyError,
  type AppendResult,
  type BatchHandler,
  type EventStore,
  type ExpectedRevision,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './eventstore';
import { KnownRevisions } from './knownRevisions';

const CHANNEL = 'partnerhub_events';
const START: GlobalPosition = { commit: 0n, prepare: 0n };
/** How long to wait before re-reading when committed events sit behind an older, still-running transaction. */
const XMIN_RETRY_MS = 5;

interface EventRow {
  global_position: string;
  commit_id: string;
  stream_id: string;
  revision: string;
  event_id: string;
  type: string;
  data: unknown;
  metadata: NewEvent['metadata'];
  recorded_at: Date;
}

const toRecorded = (row: EventRow): RecordedEvent => ({
  id: row.event_id,
  type: row.type,
  data: row.data,
  metadata: row.metadata,
  streamId: row.stream_id,
  revision: BigInt(row.revision),
  position: { commit: BigInt(row.commit_id), prepare: BigInt(row.global_position) },
  recordedAt: row.recorded_at,
});

/**
 * The transaction id leaves as text under another name: an output column called transaction_id would
 * shadow the xid8 column in ORDER BY and sort commits as text ('100000' before '99999').
 */
const EVENT_COLUMNS = 'global_position, transaction_id::text AS commit_id, stream_id, revision, event_id, type, data, metadata, recorded_at';

/** What the append statement answers: one row per stored event; none when the stream was not at the expected revision. */
export interface AppendRow {
  revision: string;
  position: string;
  commit: string;
}

const APPENDED = 'RETURNING revision::text AS revision, global_position::text AS position, transaction_id::text AS commit';
/** The event columns taken from parameter `$n`, a JSON array of events; `t.ord` counts them from 1. */
const eventsFromJson = (n: number) =>
  `(t.e->>'id')::uuid, t.e->>'type', t.e->'data', t.e->'metadata' FROM jsonb_array_elements($${n}::jsonb) WITH ORDINALITY AS t(e, ord)`;
/**
 * An expected revision r is met when the stream holds r (this probe) and not r + 1 (the (stream_id, revision)
 * key refuses the first new event then); 'no_stream' needs only the key, since the first event takes revision 0.
 */
const HOLDS_EXPECTED = 'WHERE EXISTS (SELECT 1 FROM events WHERE stream_id = $1 AND revision = $2::bigint - 1)';

/**
 * The single append statement. The adapter runs it on its own; it can also run inside a caller's
 * transaction on a given client, in which case its events become visible when that transaction
 * commits (call `wakeSubscribers()` after the commit so listeners need not wait for the next append).
 *
 * It is one INSERT with no read of the stream's head before it: the keys decide, and a refused append
 * is told apart (a retry of stored events, or a conflict) only after it failed.
 */
export function appendStatement(
  streamId: string,
  events: NewEvent[],
  expectedRevision: ExpectedRevision,
  /** The caller knows the stream holds the expected revision (KnownRevisions): the key alone then decides. */
  { holdsExpected = false }: { holdsExpected?: boolean } = {},
): pg.QueryConfig {
  if (events.length === 0) throw new Error('appendToStream needs at least one event');
  // One JSON document for several events: a Postgres array of JSON texts would escape every quote
  // twice on the way (once by the driver, once more by the server's array parser).
  const json = () => JSON.stringify(events.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })));
  const columns = 'INSERT INTO events (stream_id, revision, event_id, type, data, metadata)';
  if (expectedRevision === 'any') {
    return {
      name: 'append-any',
      text: `WITH head AS (SELECT coalesce(max(revision), -1) AS revision FROM events WHERE stream_id = $1)
        ${columns} SELECT $1, head.revision + t.ord, ${eventsFromJson(2)} CROSS JOIN head ${APPENDED}`,
      values: [streamId, json()],
    };
  }
  const guarded = typeof expectedRevision === 'bigint' && !holdsExpected;
  const kind = guarded ? 'next' : 'keyed';
  const guard = guarded ? HOLDS_EXPECTED : '';
  const firstRevision = typeof expectedRevision === 'bigint' ? expectedRevision + 1n : 0n;
  // Named, so each connection plans each shape once.
  if (events.length === 1) {
    const [event] = events;
    return {
      name: `append-${kind}-one`,
      // VALUES when nothing is probed: measured as cheap as a plain INSERT, where INSERT ... SELECT costs a few points more.
      text: guarded
        ? `${columns} SELECT $1, $2::bigint, $3::uuid, $4, $5::jsonb, $6::jsonb ${guard} ${APPENDED}`
        : `${columns} VALUES ($1, $2, $3, $4, $5, $6) ${APPENDED}`,
      values: [streamId, firstRevision.toString(), event.id, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata)],
    };
  }
  return {
    name: `append-${kind}-many`,
    text: `${columns} SELECT $1, $2::bigint + t.ord - 1, ${eventsFromJson(3)} ${guard} ${APPENDED}`,
    values: [streamId, firstRevision.toString(), json()],
  };
}

/** Under a stream of appends, one NOTIFY at most this often: each costs the server a transaction. */
const NOTIFY_INTERVAL_MS = 5;

/**
 * Wakes subscribers after appends have committed. A NOTIFY inside the appending transaction would make
 * every append take PostgreSQL's cluster-wide notify lock until its commit is flushed, so appends
 * would commit one at a time. Instead one connection sends the NOTIFY after commit (without waiting
 * for its own flush). An append after a quiet spell is announced at once; appends that follow within
 * NOTIFY_INTERVAL_MS share the next NOTIFY, which is sent when the interval is up.
 */
class CommitNotifier {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private running = false;
  private pending = false;
  private lastSentAt = -Infinity;
  private closed = false;

  constructor(private readonly connectionString: string) {}

  signal(): void {
    this.pending = true;
    if (this.running || this.closed) return;
    this.running = true;
    void this.run();
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.connectionString });
      client.on('error', () => {
        if (this.client === client) this.client = undefined;
      });
      await client.connect();
      await client.query('SET synchronous_commit = off');
      this.client = client;
      return client;
    })().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async run(): Promise<void> {
    try {
      while (this.pending && !this.closed) {
        const wait = this.lastSentAt + NOTIFY_INTERVAL_MS - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        this.pending = false;
        this.lastSentAt = performance.now();
        const client = await this.connection();
        await client.query(`SELECT pg_notify('${CHANNEL}', '')`);
      }
    } catch {
      // Subscribers are woken by the next append; nothing is lost, delivery is only later.
      this.client = undefined;
    } finally {
      this.running = false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}

export class PostgresEventStore implements EventStore {
  private readonly subscriptions = new Set<Subscription>();
  private readonly notifier: CommitNotifier;
  private readonly known = new KnownRevisions();

  constructor(
    private readonly pool: Pool,
    private readonly connectionString: string,
  ) {
    this.notifier = new CommitNotifier(connectionString);
  }

  /** For callers that ran `appendStatement` in their own transaction: call after it committed. */
  wakeSubscribers(): void {
    this.notifier.signal();
  }

  async appendToStream(streamId: string, events: NewEvent[], { expectedRevision }: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    const holdsExpected = typeof expectedRevision === 'bigint' && this.known.holds(streamId, expectedRevision);
    const statement = appendStatement(streamId, events, expectedRevision, { holdsExpected });
    for (let attempt = 0; ; attempt++) {
      try {
        const { rows } = await this.pool.query<AppendRow>(statement);
        // The stream's new head: the stored event with the highest revision (its position is the append's too).
        const last = rows.reduce<AppendRow | undefined>((head, row) => (!head || BigInt(row.revision) > BigInt(head.revision) ? row : head), undefined);
        if (last) {
          this.notifier.signal();
          this.known.tell(streamId, BigInt(last.revision));
          return { nextExpectedRevision: BigInt(last.revision), position: { commit: BigInt(last.commit), prepare: BigInt(last.position) } };
        }
      } catch (error) {
        // A concurrent writer took the revisions (stream key) or these events are already stored (event_id key).
        if ((error as { code?: string }).code !== '23505') throw error;
        const tookRevisions = (error as { constraint?: string }).constraint === 'events_stream_id_revision_key';
        // With no expectation, a writer that got in first only moves the head: append after it.
        if (expectedRevision === 'any' && tookRevisions && attempt < 20) continue;
      }
      return this.answerRetryOrConflict(streamId, events, expectedRevision);
    }
  }

  /** The claim failed: either these very events were appended before (a retry, answered as success) or the stream moved. */
  private async answerRetryOrConflict(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const { rows } = await this.pool.query<{ stream_id: string; revision: string; global_position: string; commit_id: string }>(
      'SELECT stream_id, revision, global_position, transaction_id::text AS commit_id FROM events WHERE event_id = ANY($1::uuid[]) ORDER BY revision',
      [events.map((e) => e.id)],
    );
    if (rows.length === events.length && rows.every((r) => r.stream_id === streamId)) {
      const last = rows[rows.length - 1];
      return { nextExpectedRevision: BigInt(last.revision), position: { commit: BigInt(last.commit_id), prepare: BigInt(last.global_position) } };
    }
    const current = await this.pool.query<{ revision: string | null }>('SELECT max(revision)::text AS revision FROM events WHERE stream_id = $1', [streamId]);
    const revision = current.rows[0]?.revision;
    throw new ConcurrencyError(streamId, expected, revision == null ? 'no_stream' : BigInt(revision));
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 ORDER BY revision`, [streamId]);
    const events = rows.map(toRecorded);
    // A command appends after the head it read: that append then needs no probe of the head.
    if (events.length) this.known.tell(streamId, events[events.length - 1].revision);
    return events;
  }

  /** Events after `after` whose transactions are all committed, so no earlier event can still appear. */
  async readAllBatch(after: GlobalPosition, limit: number): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events
       WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
         AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY events.transaction_id, events.global_position
       LIMIT $3`,
      [after.commit.toString(), after.prepare.toString(), limit],
    );
    return rows.map(toRecorded);
  }

  private async hasCommittedEventsAfter(after: GlobalPosition): Promise<boolean> {
    const { rows } = await this.pool.query(
      // In index order: without it, a prepared statement's generic plan may scan the whole log for one row.
      'SELECT 1 FROM events WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint) ORDER BY transaction_id, global_position LIMIT 1',
      [after.commit.toString(), after.prepare.toString()],
    );
    return rows.length > 0;
  }

  async headPosition(): Promise<GlobalPosition | undefined> {
    const { rows } = await this.pool.query<{ commit_id: string; global_position: string }>(
      `SELECT transaction_id::text AS commit_id, global_position FROM events
       WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY events.transaction_id DESC, events.global_position DESC LIMIT 1`,
    );
    return rows[0] ? { commit: BigInt(rows[0].commit_id), prepare: BigInt(rows[0].global_position) } : undefined;
  }

  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription {
    const batchSize = options.batchSize ?? 500;
    let position = options.fromPosition ?? START;
    let stopped = false;
    let pending = true; // something may be waiting to be read
    let wake: (() => void) | undefined;
    const listener = new pg.Client({ connectionString: this.connectionString });
    const signal = () => {
      pending = true;
      wake?.();
    };
    listener.on('notification', signal);

    const sleep = (ms?: number) =>
      new Promise<void>((resolve) => {
        const timer = ms === undefined ? undefined : setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }).finally(() => (wake = undefined));

    let prefetched: Promise<RecordedEvent[]> | undefined;
    const run = async (): Promise<Error | undefined> => {
      try {
        listener.on('error', (error) => {
          stopped = true;
          failure = error;
          wake?.();
        });
        await listener.connect();
        await listener.query(`LISTEN ${CHANNEL}`);
        while (!stopped) {
          if (!pending) {
            await sleep();
            continue;
          }
          pending = false;
          // A prefetch that failed is read again here.
          const batch = await (prefetched?.catch(() => this.readAllBatch(position, batchSize)) ?? this.readAllBatch(position, batchSize));
          prefetched = undefined;
          if (stopped) break;
          if (batch.length > 0) {
            // A full batch means more is waiting: read it while the handler works (a catch-up reads the log
            // and applies it at the same time).
            if (batch.length === batchSize) {
              prefetched = this.readAllBatch(batch[batch.length - 1].position, batchSize);
              prefetched.catch(() => {});
            }
            await handler(batch);
            position = batch[batch.length - 1].position;
            pending = true;
          } else if (await this.hasCommittedEventsAfter(position)) {
            // Committed events wait behind an older transaction that has not finished yet.
            pending = true;
            await sleep(XMIN_RETRY_MS);
          }
        }
        return failure;
      } catch (error) {
        return error as Error;
      } finally {
        listener.removeListener('notification', signal);
        await listener.end().catch(() => {});
      }
    };
    let failure: Error | undefined;
    const done = run();
    const subscription: Subscription = {
      done,
      async stop() {
        stopped = true;
        wake?.();
        await done;
      },
    };
    this.subscriptions.add(subscription);
    void done.finally(() => this.subscriptions.delete(subscription));
    return subscription;
  }

  /** Ends open subscriptions; the pool belongs to the caller. */
  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.notifier.close();
  }
}
