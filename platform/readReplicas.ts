import { createPool, pipelined, type Pool, type Queryable, type QueryableTogether, type Statement } from './db';
import type { ReadModelWatcher } from './services';

/** Why a read went to the primary instead of a replica. */
export type PrimaryReadReason =
  /** This process has not read the read models' position yet, so no replica can be shown to hold it. */
  | 'positionUnknown'
  /** No replica replayed this process's position within REPLICA_WAIT_MS. */
  | 'lagging'
  /** Every replica is down (or not a replica), and waits out its back-off. */
  | 'unavailable'
  /** The replica failed the read itself; it was answered by the primary. */
  | 'failed';

export interface ReadCounts {
  /** Reads a replica answered. */
  replica: number;
  /** Reads the primary answered, by why. */
  primary: Record<PrimaryReadReason, number>;
}

export interface ReadRouterOptions {
  /** How long a read waits for a replica to catch up (REPLICA_WAIT_MS). */
  waitMs: number;
  /** How often a replica's replay position is read again while a read waits for it. */
  pollMs?: number;
  /** How long a replica that failed is left alone before it is tried again. */
  retryAfterMs?: number;
  /** Connections per replica. */
  poolSize?: number;
  /** Told when a replica goes down and when it answers again. */
  log?: (line: string) => void;
}

export interface ReadRouter {
  /** Where reads of the read models go: the primary pool itself when no replica is configured. */
  readonly reads: Queryable;
  counts(): ReadCounts;
  stop(): Promise<void>;
}

