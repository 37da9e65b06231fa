import { createHash } from 'node:crypto';
import pg from 'pg';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';

// bigint columns (positions, revisions) arrive as strings; callers convert with BigInt().
export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** What a read needs: the pool, or a client inside a transaction. */
export type Queryable = { query: PoolClient['query'] };

/** `connectionTimeoutMillis` bounds how long a checkout waits for a server that does not answer (a replica that is down). */
export function createPool(databaseUrl: string, max = 20, options: Pick<pg.PoolConfig, 'connectionTimeoutMillis'> = {}): Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max, ...options });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {});
  return pool;
}

const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

export async function migrate(databaseUrl: string): Promise<void> {
  await runner({
    databaseUrl,
    dir: migrationsDir,
    direction: 'up',
    migrationsTable: 'pgmigrations',
    checkOrder: true,
    // Processes starting together (API processes, docker-compose services) take turns instead of failing.
    advisoryLockMode: 'wait',
    log: () => {},
  });
}

/** Creates the database named in the URL when it does not exist yet (a new machine's first start). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } catch (error) {
    // Two processes starting at once may race to create it.
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await client.end();
  }
}

/** Asks the database the simplest question, to learn whether it answers. */
export async function pingDatabase(pool: Pool): Promise<void> {
  await pool.query('SELECT 1');
}

/** Runs `work` in one transaction on one client. */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * A query each connection plans once and then reuses, for statements run on every request. Name
 * columns rather than `*`, so a later migration that adds columns does not change a cached plan's
 * result type.
 */
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  return { name: `q${createHash('sha1').update(text).digest('hex').slice(0, 16)}`, text, values };
}
