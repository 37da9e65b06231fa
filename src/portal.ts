import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../platform/config';
import { createPool, ensureDatabase, migrate, type Pool } from '../platform/db';
import { createEventStore } from '../platform/eventstore';
import { createReadRouter, type ReadRouter } from '../platform/readReplicas';
import { buildApp, type AppOptions } from './server';
import { readModels } from '../projections';
import { ProjectionRunner } from '../projections/runner';
import { ProjectionWatcher } from '../projections/watcher';
import { startWorkers } from '../workers';
import { seed } from './seed';
import type { Services } from '../platform/services';

/** The processes of docker-compose; `npm start` runs all three in one. */
export type PortalProcess = 'api' | 'projector' | 'worker';

export class StartupError extends Error {}

export interface Portal {
  services: Services;
  /** Where `services.reads` goes, with its counts of replica and primary reads. */
  readRouter: ReadRouter;
  app: FastifyInstance | undefined;
  url: string | undefined;
  stop(): Promise<void>;
}

const redactUrl = (url: string) => url.replace(/\/\/[^@/]*@/, '//');

async function connectPostgres(config: Config): Promise<Pool> {
  try {
    await ensureDatabase(config.DATABASE_URL);
    await migrate(config.DATABASE_URL);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ETIMEDOUT' || (error as Error).message?.includes('ECONNREFUSED')) {
      throw new StartupError(
        `PostgreSQL is not reachable at ${redactUrl(config.DATABASE_URL)}: start it (for example: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start) or set DATABASE_URL.`,
      );
    }
    throw error;
  }
  return createPool(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
}

/** The longest a request waits for Redis before its rate limit is counted in memory instead. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

async function connectRedis(config: Config): Promise<Redis> {
  // The API's client (rate limits) fails fast while Redis is away instead of queueing commands until it
  // returns: the limits then count in memory (throttle.ts), so no request waits on Redis for long.
  const redis = new Redis(config.REDIS_URL, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 3000,
    retryStrategy: (n) => (n > 3 ? null : 200),
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    redis.disconnect();
    throw new StartupError(
      `Redis is not reachable at ${redactUrl(config.REDIS_URL)}: start it (for example: redis-server --daemonize yes --port 6379) or set REDIS_URL.`,
    );
  }
  // Once up, keep reconnecting for good.
  redis.options.retryStrategy = (n) => Math.min(n * 200, 5000);
  return redis;
}

export interface StartOptions {
  processes?: readonly PortalProcess[];
  /** Seed demo data when the event log is empty. */
  seedWhenEmpty?: boolean;
  listen?: boolean;
  app?: AppOptions;
  log?: (line: string) => void;
}

async function seedDemoData(services: Services, log: (line: string) => void): Promise<void> {
  log('Empty database: creating the demo data.');
  await seed(services, log);
}

/** Connects, migrates, starts the chosen processes and, on an empty log, seeds the demo data. */
export async function startPortal(config: Config, options: StartOptions = {}): Promise<Portal> {
  const processes = options.processes ?? ['api', 'projector', 'worker'];
  const log = options.log ?? (() => {});
  const pool = await connectPostgres(config);
  const redis = await connectRedis(config).catch(async (error) => {
    await pool.end();
    throw error;
  });
  const store = await createEventStore({ eventStoreUrl: config.EVENTSTORE_URL, pool, databaseUrl: config.DATABASE_URL });
  const watcher = new ProjectionWatcher(pool, config.DATABASE_URL, config.READ_YOUR_WRITES_WAIT_MS);
  await watcher.start();
  const readRouter = createReadRouter(pool, config.READ_DATABASE_URL ?? [], watcher, {
    waitMs: config.REPLICA_WAIT_MS,
    poolSize: config.DATABASE_POOL_SIZE,
    log,
  });
  const services: Services = { config, pool, reads: readRouter.reads, store, watcher, redis };

  const stops: Array<() => Promise<void>> = [];
  if (processes.includes('projector')) {
    const projector = new ProjectionRunner(store, pool, readModels, { onError: (error) => log(`projector: ${error.message}`) });
    projector.start();
    stops.push(() => projector.stop());
  }
  const seeding = options.seedWhenEmpty && (await store.headPosition()) === undefined;
  // Months of demo history are seeded before the workers start: replaying them while the workers run
  // would let a worker act on a half-told story (expiring a registration whose validity lapsed months
  // ago before its recorded extension is added). The workers then follow the whole log from its start,
  // as after any restart. The recent records alone are seeded with the workers running, as in use.
  const seedBeforeWorkers = seeding && config.DEMO_HISTORY_DAYS > 0;
  if (seedBeforeWorkers) await seedDemoData(services, log);
  if (processes.includes('worker')) {
    const workers = await startWorkers(services, { log });
    stops.push(() => workers.stop());
  }
  if (seeding && !seedBeforeWorkers) await seedDemoData(services, log);

  let app: FastifyInstance | undefined;
  let url: string | undefined;
  if (processes.includes('api')) {
    app = await buildApp(services, options.app);
    if (options.listen !== false) {
      url = await app.listen({ port: config.PORT, host: config.HOST });
      stops.unshift(() => app!.close());
    }
  }

  return {
    services,
    readRouter,
    app,
    url,
    async stop() {
      for (const stop of stops) await stop().catch(() => {});
      await store.close();
      await watcher.stop();
      await readRouter.stop();
      redis.disconnect();
      await pool.end();
    },
  };
}
