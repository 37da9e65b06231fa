import { PRINCIPALS_CHANNEL } from '../platform/principalCache';
import type { Pool } from '../platform/db';
import { comparePositions, type EventStore, type GlobalPosition, type RecordedEvent } from '../platform/eventstore';
import { CheckpointStore } from './checkpoints';
import { applyToProjection, projectionStages, PROJECTED_SECRET_TABLES, SECRET_SCHEMA, secretSchemaBeside, type Projection } from './projection';
import { READ_MODELS_CHECKPOINT } from './runner';

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
export async function rebuildProjections(
  store: EventStore,
  pool: Pool,
  projections: readonly Projection[],
  options: { batchSize?: number } = {},
): Promise<{ head: GlobalPosition | undefined; tables: string[] }> {
  const { head, tables } = await rebuildInto(store, pool, projections, NEXT_SCHEMA, options);
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

/**
 * The first half of a rebuild: the whole log replayed into fresh copies of the read tables in `schema`
 * (and of the projected secrets in the schema beside it), replacing whatever that schema held, with the
 * live schemas left as they are; then their other indexes and statistics.
 */
async function rebuildInto(
  store: EventStore,
  pool: Pool,
  projections: readonly Projection[],
  schema: string,
  options: { batchSize?: number },
): Promise<{ head: GlobalPosition | undefined; tables: string[] }> {
  const { tables, laterIndexes } = await createEmptyCopies(pool, schema);
  const head = await replayEvents(store, pool, projections, schema, options.batchSize ?? REBUILD_BATCH_SIZE);
  // Index builds and statistics use one core each: two at a time.
  await inParallel(laterIndexes, 2, (index) => pool.query(`BEGIN; SET LOCAL maintenance_work_mem = '256MB'; ${index}; COMMIT`));
  await inParallel(tables, 2, (table) => pool.query(`ANALYZE ${schema}.${table}`));
  // What is worked out from the final state reads through the indexes just built, with their statistics.
  await finishReplay(pool, projections, schema);
  return { head, tables };
}

/**
 * Replays the whole log, up to the head it finds, into the empty copies in `schema` (createEmptyCopies),
 * and answers that head.
 */
export async function replayInto(
  store: EventStore,
  pool: Pool,
  projections: readonly Projection[],
  schema: string,
  batchSize: number = REBUILD_BATCH_SIZE,
): Promise<GlobalPosition | undefined> {
  const head = await replayEvents(store, pool, projections, schema, batchSize);
  await finishReplay(pool, projections, schema);
  return head;
}

async function replayEvents(store: EventStore, pool: Pool, projections: readonly Projection[], schema: string, batchSize: number) {
  const head = await store.headPosition();
  if (head) await replay(store, pool, projections, head, batchSize, schema);
  return head;
}

/** Each projection's `replayed` step, in a transaction of its own. */
async function finishReplay(pool: Pool, projections: readonly Projection[], schema: string): Promise<void> {
  for (const projection of projections.filter((p) => p.replayed)) {
    const client = await pool.connect();
    try {
      await client.query(`BEGIN; SET LOCAL search_path TO ${schema}, ${secretSchemaBeside(schema)}, public`);
      await projection.replayed!(client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}

/**
 * Empty copies of the read tables in `schema` and of the projected secrets beside it, replacing what
 * those schemas held, with their keys and unique indexes (upserts need them); answers the other
 * indexes' definitions, to build once the copies are filled.
 */
export async function createEmptyCopies(pool: Pool, schema: string): Promise<{ tables: string[]; laterIndexes: string[] }> {
  const secretSchema = secretSchemaBeside(schema);
  const { rows } = await pool.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'read' AND table_type = 'BASE TABLE' ORDER BY 1",
  );
  const tables = rows.map((r) => r.table_name);
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.query(`CREATE SCHEMA ${schema}`);
  // The analysts' read-only role keeps reading the new tables once they are swapped in.
  await pool.query('SELECT public.grant_analyst_read($1)', [schema]);
  for (const table of tables) {
    await pool.query(`CREATE TABLE ${schema}.${table} (LIKE read.${table} INCLUDING ALL EXCLUDING INDEXES)`);
  }
  // Projected secrets are rebuilt too, beside the read models but outside their schema.
  await pool.query(`DROP SCHEMA IF EXISTS ${secretSchema} CASCADE`);
  await pool.query(`CREATE SCHEMA ${secretSchema}`);
  for (const table of PROJECTED_SECRET_TABLES) {
    await pool.query(`CREATE TABLE ${secretSchema}.${table} (LIKE ${SECRET_SCHEMA}.${table} INCLUDING ALL)`);
  }
  const { rows: constraints } = await pool.query<{ table_name: string; name: string; definition: string; index_name: string }>(
    `SELECT c.conrelid::regclass::text AS table_name, c.conname AS name, pg_get_constraintdef(c.oid) AS definition, c.conindid::regclass::text AS index_name
     FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
     WHERE n.nspname = 'read' AND c.contype IN ('p', 'u')`,
  );
  for (const c of constraints) {
    await pool.query(`ALTER TABLE ${schema}.${c.table_name.replace(/^read\./, '')} ADD CONSTRAINT ${quoteIdent(c.name)} ${c.definition}`);
  }
  const constraintIndexes = new Set(constraints.map((c) => c.index_name.replace(/^read\./, '')));
  const { rows: indexes } = await pool.query<{ indexname: string; indexdef: string }>("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'read'");
  const inNextSchema = (definition: string) => definition.replace(/ ON read\./, ` ON ${schema}.`);
  const ownIndexes = indexes.filter((i) => !constraintIndexes.has(i.indexname));
  for (const index of ownIndexes.filter((i) => i.indexdef.startsWith('CREATE UNIQUE'))) await pool.query(inNextSchema(index.indexdef));
  return { tables, laterIndexes: ownIndexes.filter((i) => !i.indexdef.startsWith('CREATE UNIQUE')).map((i) => inNextSchema(i.indexdef)) };
}

/**
 * Replays the log up to `head` into the next schema. The stages (Projection.stage) form a pipeline,
 * each on its own connection: while the record models apply a batch, the status history applies the
 * one before and the audit log and activity feed the one before that, and the store reads ahead, so
 * both cores work. One transaction per stage and batch; a rebuild that stops midway starts again from
 * scratch, so the checkpoint is written once, at the end.
 */
async function replay(
  store: EventStore,
  pool: Pool,
  projections: readonly Projection[],
  head: GlobalPosition,
  batchSize: number,
  schema: string,
): Promise<void> {
  const stages = projectionStages(projections);
  const clients = await Promise.all(stages.map(() => pool.connect()));
  const applyStage = async (k: number, events: readonly RecordedEvent[]) => {
    const client = clients[k];
    await client.query(`BEGIN; SET LOCAL search_path TO ${schema}, ${secretSchemaBeside(schema)}, public; SET LOCAL synchronous_commit = off`);
    try {
      for (const projection of stages[k]) await applyToProjection(projection, events, client, { replaying: true });
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  };
  let last: GlobalPosition | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      let previous: Array<Promise<void>> = stages.map(() => Promise.resolve());
      const subscription = store.subscribeToAll({ batchSize }, async (events) => {
        // Stage k takes this batch once stage k - 1 has applied it and stage k has applied the previous one.
        let earlier: Promise<unknown> = Promise.resolve();
        const current = stages.map((_, k) => {
          const applied = Promise.all([earlier, previous[k]]).then(() => applyStage(k, events));
          earlier = applied;
          return applied;
        });
        current.forEach((applied) => applied.catch(() => {}));
        const lastStageBehind = previous[previous.length - 1];
        previous = current;
        last = events[events.length - 1].position;
        if (comparePositions(last, head) >= 0) {
          await Promise.all(current);
          void subscription.stop().then(resolve, reject);
        } else {
          // The next batch is read once the first stage is free and the last is at most one batch behind.
          await Promise.all([current[0], lastStageBehind]);
        }
      });
      subscription.done.then((error) => error && reject(error), reject);
    });
  } finally {
    for (const client of clients) client.release();
  }
  await new CheckpointStore(`${schema}.checkpoints`).set(pool, READ_MODELS_CHECKPOINT, last!);
}

/** Runs `work` over the items, at most `width` at a time. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
