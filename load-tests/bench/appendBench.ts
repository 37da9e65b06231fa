import { randomUUID } from 'node:crypto';
import { uuidV7 } from '../../platform/eventstore/eventIds';
import { createPool, type Pool } from '../../platform/db';
import type { ExpectedRevision, NewEvent } from '../../platform/eventstore';
import { PostgresEventStore } from '../../platform/eventstore/postgres';
import { checkpoint } from './benchDatabase';
import { runClosedLoop, type ClosedLoopResult } from './closedLoop';
import { summarize, type LatencySummary } from './percentiles';
import { userRegistered } from './userEvents';

export interface AppendSettings {
  databaseUrl: string;
  adminUrl: string;
  clients: number;
  seconds: number;
  warmupSeconds: number;
  batchSize: number;
  /** Appends per stream before a client moves on to a new one: most records have short streams. */
  streamLength: number;
  /** Each comparison runs in this many alternating rounds. */
  rounds: number;
  /** Also measure the diagnostic variants (see README): a raw INSERT with NOTIFY in its transaction, time-ordered event ids. */
  diagnostics: boolean;
}

export interface AppendMeasurement {
  name: string;
  events: number;
  operations: number;
  seconds: number;
  eventsPerSecond: number;
  /** Per statement (one append or one INSERT), milliseconds. */
  latency: LatencySummary;
  /** WAL written while it ran, per event (cluster-wide, so other databases' writes count too). */
  walBytesPerEvent: number;
  errors: number;
  firstError?: string;
}

export interface AppendSection {
  clients: number;
  batchSize: number;
  streamLength: number;
  eventBytes: { data: number; metadata: number };
  single: { store: AppendMeasurement; raw: AppendMeasurement; ratio: number };
  batched: { store: AppendMeasurement; raw: AppendMeasurement; ratio: number };
  diagnostics: AppendMeasurement[];
}

export const SINGLE_GOAL = 0.85;
export const BATCHED_GOAL = 0.9;

const RAW_TABLE = 'bench_raw_events';
const RAW_COLUMNS = '(stream_id, revision, event_id, type, data, metadata)';

/** The log's columns and types, but nothing to check: only a bigserial key, no unique keys, no NOTIFY. */
const CREATE_RAW_TABLE = `
  CREATE TABLE IF NOT EXISTS ${RAW_TABLE} (
    id bigserial PRIMARY KEY,
    transaction_id xid8 DEFAULT pg_current_xact_id(),
    stream_id text,
    revision bigint,
    event_id uuid,
    type text,
    data jsonb,
    metadata jsonb,
    recorded_at timestamptz DEFAULT now()
  )`;

const rawSingleInsert = `INSERT INTO ${RAW_TABLE} ${RAW_COLUMNS} VALUES ($1, $2, $3, $4, $5, $6)`;
const rawMultiInsert = (rows: number) =>
  `INSERT INTO ${RAW_TABLE} ${RAW_COLUMNS} VALUES ` +
  Array.from({ length: rows }, (_, r) => `(${Array.from({ length: 6 }, (_, c) => `$${r * 6 + c + 1}`).join(', ')})`).join(', ');

const rawValues = (streamId: string, firstRevision: number, events: NewEvent[]) =>
  events.flatMap((e, i) => [streamId, firstRevision + i, e.id, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata)]);

/** A new record's stream, named like the product's (`<category>-<id>`, ids time-ordered as `newId` makes them). */
const newStream = () => `benchmark-${uuidV7()}`;
/** The product's ids are time-ordered (src/eventstore/eventIds.ts); random (v4) ones are a diagnostic. */
type EventIds = 'random' | 'time-ordered';
const eventsOf = (count: number, ids: EventIds = 'time-ordered') =>
  Array.from({ length: count }, () => {
    const event = userRegistered();
    return ids === 'time-ordered' ? event : { ...event, id: randomUUID() };
  });

/** A client's position in its current stream; after `streamLength` writes it starts a new stream. */
class StreamCursor {
  streamId = newStream();
  expected: ExpectedRevision = 'no_stream';
  nextRevision = 0;
  private writes = 0;
  constructor(private readonly streamLength: number) {}
  advance(count: number, lastRevision: bigint = BigInt(this.nextRevision + count - 1)) {
    this.expected = lastRevision;
    this.nextRevision = Number(lastRevision) + 1;
    if (++this.writes >= this.streamLength) {
      this.streamId = newStream();
      this.expected = 'no_stream';
      this.nextRevision = 0;
      this.writes = 0;
    }
  }
}

const toMeasurement = (name: string, run: ClosedLoopResult, walBytes: number): AppendMeasurement => ({
  name,
  events: run.events,
  operations: run.operations,
  seconds: run.seconds,
  eventsPerSecond: run.events / run.seconds,
  latency: summarize(run.latencies),
  walBytesPerEvent: run.events ? walBytes / run.events : Number.NaN,
  errors: run.errors,
  ...(run.firstError ? { firstError: run.firstError } : {}),
});

/**
 * Section 2: appends through the Postgres event store next to plain INSERTs of the same rows, each
 * from `clients` concurrent loops sharing one pool of `clients` connections.
 */
