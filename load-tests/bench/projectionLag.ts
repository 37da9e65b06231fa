import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createPool } from '../../src/db';
import { comparePositions, type GlobalPosition } from '../../src/eventstore';
import { PostgresEventStore } from '../../src/eventstore/postgres';
import { CheckpointStore } from '../../projections/checkpoints';
import { readModels } from '../../projections';
import { PROJECTED_CHANNEL, READ_MODELS_CHECKPOINT, ProjectionRunner } from '../../projections/runner';
import { summarize, type LatencySummary } from './percentiles';
import { userRegistered } from './userEvents';

export interface LagSettings {
  databaseUrl: string;
  clients: number;
  seconds: number;
  warmupSeconds: number;
  /** Events per second to append. */
  rate: number;
  /** Where the rate came from, for the report. */
  rateSource: string;
  /** How long to wait after the last append for the projector to confirm everything. */
  drainSeconds: number;
}

export interface LagSection {
  projection: string;
  events: string;
  measuredFrom: string;
  rateSource: string;
  targetRate: number;
  achievedRate: number;
  appended: number;
  confirmed: number;
  /** Not confirmed within the drain time; counted in `lag` with the age they had reached. */
  unconfirmed: number;
  /** Append resolved → the projector's commit of that position was announced, in milliseconds. */
  lag: LatencySummary;
  appendLatency: LatencySummary;
  projectorBatches: number;
  projectorErrors: string[];
}

export const LAG_GOAL_MS = 150;

interface Pending {
  position: GlobalPosition;
  resolvedAt: number;
  measured: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Section 3: the real projector (`ProjectionRunner` with every read model) follows the log while
 * registrations are appended at a paced rate; each append's lag is the time from its append
 * resolving to the NOTIFY the projector sends when it commits a batch that includes it.
 */
export async function runLagSection(settings: LagSettings, log: (line: string) => void): Promise<LagSection> {
  // The projector and the appenders have their own pools, as the projector and API processes do.
  const projectorPool = createPool(settings.databaseUrl, 4);
  const appendPool = createPool(settings.databaseUrl, settings.clients);
  const projectorStore = new PostgresEventStore(projectorPool, settings.databaseUrl);
  const appendStore = new PostgresEventStore(appendPool, settings.databaseUrl);
  const listener = new pg.Client({ connectionString: settings.databaseUrl });
  const projectorErrors: string[] = [];
  let projectorBatches = 0;
  let runner: ProjectionRunner | undefined;

  let projected: GlobalPosition | undefined;
  let pending: Pending[] = [];
  const lags: number[] = [];
  const appendLatencies: number[] = [];
  let confirmed = 0;
  const confirm = (entry: Pending, at: number) => {
    if (!entry.measured) return;
    confirmed++;
    lags.push(Math.max(0, at - entry.resolvedAt));
  };

  try {
    // Earlier sections filled the log with benchmark events: start the read models at its head, so this
    // section measures following live appends, not catching up.
    const head = await projectorStore.headPosition();
    if (head) await new CheckpointStore('read.checkpoints').set(projectorPool, READ_MODELS_CHECKPOINT, head);

    listener.on('notification', (message) => {
      const [schema, commit, prepare] = (message.payload ?? '').split(':');
      if (schema !== 'read' || !commit || !prepare) return;
      const at = performance.now();
      const position = { commit: BigInt(commit), prepare: BigInt(prepare) };
      if (projected && comparePositions(position, projected) <= 0) return;
      projected = position;
      projectorBatches++;
      const waiting: Pending[] = [];
      for (const entry of pending) {
        if (comparePositions(entry.position, position) <= 0) confirm(entry, at);
        else waiting.push(entry);
      }
      pending = waiting;
    });
    await listener.connect();
    await listener.query(`LISTEN ${PROJECTED_CHANNEL}`);

    runner = new ProjectionRunner(projectorStore, projectorPool, readModels, { onError: (error) => projectorErrors.push(error.message) });
    runner.start();

    // Paced appends: the k-th registration is due at start + k / rate; 16 clients take them in turn.
    const interval = 1000 / settings.rate;
    const start = performance.now();
    const measureFrom = start + settings.warmupSeconds * 1000;
    const end = measureFrom + settings.seconds * 1000;
    let next = 0;
    let appended = 0;
    log(`  appending ${Math.round(settings.rate)} registrations/s for ${settings.warmupSeconds} s warm-up + ${settings.seconds} s`);
    await Promise.all(
      Array.from({ length: settings.clients }, async () => {
        for (;;) {
          const due = start + next++ * interval;
          if (due >= end) return;
          const wait = due - performance.now();
          if (wait >= 1) await sleep(wait);
          const measured = due >= measureFrom;
          const event = userRegistered();
          const began = performance.now();
          const result = await appendStore.appendToStream(`users-${event.data.userId}`, [event], { expectedRevision: 'no_stream' });
          const resolvedAt = performance.now();
          if (measured) {
            appended++;
            appendLatencies.push(resolvedAt - began);
          }
          const entry = { position: result.position, resolvedAt, measured };
          // The projector may already have announced this position before this callback ran.
          if (projected && comparePositions(result.position, projected) <= 0) confirm(entry, resolvedAt);
          else pending.push(entry);
        }
      }),
    );
    const appendedFor = (performance.now() - measureFrom) / 1000;

    const drainUntil = performance.now() + settings.drainSeconds * 1000;
    while (pending.some((entry) => entry.measured) && performance.now() < drainUntil) await sleep(20);
    // Anything still unconfirmed counts with the age it has reached, a lower bound of its lag.
    const stillPending = pending.filter((entry) => entry.measured);
    const gaveUpAt = performance.now();
    for (const entry of stillPending) lags.push(gaveUpAt - entry.resolvedAt);
    const unconfirmed = stillPending.length;

    return {
      projection: `real read models (${readModels.map((p) => p.name).join(', ')}) via ProjectionRunner`,
      events: 'UserRegistered.v1, one per new users-<uuid> stream, expected revision no_stream',
      measuredFrom: 'append resolved → NOTIFY partnerhub_projected received for a position at or past it',
      rateSource: settings.rateSource,
      targetRate: settings.rate,
      achievedRate: appended / appendedFor,
      appended,
      confirmed,
      unconfirmed,
      lag: summarize(lags),
      appendLatency: summarize(appendLatencies),
      projectorBatches,
      projectorErrors: projectorErrors.slice(0, 5),
    };
  } finally {
    await runner?.stop();
    await listener.end().catch(() => {});
    await projectorStore.close();
    await appendStore.close();
    await Promise.all([projectorPool.end(), appendPool.end()]);
  }
}
