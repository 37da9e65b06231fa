import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { loadConfig } from '../../platform/config';
import { startPortal, type Portal, type PortalProcess } from '../portal';
import { createTestDatabase, type TestDatabase } from './database';

export interface TestPortal {
  portal: Portal;
  app: FastifyInstance;
  db: TestDatabase;
  /** http://127.0.0.1:<port> when started with `listen`. */
  url: string;
  close(): Promise<void>;
}

export interface TestPortalOptions {
  processes?: PortalProcess[];
  listen?: boolean;
  /** Serve the built web app (browser tests). */
  web?: boolean;
  env?: Record<string, string>;
  /** Another PostgreSQL server for the test database (its `postgres` database's URL), and servers replicating it that reads go to (READ_DATABASE_URL). */
  postgres?: { serverUrl: string; replicaServerUrls?: string[] };
}

/** The URL of `databaseUrl`'s database on another server. */
function sameDatabaseOn(serverUrl: string, databaseUrl: string): string {
  const url = new URL(serverUrl);
  url.pathname = new URL(databaseUrl).pathname;
  return url.toString();
}

/** A whole portal on a fresh database with the demo data, and its own Redis key prefix. */
export async function startTestPortal(options: TestPortalOptions = {}): Promise<TestPortal> {
  const db = await createTestDatabase(options.postgres?.serverUrl);
  const replicas = options.postgres?.replicaServerUrls?.map((serverUrl) => sameDatabaseOn(serverUrl, db.url));
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    REDIS_PREFIX: prefix,
    PORT: '0',
    HOST: '127.0.0.1',
    SMTP_URL: undefined,
    EVENTSTORE_URL: undefined,
    READ_DATABASE_URL: replicas?.join(','),
    // Every test signs in and registers from one address: the limits are raised unless a test is about them.
    LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '100000',
    REGISTRATIONS_PER_IP_PER_HOUR: '100000',
    API_REQUESTS_PER_MINUTE: '1000000',
    API_REQUESTS_PER_ADDRESS_PER_MINUTE: '1000000',
    // A busy test machine must not turn requests away; the shedding test sets its own threshold.
    MAX_EVENT_LOOP_DELAY_MS: '0',
    // A test that expects 201 must not get 202 because a busy machine delayed the projector; tests about 202 set a short wait.
    READ_YOUR_WRITES_WAIT_MS: '15000',
    // The recent demo records only, unless a test is about the months of history.
    DEMO_HISTORY_DAYS: '0',
    ...options.env,
  });
  const plugins = [];
  if (options.web) {
    const { ensureWebBuild } = await import('../cli/build-web');
    const { registerSpa } = await import('../plugins/spa');
    await ensureWebBuild();
    plugins.push(registerSpa);
  }
  const portal = await startPortal(config, {
    processes: options.processes ?? ['api', 'projector', 'worker'],
    seedWhenEmpty: true,
    listen: options.listen ?? false,
    app: { plugins, logger: process.env.TEST_LOG === '1' ? { level: 'error' } : false },
  });
  return {
    portal,
    app: portal.app!,
    db,
    url: portal.url?.replace('0.0.0.0', '127.0.0.1') ?? '',
    async close() {
      // Stop first so no worker writes keys after the clean-up.
      const cleanup = new Redis(config.REDIS_URL);
      await portal.stop();
      const keys = await cleanup.keys(`${prefix}*`).catch(() => []);
      if (keys.length) await cleanup.del(...keys).catch(() => {});
      cleanup.disconnect();
      await db.drop();
    },
  };
}