const LSN = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** A WAL position ('16/B374D848': the high and low 32 bits in hex) as one number, so positions compare correctly. */
export function parseLsn(lsn: string): bigint {
  const match = LSN.exec(lsn);
  if (!match) throw new Error(`Not a WAL position: '${lsn}' (expected two hex numbers separated by '/').`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** Connection-level trouble (no SQLSTATE from a server, or connection, shutdown and resource classes): the replica is set aside for a while. */
function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code) || /^(08|53|57)/.test(code);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//');

/** One replica: its pool, the replay position last read from it, and whether it is set aside. */
class Replica {
  readonly pool: Pool;
  replayed: bigint | undefined;
  private down = false;
  private downUntil = 0;
  private probing: Promise<void> | undefined;
  private lastProbeAt = -Infinity;

  constructor(
    readonly url: string,
    poolSize: number,
    private readonly pollMs: number,
    private readonly retryAfterMs: number,
    private readonly log: (line: string) => void,
  ) {
    this.pool = createPool(url, poolSize, { connectionTimeoutMillis: 2_000 });
  }

  available(now: number): boolean {
    return now >= this.downUntil;
  }

  /** Reads the replay position again: one probe in flight, shared by every read waiting, at most one every `pollMs`. */
  refresh(): Promise<void> {
    this.probing ??= this.probe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  private async probe(): Promise<void> {
    const since = performance.now() - this.lastProbeAt;
    if (since < this.pollMs) await sleep(this.pollMs - since);
    this.lastProbeAt = performance.now();
    try {
      const { rows } = await this.pool.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn');
      const lsn = rows[0]?.lsn;
      // A server not in recovery (the primary itself, or a promoted replica that no longer follows it) has none.
      if (!lsn) return this.failed(new Error('it is not a streaming replica (pg_last_wal_replay_lsn() is null)'));
      const replayed = parseLsn(lsn);
      if (this.down) this.log(`read replica ${redact(this.url)} answers again`);
      this.down = false;
      if (this.replayed === undefined || replayed > this.replayed) this.replayed = replayed;
    } catch (error) {
      this.failed(error as Error);
    }
  }

  /** Sets the replica aside; what it had replayed is forgotten, since it may come back as another server. */
  failed(error: Error): void {
    if (!this.down) this.log(`read replica ${redact(this.url)} is set aside, tried again every ${this.retryAfterMs} ms: ${error.message}`);
    this.down = true;
    this.downUntil = performance.now() + this.retryAfterMs;
    this.replayed = undefined;
  }
}

/**
 * Sends reads to streaming replicas, round robin, once they hold what this process has seen: a replica is used
 * only when its replay position is at least the watcher's LSN (the primary's WAL position when the read models'
 * checkpoint was last read), so every command this process answered is visible there. A read waits at most
 * `waitMs` for that, and any replica trouble sends it to the primary: a replica never causes an error answer.
 */
export function createReadRouter(
  primary: Pool,
  replicaUrls: readonly string[],
  watcher: Pick<ReadModelWatcher, 'lsn'>,
  options: ReadRouterOptions,
): ReadRouter {
  const counts: ReadCounts = { replica: 0, primary: { positionUnknown: 0, lagging: 0, unavailable: 0, failed: 0 } };
  const snapshot = () => ({ replica: counts.replica, primary: { ...counts.primary } });
  if (replicaUrls.length === 0) return { reads: primary, counts: snapshot, stop: async () => {} };

  const { waitMs, pollMs = 5, retryAfterMs = 2_000, poolSize = 20, log = () => {} } = options;
  const replicas = replicaUrls.map((url) => new Replica(url, poolSize, pollMs, retryAfterMs, log));
  let turn = 0;

  /** The next replica, round robin, among those up that have replayed `target`. */
  const pick = (up: Replica[], target: bigint): Replica | undefined => {
    const ready = up.filter((replica) => replica.replayed !== undefined && replica.replayed >= target);
    return ready.length ? ready[turn++ % ready.length] : undefined;
  };

  const caughtUpReplica = async (target: bigint): Promise<Replica | PrimaryReadReason> => {
    const deadline = performance.now() + waitMs;
    // Made only when a read has to wait: most find a replica ready at once.
    let timeUp: Promise<void> | undefined;
    for (;;) {
      const up = replicas.filter((replica) => replica.available(performance.now()));
      if (up.length === 0) return 'unavailable';
      const ready = pick(up, target);
      if (ready) return ready;
      // Probed even when there is no time left to wait, so the next read finds the replicas' new positions.
      const probes = Promise.all(up.filter((replica) => replica.replayed === undefined || replica.replayed < target).map((replica) => replica.refresh()));
      if (performance.now() >= deadline) return 'lagging';
      timeUp ??= sleep(deadline - performance.now());
      await Promise.race([probes, timeUp]);
    }
  };

  const onPrimary = (reason: PrimaryReadReason, args: unknown[]) => {
    counts.primary[reason] += 1;
    return (primary.query as (...args: unknown[]) => Promise<unknown>)(...args);
  };

  const route = async (args: unknown[]): Promise<unknown> => {
    const lsn = watcher.lsn;
    if (lsn === undefined) return onPrimary('positionUnknown', args);
    const replica = await caughtUpReplica(parseLsn(lsn));
    if (typeof replica === 'string') return onPrimary(replica, args);
    try {
      const result = await (replica.pool.query as (...args: unknown[]) => Promise<unknown>)(...args);
      counts.replica += 1;
      return result;
    } catch (error) {
      // A query that is itself wrong fails on the primary too; anything else (a lost connection, a recovery conflict) is answered there.
      if (isConnectionFailure(error)) replica.failed(error as Error);
      return onPrimary('failed', args);
    }
  };

  /** Reads sent together go together: to one caught-up replica, or all to the primary. */
  const routeTogether = async (statements: readonly Statement[]) => {
    const toPrimary = (reason: PrimaryReadReason) => {
      counts.primary[reason] += statements.length;
      return pipelined(primary, statements);
    };
    const lsn = watcher.lsn;
    if (lsn === undefined) return toPrimary('positionUnknown');
    const replica = await caughtUpReplica(parseLsn(lsn));
    if (typeof replica === 'string') return toPrimary(replica);
    let outcomes;
    try {
      outcomes = await pipelined(replica.pool, statements);
    } catch (error) {
      // No connection to be had: the replica is set aside and the primary answers.
      replica.failed(error as Error);
      return toPrimary('failed');
    }
    // As a read alone: any failure is answered by the primary, and connection trouble sets the replica aside.
    const failures = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failures.length) {
      const lost = failures.find((failure) => isConnectionFailure(failure.reason));
      if (lost) replica.failed(lost.reason as Error);
      return toPrimary('failed');
    }
    counts.replica += statements.length;
    return outcomes;
  };

  const reads: QueryableTogether = {
    queryTogether: routeTogether,
    query: (...args: unknown[]) => {
      // Callback and streaming (submittable) calls are not routed: nothing here uses them, and they keep the pool's semantics.
      const first = args[0] as { submit?: unknown } | undefined;
      if (typeof args[args.length - 1] === 'function' || typeof first?.submit === 'function') {
        return (primary.query as (...args: unknown[]) => unknown)(...args);
      }
      return route(args);
    },
  } as unknown as QueryableTogether;

  return {
    reads,
    counts: snapshot,
    async stop() {
      await Promise.all(replicas.map((replica) => replica.pool.end().catch(() => {})));
    },
  };
}
