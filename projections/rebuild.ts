import { PRINCIPALS_CHANNEL } from '../src/plugins/principalCache';
import type { Pool } from '../src/db';
import { comparePositions, type EventStore, type GlobalPosition } from '../src/eventstore';
import { PROJECTED_SECRET_TABLES, SECRET_SCHEMA, secretSchemaBeside, type Projection } from './projection';
import { ProjectionRunner } from './runner';

const NEXT_SCHEMA = 'read_rebuild';
const RETIRED_SCHEMA = 'read_retired';
const NEXT_SECRET_SCHEMA = secretSchemaBeside(NEXT_SCHEMA);

/** A rebuild reads the log in larger batches than the live projector: fewer round trips per event. */
const REBUILD_BATCH_SIZE = 2000;

/**
 * Replays the whole log into fresh copies of the read tables, then swaps them in at once.
 * A projector running meanwhile notices the swapped checkpoint and resumes from it.
 * The copies start with their keys and unique indexes only (upserts need them); the other indexes
 * are built once at the end, which is much faster than maintaining them row by row, and they keep
 * their names, so later migrations find them.
 */
export async function rebuildProjections(store: EventStore, pool: Pool, projections: readonly Projection[]): Promise<{ head: GlobalPosition | undefined; tables: string[] }> {
  const { rows } = await pool.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'read' AND table_type = 'BASE TABLE' ORDER BY 1",
  );
  const tables = rows.map((r) => r.table_name);
  await pool.query(`DROP SCHEMA IF EXISTS ${NEXT_SCHEMA} CASCADE`);
  await pool.query(`CREATE SCHEMA ${NEXT_SCHEMA}`);
  // The analysts' read-only role keeps reading the new tables once they are swapped in.
  await pool.query('SELECT public.grant_analyst_read($1)', [NEXT_SCHEMA]);
  for (const table of tables) {
    await pool.query(`CREATE TABLE ${NEXT_SCHEMA}.${table} (LIKE read.${table} INCLUDING ALL EXCLUDING INDEXES)`);
  }
  // Projected secrets are rebuilt too, beside the read models but outside their schema.
  await pool.query(`DROP SCHEMA IF EXISTS ${NEXT_SECRET_SCHEMA} CASCADE`);
  await pool.query(`CREATE SCHEMA ${NEXT_SECRET_SCHEMA}`);
  for (const table of PROJECTED_SECRET_TABLES) {
    await pool.query(`CREATE TABLE ${NEXT_SECRET_SCHEMA}.${table} (LIKE ${SECRET_SCHEMA}.${table} INCLUDING ALL)`);
  }
  const { rows: constraints } = await pool.query<{ table_name: string; name: string; definition: string; index_name: string }>(
    `SELECT c.conrelid::regclass::text AS table_name, c.conname AS name, pg_get_constraintdef(c.oid) AS definition, c.conindid::regclass::text AS index_name
     FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
     WHERE n.nspname = 'read' AND c.contype IN ('p', 'u')`,
  );
  for (const c of constraints) {
    await pool.query(`ALTER TABLE ${NEXT_SCHEMA}.${c.table_name.replace(/^read\./, '')} ADD CONSTRAINT ${quoteIdent(c.name)} ${c.definition}`);
  }
  const constraintIndexes = new Set(constraints.map((c) => c.index_name.replace(/^read\./, '')));
  const { rows: indexes } = await pool.query<{ indexname: string; indexdef: string }>("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'read'");
  const inNextSchema = (definition: string) => definition.replace(/ ON read\./, ` ON ${NEXT_SCHEMA}.`);
  const ownIndexes = indexes.filter((i) => !constraintIndexes.has(i.indexname));
  for (const index of ownIndexes.filter((i) => i.indexdef.startsWith('CREATE UNIQUE'))) await pool.query(inNextSchema(index.indexdef));

  const head = await store.headPosition();
  if (head) {
    await new Promise<void>((resolve, reject) => {
      const runner = new ProjectionRunner(store, pool, projections, {
        schema: NEXT_SCHEMA,
        batchSize: REBUILD_BATCH_SIZE,
        onError: (error) => {
          void runner.stop();
          reject(error);
        },
        onBatch: (position: GlobalPosition) => {
          if (comparePositions(position, head) >= 0) void runner.stop().then(resolve);
        },
      });
      runner.start();
    });
  }

  for (const index of ownIndexes.filter((i) => !i.indexdef.startsWith('CREATE UNIQUE'))) await pool.query(inNextSchema(index.indexdef));
  await pool.query(`ANALYZE ${tables.map((table) => `${NEXT_SCHEMA}.${table}`).join(', ')}`);

  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`DROP SCHEMA IF EXISTS ${RETIRED_SCHEMA} CASCADE`);
    await client.query(`ALTER SCHEMA read RENAME TO ${RETIRED_SCHEMA}`);
    await client.query(`ALTER SCHEMA ${NEXT_SCHEMA} RENAME TO read`);
    await client.query(`DROP SCHEMA ${RETIRED_SCHEMA} CASCADE`);
    for (const table of PROJECTED_SECRET_TABLES) {
      await client.query(`DROP TABLE ${SECRET_SCHEMA}.${table}`);
      await client.query(`ALTER TABLE ${NEXT_SECRET_SCHEMA}.${table} SET SCHEMA ${SECRET_SCHEMA}`);
    }
    await client.query(`DROP SCHEMA ${NEXT_SECRET_SCHEMA}`);
    // Every account may read differently now: API processes forget what they remembered of callers.
    await client.query('SELECT pg_notify($1, $2)', [PRINCIPALS_CHANNEL, '*']);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return { head, tables };
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
