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

/** At most this many statements are kept prepared on one connection; further texts run unprepared. */
export const PREPARED_PER_CONNECTION = 1_000;

/** Statement names by text, so a text repeated on every request is hashed once (a bounded number of texts). */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `q${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    if (statementNames.size < 10 * PREPARED_PER_CONNECTION) statementNames.set(text, name);
  }
  return name;
}

/**
 * A statement's text and values, when the connection may prepare it: it comes with a values array (empty
 * or not), has no name of its own and is not a cursor. A text without values may hold several
 * statements (`BEGIN; …`), which only the simple protocol runs, so it runs as it is.
 */
function preparable(config: unknown, values: unknown): { text: string; values: unknown[]; rest: object } | undefined {
  if (typeof config === 'string') return Array.isArray(values) ? { text: config, values, rest: {} } : undefined;
  if (!config || typeof config !== 'object' || 'submit' in config || 'name' in config) return undefined;
  const { text, values: own, ...rest } = config as pg.QueryConfig;
  const params = own ?? values;
  return typeof text === 'string' && Array.isArray(params) ? { text, values: params, rest } : undefined;
}

const STALE_PLAN = 'cached plan must not change result type';

/**
 * A connection that prepares every statement with values the first time it runs it and reuses it
 * after: Postgres parses it once per connection and, once a generic plan is as good as a fresh one,
 * stops planning it. Measured under the read mix, planning took three times as long as executing.
 * A text is named by its hash, so the same text gets the same statement.
 */
class PreparingClient extends pg.Client {
  private readonly preparedNames = new Set<string>();

  // `query` has many overloads (the pool calls it with a callback); this reads its arguments and hands them on unchanged or named.
  query(...args: unknown[]): never {
    const run = super.query as (...a: unknown[]) => never;
    const callback = typeof args.at(-1) === 'function' ? (args.at(-1) as (error: Error | null, result?: unknown) => void) : undefined;
    const values = typeof args[1] === 'function' ? undefined : args[1];
    const statement = args.length <= 3 ? preparable(args[0], values) : undefined;
    if (!statement) return run.apply(this, args);
    const name = statementName(statement.text);
    if (!this.preparedNames.has(name)) {
      if (this.preparedNames.size >= PREPARED_PER_CONNECTION) return run.apply(this, args);
      this.preparedNames.add(name);
    }
    const named = { ...statement.rest, name, text: statement.text, values: statement.values };
    // A migration that adds a column to a table a prepared `SELECT *` reads makes the statement fail on
    // this connection; closing the connection lets the pool open one that prepares it afresh.
    const closeIfStale = (error: { message?: string } | null) => {
      if (error?.message?.includes(STALE_PLAN)) void this.end().catch(() => {});
    };
    if (callback) {
      return run.call(this, named, (error: Error | null, result?: unknown) => {
        closeIfStale(error);
        callback(error, result);
      });
    }
    return (run.call(this, named) as Promise<unknown>).catch((error: { message?: string }) => {
      closeIfStale(error);
      throw error;
    }) as never;
  }
}

/** A statement and its parameters, as `query` takes them. */
export interface Statement {
  text: string;
  values: unknown[];
}

/** Where reads can also be sent together on one connection: a read router (a pool is one by `pipelined`). */
export interface QueryableTogether extends Queryable {
  queryTogether(statements: readonly Statement[]): Promise<PromiseSettledResult<pg.QueryResult>[]>;
}

/** A connection that failed (no SQLSTATE from the server) or holds a stale prepared plan is not given back to the pool. */
const spoilsConnection = (outcome: PromiseSettledResult<unknown>) =>
  outcome.status === 'rejected' && (!(outcome.reason as { code?: unknown })?.code || String((outcome.reason as Error).message).includes(STALE_PLAN));

/**
 * Runs statements on one connection of the pool, written to it at once (pg's pipeline mode): one round trip,
 * each prepared as it is alone (PreparingClient) so Postgres reuses its plan, and each answered with its own
 * rows or its own error. The connection is pipelined only for these statements: a transaction on it later
 * still waits for each answer before it sends the next.
 */
export async function pipelined(pool: Pool, statements: readonly Statement[]): Promise<PromiseSettledResult<pg.QueryResult>[]> {
  const client = await pool.connect();
  const mode = client as unknown as { pipeline: boolean };
  mode.pipeline = true;
  // Each query writes its messages to the socket as it is issued; corked, the batch leaves in one write.
  const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
  let outcomes: PromiseSettledResult<pg.QueryResult>[] | undefined;
  try {
    stream.cork();
    const answers = statements.map(({ text, values }) => client.query(text, values));
    stream.uncork();
    outcomes = await Promise.allSettled(answers);
    return outcomes;
  } finally {
    mode.pipeline = false;
    const spoilt = !outcomes || outcomes.some(spoilsConnection);
    client.release(spoilt ? new Error('a pipelined read failed the connection') : undefined);
  }
}

/**
 * How long a connection may sit unused before the pool closes it. Its prepared statements go with it, and
 * a fresh connection plans each statement anew for its first runs, so a quiet spell of seconds (pg's
 * default is ten) must not cost every connection its plans; a quiet minute still gives connections back.
 */
export const POOL_IDLE_TIMEOUT_MS = 60_000;

/** `connectionTimeoutMillis` bounds how long a checkout waits for a server that does not answer (a replica that is down). */
export function createPool(databaseUrl: string, max = 20, options: Pick<pg.PoolConfig, 'connectionTimeoutMillis'> = {}): Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max, Client: PreparingClient, idleTimeoutMillis: POOL_IDLE_TIMEOUT_MS, ...options });
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
