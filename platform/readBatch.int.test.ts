import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../src/testing/database';
import { createPool } from './db';
import { readBatch } from './readBatch';

describe('readBatch', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    await db.pool.query(`CREATE TABLE batch_things (id uuid PRIMARY KEY, name text, amount numeric, n bigint, at timestamptz, tags text[], doc jsonb)`);
    await db.pool.query(
      `INSERT INTO batch_things VALUES ('7c9e6679-7425-40de-944b-e07fc1f90ae7', 'O''Brien', 12.50, 9007199254740993, '2026-12-02T06:30:00Z', '{a,b}', '{"k": [1, 2]}'),
                                       ('9b2f3c1e-0000-4000-8000-000000000002', 'plain', 1, 1, '2026-01-01T00:00:00Z', '{}', '{}')`,
    );
  });
  afterAll(() => db?.drop());

  const reads = [
    ['SELECT * FROM batch_things WHERE name = $1', ["O'Brien"]],
    ['SELECT count(*) AS n, sum(amount) AS total FROM batch_things WHERE tags && $1::text[] OR at < $2', [['b'], new Date('2026-06-01T00:00:00Z')]],
    [
      'SELECT id, doc FROM batch_things WHERE id = ANY($1::uuid[]) AND ($2::text IS NULL OR name = $2) ORDER BY id',
      [['7c9e6679-7425-40de-944b-e07fc1f90ae7'], null],
    ],
  ] as const;

  it('answers reads issued together on one connection, each with the rows and types it gets alone', async () => {
    const alone = await Promise.all(reads.map(([text, values]) => db.pool.query(text, [...values])));
    const connect = vi.spyOn(db.pool, 'connect');
    const query = vi.spyOn(db.pool, 'query');
    const batch = readBatch(db.pool);
    const together = await Promise.all([
      ...reads.map(([text, values]) => batch.query(text, [...values])),
      batch.query('SELECT pg_backend_pid() AS pid, $1::int AS n', [1]),
      batch.query('SELECT pg_backend_pid() AS pid, $1::int AS n', [2]),
    ]);
    expect(connect).toHaveBeenCalledTimes(1);
    expect(query).not.toHaveBeenCalled();
    connect.mockRestore();
    query.mockRestore();
    expect(together.slice(0, reads.length).map((r) => r.rows)).toEqual(alone.map((r) => r.rows));
    expect(together.at(-2)!.rows[0].pid).toBe(together.at(-1)!.rows[0].pid);
    expect(together.slice(-2).map((r) => r.rows[0].n)).toEqual([1, 2]);
    // Column types are parsed as before: a Date, bigint and numeric as text, arrays and JSON as values.
    expect(together[0].rows[0].at).toBeInstanceOf(Date);
    expect(together[0].rows[0]).toMatchObject({ n: '9007199254740993', amount: '12.50', tags: ['a', 'b'], doc: { k: [1, 2] } });
  });

  it('sends each read as its prepared statement, so Postgres keeps its plan from one batch to the next', async () => {
    const text = 'SELECT count(*)::int AS n FROM batch_things WHERE amount > $1';
    const prepared = 'SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1 AND pg_backend_pid() = $2';
    const pool = createPool(db.url, 1);
    try {
      const batch = readBatch(pool);
      const [first, pid] = await Promise.all([batch.query(text, [0]), batch.query('SELECT pg_backend_pid() AS pid', [])]);
      expect(first.rows).toEqual([{ n: 2 }]);
      const [again, kept] = await Promise.all([batch.query(text, [5]), batch.query(prepared, [text, pid.rows[0].pid])]);
      expect(again.rows).toEqual([{ n: 1 }]);
      expect(kept.rows).toEqual([{ n: 1 }]);
      // The connection waits for each answer again afterwards: a transaction on it behaves as ever.
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await expect(client.query('SELECT no_such_column FROM batch_things')).rejects.toThrow(/no_such_column/);
        await expect(client.query('SELECT 1')).rejects.toThrow(/current transaction is aborted/);
        await client.query('ROLLBACK');
        expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });

  it('answers each read its own error when one of them fails, and the others their rows', async () => {
    const batch = readBatch(db.pool);
    const [good, bad, alsoGood] = await Promise.allSettled([
      batch.query('SELECT name FROM batch_things WHERE n = $1', [1]),
      batch.query('SELECT no_such_column FROM batch_things WHERE name = $1', ['x']),
      batch.query('SELECT count(*)::int AS n FROM batch_things'),
    ]);
    expect(good).toMatchObject({ status: 'fulfilled', value: { rows: [{ name: 'plain' }] } });
    expect(bad).toMatchObject({ status: 'rejected', reason: { message: expect.stringContaining('no_such_column') } });
    expect(alsoGood).toMatchObject({ status: 'fulfilled', value: { rows: [{ n: 2 }] } });
  });

  it('runs a read alone when it is the only one of its turn, and a client in a transaction runs each as given', async () => {
    const spy = vi.spyOn(db.pool, 'query');
    const batch = readBatch(db.pool);
    expect((await batch.query('SELECT $1::int AS one', [1])).rows).toEqual([{ one: 1 }]);
    expect(spy).toHaveBeenLastCalledWith('SELECT $1::int AS one', [1]);
    spy.mockRestore();
    const client = await db.pool.connect();
    try {
      expect(readBatch(client)).toBe(client);
    } finally {
      client.release();
    }
  });
});
