import cluster, { type Worker } from 'node:cluster';

/**
 * API processes that share one port through node:cluster: the primary accepts connections and hands
 * them out round robin, so one Node event loop per core serves requests. Everything an API process
 * must agree on with the others already lives outside it (sessions in Postgres, rate counts in Redis,
 * read-your-writes through the projector's checkpoint), so any process may answer any request.
 */
export interface ApiProcesses {
  /** Process ids of the API processes now running. */
  pids(): number[];
  /** Stops every API process and waits until they have exited. */
  stop(): Promise<void>;
}

/** A process that dies this soon after it started is replaced only after a pause, so a crash loop does not spin. */
const QUICK_DEATH_MS = 5_000;
const PAUSE_AFTER_QUICK_DEATH_MS = 1_000;
const STOP_WAIT_MS = 10_000;

interface Options {
  count: number;
  /** Variables every API process gets on top of this one's (a development JWT secret must be shared). */
  env: Record<string, string>;
  log: (line: string) => void;
}

/** Forks `count` API processes and resolves once each one listens; a process that ends later is replaced. */
export async function startApiProcesses({ count, env, log }: Options): Promise<ApiProcesses> {
  let stopping = false;
  const startedAt = new Map<Worker, number>();

  const fork = (): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork(env);
      startedAt.set(worker, Date.now());
      const failed = (code: number | null) => reject(new Error(`An API process exited before it listened (code ${code}).`));
      worker.once('exit', failed);
      worker.once('listening', () => {
        worker.off('exit', failed);
        worker.once('exit', (code, signal) => replace(worker, code, signal));
        resolve(worker);
      });
    });

  const replace = (worker: Worker, code: number | null, signal: string | null) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) return;
    log(`API process ${worker.process.pid} ended (${signal ?? `code ${code}`}); starting another.`);
    const restart = setTimeout(
      () => {
        if (!stopping) fork().catch((error: Error) => log(error.message));
      },
      lived < QUICK_DEATH_MS ? PAUSE_AFTER_QUICK_DEATH_MS : 0,
    );
    restart.unref();
  };

  const stop = async () => {
    stopping = true;
    const running = [...startedAt.keys()].filter((worker) => !worker.isDead());
    await Promise.all(
      running.map(
        (worker) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => worker.kill('SIGKILL'), STOP_WAIT_MS);
            worker.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            // Each process closes its server and connections on SIGTERM (main.ts).
            worker.process.kill('SIGTERM');
          }),
      ),
    );
  };

  try {
    await Promise.all(Array.from({ length: count }, fork));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    pids: () => [...startedAt.keys()].filter((worker) => !worker.isDead()).map((worker) => worker.process.pid!),
    stop,
  };
}
