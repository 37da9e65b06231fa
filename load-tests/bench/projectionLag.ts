import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { createPool } from '../../platform/db';
import type { GlobalPosition } from '../../platform/eventstore';
import { PostgresEventStore } from '../../platform/eventstore/postgres';
import { CheckpointStore } from '../../projections/checkpoints';
import { readModels } from '../../projections';
import { READ_MODELS_CHECKPOINT } from '../../projections/runner';
import { ProjectionWatcher } from '../../projections/watcher';
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
  /** The same for the appends of the warm-up: the first seconds of a projector process that has just started. */
  warmup: { seconds: number; lag: LatencySummary };
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

/** Longer than any append waits: the drain below decides when to give up. */
const WAIT_LIMIT_MS = 10 * 60 * 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The projector in its own process (projectorProcess.ts), as the portal runs it. */
async function startProjector(databaseUrl: string) {
  // For a CPU profile of the projector: BENCH_PROJECTOR_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/profiles'.
  const nodeArgs = (process.env.BENCH_PROJECTOR_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'load-tests/bench/projectorProcess.ts'], {
    env: { ...process.env, PROJECTOR_DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const started = performance.now();
  while (!output.includes('ready')) {
    if (child.exitCode !== null || performance.now() - started > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`The projector did not start: ${output.slice(-2000)}`);
    }
    await sleep(50);
  }
  return {
    /** Stops it after its running batch; answers the batches it committed and its first errors. */
    async stop(): Promise<{ batches: number; errors: string[] }> {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await once(child, 'exit');
        clearTimeout(timer);
      }
      const report = output.trim().split('\n').at(-1) ?? '';
      try {
        return JSON.parse(report) as { batches: number; errors: string[] };
      } catch {
        return { batches: 0, errors: [`the projector ended without its report: ${output.slice(-500)}`] };
      }
    },
  };
}

/**
 * Section 3: the real projector (`ProjectionRunner` with every read model, in its own process) follows the
 * log while registrations are appended at a paced rate; each append's lag is the time from its append
 * resolving to an API process's ProjectionWatcher knowing a batch that includes it is committed (the
 * projector's NOTIFY wakes it, it reads the checkpoint), which is what read-your-writes waits for.
 */
export async function runLagSection(settings: LagSettings, log: (line: string) => void): Promise<LagSection> {
  // This process is the API's side: the appenders and the watcher, as an API process has them.
  const appendPool = createPool(settings.databaseUrl, settings.clients);
  const appendStore = new PostgresEventStore(appendPool, settings.databaseUrl);
  const apiPool = createPool(settings.databaseUrl, 4);
  const watcher = new ProjectionWatcher(apiPool, settings.databaseUrl);
  let projector: Awaited<ReturnType<typeof startProjector>> | undefined;

  const pending = new Set<Pending>();
  const lags: number[] = [];
  const warmupLags: number[] = [];
  const appendLatencies: number[] = [];
  let confirmed = 0;
  const confirm = (entry: Pending, at: number) => {
    if (!entry.measured) {
      warmupLags.push(Math.max(0, at - entry.resolvedAt));
      return;
    }
    confirmed++;
    lags.push(Math.max(0, at - entry.resolvedAt));
  };

  try {
    // Earlier sections filled the log with benchmark events: start the read models at its head, so this
    // section measures following live appends, not catching up.
    const head = await appendStore.headPosition();
    if (head) await new CheckpointStore('read.checkpoints').set(apiPool, READ_MODELS_CHECKPOINT, head);

    // Progress as an API process learns it: the watcher reads the checkpoint on each NOTIFY.
    await watcher.start();

    projector = await startProjector(settings.databaseUrl);

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
          pending.add(entry);
          void watcher.waitFor(result.position, WAIT_LIMIT_MS).then((caughtUp) => {
            if (!caughtUp || !pending.delete(entry)) return;
            confirm(entry, performance.now());
          });
        }
      }),
    );
    const appendedFor = (performance.now() - measureFrom) / 1000;

    const drainUntil = performance.now() + settings.drainSeconds * 1000;
    const measuredPending = () => [...pending].filter((entry) => entry.measured);
    while (measuredPending().length > 0 && performance.now() < drainUntil) await sleep(20);
    // Anything still unconfirmed counts with the age it has reached, a lower bound of its lag.
    const stillPending = measuredPending();
    pending.clear();
    const gaveUpAt = performance.now();
    for (const entry of stillPending) lags.push(gaveUpAt - entry.resolvedAt);
    const unconfirmed = stillPending.length;
    const { batches: projectorBatches, errors: projectorErrors } = await projector.stop();

    return {
      projection: `real read models (${readModels.map((p) => p.name).join(', ')}) via ProjectionRunner, in a process of its own`,
      events: 'UserRegistered.v1, one per new users-<uuid> stream, expected revision no_stream',
      measuredFrom: "append resolved → an API process's ProjectionWatcher has read a checkpoint at or past it (woken by NOTIFY partnerhub_projected)",
      rateSource: settings.rateSource,
      targetRate: settings.rate,
      achievedRate: appended / appendedFor,
      appended,
      confirmed,
      unconfirmed,
      lag: summarize(lags),
      warmup: { seconds: settings.warmupSeconds, lag: summarize(warmupLags) },
      appendLatency: summarize(appendLatencies),
      projectorBatches,
      projectorErrors: projectorErrors.slice(0, 5),
    };
  } finally {
    await projector?.stop();
    await watcher.stop();
    await appendStore.close();
    await Promise.all([appendPool.end(), apiPool.end()]);
  }
}
