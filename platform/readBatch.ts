import { createRequire } from 'node:module';
import pg from 'pg';
import type { Queryable } from './db';

/**
 * Reads issued together travel as one round trip. A dashboard reads a dozen figures side by side
 * (`Promise.all`), each from the definition its list uses too; sent one by one, each is a round trip
 * that wakes a server process, and the round trips, not the figures, were most of the dashboard's cost.
 *
 * The reads issued in one turn of the event loop are written into one multi-statement query, their
 * parameters as quoted literals (`pg`'s own text form of each value, escaped by `pg.escapeLiteral`),
 * so each comes back with its own result and the driver parses its columns by their types as before.
 * A turn with one read, a statement this cannot rewrite, or a batch that fails runs each read as it
 * was given: every caller gets its own rows or its own error.
 */
export function readBatch(db: Queryable): Queryable {
  let pending: Pending[] = [];

  const flush = () => {
    const batch = pending;
    pending = [];
    if (batch.length === 1) return runAlone(db, batch[0]);
    const texts = batch.map((read) => inlined(read.text, read.values));
    if (texts.some((text) => text === undefined)) return batch.forEach((read) => runAlone(db, read));
    (db.query(texts.join(';\n')) as unknown as Promise<pg.QueryResult | pg.QueryResult[]>).then(
      (results) => {
        const each = Array.isArray(results) ? results : [results];
        batch.forEach((read, i) => read.resolve(each[i]));
      },
      // One failing statement ends the whole query: each read runs again alone, to answer its own error.
      () => batch.forEach((read) => runAlone(db, read)),
    );
  };

  const query = (config: string | pg.QueryConfig, values?: unknown[]) => {
    const text = typeof config === 'string' ? config : config.text;
    const own = typeof config === 'string' ? values : (config.values ?? values);
    // Anything but a plain text with values (a named statement, a row mode, a cursor) runs as given.
    if (typeof config !== 'string' && Object.keys(config).some((key) => key !== 'text' && key !== 'values')) return db.query(config as pg.QueryConfig, values);
    return new Promise<pg.QueryResult>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ text, values: own ?? [], resolve, reject });
    });
  };
  return { query: query as Queryable['query'] };
}

interface Pending {
  text: string;
  values: unknown[];
  resolve(result: pg.QueryResult): void;
  reject(error: unknown): void;
}

function runAlone(db: Queryable, read: Pending): void {
  (db.query(read.text, read.values) as Promise<pg.QueryResult>).then(read.resolve, read.reject);
}

/** The driver's own text form of a parameter (arrays, dates, JSON), as it would send it bound. */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils') as { prepareValue(value: unknown): unknown };

/**
 * The statement with `$n` replaced by the literal of values[n - 1]; undefined when it cannot be done
 * safely: several statements, dollar-quoted text, a parameter with no value, a binary value.
 */
export function inlined(text: string, values: readonly unknown[]): string | undefined {
  // Escape-string literals and block comments would need more of SQL's grammar than this reads.
  if (/(^|[^a-z0-9_])e'/i.test(text) || text.includes('/*')) return undefined;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"') {
      // A quoted string or name, with its doubled quotes, is copied as it is.
      let j = i + 1;
      while (j < text.length && (text[j] !== c || text[j + 1] === c)) j += text[j] === c ? 2 : 1;
      if (j >= text.length) return undefined;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (c === ';') {
      return undefined;
    } else if (c === '$') {
      const match = /^\$(\d+)/.exec(text.slice(i));
      if (!match) return undefined;
      const index = Number(match[1]) - 1;
      if (index >= values.length) return undefined;
      const prepared = prepareValue(values[index]);
      if (prepared === null || prepared === undefined) out += 'NULL';
      else if (typeof prepared === 'string') out += pg.escapeLiteral(prepared);
      else return undefined;
      i += match[0].length;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
