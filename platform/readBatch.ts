import pg from 'pg';
import { pipelined, type Queryable, type QueryableTogether, type Statement } from './db';

/**
 * Reads issued together travel as one round trip. A dashboard reads a dozen figures side by side
 * (`Promise.all`), each from the definition its list uses too; sent one by one, each is a round trip
 * that wakes a server process, and the round trips, not the figures, were most of the dashboard's cost.
 *
 * The reads issued in one turn of the event loop are written together on one connection (pg's pipeline
 * mode), each as the prepared statement it is alone, so Postgres keeps its plan: written out as one
 * multi-statement text instead, every dashboard planned its twenty statements afresh, and planning took
 * over two thirds of Postgres's time. Each read gets its own rows or its own error. A turn with one read,
 * a read that is more than a text with values, or a place that cannot send reads together (a client
 * inside a transaction) runs each read as it was given.
 */
export function readBatch(db: Queryable): Queryable {
  const together = togetherOf(db);
  if (!together) return db;
  let pending: Pending[] = [];

  const flush = () => {
    const batch = pending;
    pending = [];
    if (batch.length === 1) return void (db.query(batch[0].text, batch[0].values) as Promise<pg.QueryResult>).then(batch[0].resolve, batch[0].reject);
    together(batch).then(
      (outcomes) =>
        batch.forEach((read, i) => {
          const outcome = outcomes[i];
          if (outcome.status === 'fulfilled') read.resolve(outcome.value);
          else read.reject(outcome.reason);
        }),
      (error: unknown) => batch.forEach((read) => read.reject(error)),
    );
  };

  const query = (config: string | pg.QueryConfig, values?: unknown[]) => {
    // Anything but a plain text with values (a named statement, a row mode, a cursor) runs as given.
    if (typeof config !== 'string' && Object.keys(config).some((key) => key !== 'text' && key !== 'values')) return db.query(config as pg.QueryConfig, values);
    const text = typeof config === 'string' ? config : config.text;
    const own = typeof config === 'string' ? values : (config.values ?? values);
    return new Promise<pg.QueryResult>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ text, values: own ?? [], resolve, reject });
    });
  };
  return { query: query as Queryable['query'] };
}

interface Pending extends Statement {
  resolve(result: pg.QueryResult): void;
  reject(error: unknown): void;
}

/** How `db` sends several reads together: a read router's own way, a pool's pipeline, or not at all. */
function togetherOf(db: Queryable): ((statements: readonly Statement[]) => Promise<PromiseSettledResult<pg.QueryResult>[]>) | undefined {
  if (typeof (db as Partial<QueryableTogether>).queryTogether === 'function') return (statements) => (db as QueryableTogether).queryTogether(statements);
  if (db instanceof pg.Pool) return (statements) => pipelined(db, statements);
  return undefined;
}