export async function runAppendSection(settings: AppendSettings, log: (line: string) => void): Promise<AppendSection> {
  const pool: Pool = createPool(settings.databaseUrl, settings.clients);
  const store = new PostgresEventStore(pool, settings.databaseUrl);
  const walPosition = async () => (await pool.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn;
  const walSince = async (lsn: string) =>
    Number((await pool.query<{ bytes: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::text AS bytes', [lsn])).rows[0].bytes);
  try {
    await pool.query(CREATE_RAW_TABLE);
    const { clients, batchSize, streamLength } = settings;

    const storeAppends =
      (eventsPerAppend: number, ids: EventIds = 'time-ordered') =>
      () => {
        const cursor = new StreamCursor(streamLength);
        return async () => {
          const result = await store.appendToStream(cursor.streamId, eventsOf(eventsPerAppend, ids), { expectedRevision: cursor.expected });
          cursor.advance(eventsPerAppend, result.nextExpectedRevision);
          return eventsPerAppend;
        };
      };
    const rawInserts = (rowsPerInsert: number) => () => {
      const cursor = new StreamCursor(streamLength);
      const text = rowsPerInsert === 1 ? rawSingleInsert : rawMultiInsert(rowsPerInsert);
      return async () => {
        await pool.query({ text, values: rawValues(cursor.streamId, cursor.nextRevision, eventsOf(rowsPerInsert)) });
        cursor.advance(rowsPerInsert);
        return rowsPerInsert;
      };
    };
    const rawInsertWithNotify = () => () => {
      const cursor = new StreamCursor(streamLength);
      const text = `WITH inserted AS (${rawSingleInsert} RETURNING id) SELECT pg_notify('bench_raw_events', '') FROM inserted`;
      return async () => {
        await pool.query({ text, values: rawValues(cursor.streamId, cursor.nextRevision, eventsOf(1)) });
        cursor.advance(1);
        return 1;
      };
    };

    /**
     * Variants that are compared run in alternating rounds (A B C, then C B A, ...) so that other work
     * on the machine weighs on each of them alike; each round starts after a CHECKPOINT.
     */
    const measureInterleaved = async (variants: { name: string; seconds: number; makeClient: () => () => Promise<number> }[]) => {
      const totals = variants.map((): ClosedLoopResult => ({ operations: 0, events: 0, seconds: 0, latencies: [], errors: 0, firstError: undefined }));
      const walBytes = variants.map(() => 0);
      for (let round = 0; round < settings.rounds; round++) {
        const order = variants.map((_, i) => i);
        if (round % 2 === 1) order.reverse();
        for (const i of order) {
          const variant = variants[i];
          const seconds = variant.seconds / settings.rounds;
          await checkpoint(settings.adminUrl);
          log(`  round ${round + 1}/${settings.rounds}: ${variant.name}, ${seconds} s`);
          const walFrom = await walPosition();
          const run = await runClosedLoop(clients, seconds, variant.makeClient);
          walBytes[i] += await walSince(walFrom);
          const total = totals[i];
          total.operations += run.operations;
          total.events += run.events;
          total.seconds += run.seconds;
          for (const latency of run.latencies) total.latencies.push(latency);
          total.errors += run.errors;
          total.firstError ??= run.firstError;
        }
      }
      return variants.map((variant, i) => toMeasurement(variant.name, totals[i], walBytes[i]));
    };

    if (settings.warmupSeconds > 0) {
      log(`  warm-up: ${settings.warmupSeconds} s each of store appends and raw inserts`);
      await runClosedLoop(clients, settings.warmupSeconds, storeAppends(1));
      await runClosedLoop(clients, settings.warmupSeconds, rawInserts(1));
      await runClosedLoop(clients, Math.min(1, settings.warmupSeconds), storeAppends(batchSize));
      await runClosedLoop(clients, Math.min(1, settings.warmupSeconds), rawInserts(batchSize));
    }

    const seconds = settings.seconds;
    const diagnosticSeconds = seconds / 2;
    const diagnose = settings.diagnostics;

    const [singleStore, singleRaw, ...singleDiagnostics] = await measureInterleaved([
      { name: 'store: 1 event per append', seconds, makeClient: storeAppends(1) },
      { name: 'raw: 1 row per INSERT', seconds, makeClient: rawInserts(1) },
      ...(diagnose ? [{ name: 'diagnostic: raw 1-row INSERT + pg_notify', seconds: diagnosticSeconds, makeClient: rawInsertWithNotify() }] : []),
    ]);
    const [batchedStore, batchedRaw, ...batchedDiagnostics] = await measureInterleaved([
      { name: `store: ${batchSize} events per append`, seconds, makeClient: storeAppends(batchSize) },
      { name: `raw: ${batchSize} rows per INSERT`, seconds, makeClient: rawInserts(batchSize) },
      ...(diagnose
        ? [{ name: `diagnostic: store, ${batchSize} events, random (v4) event ids`, seconds: diagnosticSeconds, makeClient: storeAppends(batchSize, 'random') }]
        : []),
    ]);
    const single = { store: singleStore, raw: singleRaw, ratio: singleStore.eventsPerSecond / singleRaw.eventsPerSecond };
    const batched = { store: batchedStore, raw: batchedRaw, ratio: batchedStore.eventsPerSecond / batchedRaw.eventsPerSecond };
    const diagnostics = [...singleDiagnostics, ...batchedDiagnostics];

    const sample = userRegistered();
    return {
      clients,
      batchSize,
      streamLength,
      eventBytes: { data: Buffer.byteLength(JSON.stringify(sample.data)), metadata: Buffer.byteLength(JSON.stringify(sample.metadata)) },
      single,
      batched,
      diagnostics,
    };
  } finally {
    await store.close();
    await pool.end();
  }
}
