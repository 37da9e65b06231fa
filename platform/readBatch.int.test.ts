import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../src/testing/database';
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

  it('answers reads issued together in one round trip, each with the rows and types it gets alone', async () => {
    const alone = await Promise.all(reads.map(([text, values]) => db.pool.query(text, [...values])));
    const spy = vi.spyOn(db.pool, 'query');
    const batch = readBatch(db.pool);
    const together = await Promise.all(reads.map(([text, values]) => batch.query(text, [...values])));
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    expect(together.map((r) => r.rows)).toEqual(alone.map((r) => r.rows));
    // Column types are parsed as before: a Date, bigint and numeric as text, arrays and JSON as values.
    expect(together[0].rows[0].at).toBeInstanceOf(Date);
    expect(together[0].rows[0]).toMatchObject({ n: '9007199254740993', amount: '12.50', tags: ['a', 'b'], doc: { k: [1, 2] } });
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

  it('runs a read alone when it is the only one of its turn, or cannot be rewritten', async () => {
    const spy = vi.spyOn(db.pool, 'query');
    const batch = readBatch(db.pool);
    expect((await batch.query('SELECT $1::int AS one', [1])).rows).toEqual([{ one: 1 }]);
    expect(spy).toHaveBeenLastCalledWith('SELECT $1::int AS one', [1]);
    const [a, b] = await Promise.all([batch.query('SELECT $1::bytea AS b', [Buffer.from('hi')]), batch.query('SELECT 2 AS two')]);
    expect(a.rows[0].b).toEqual(Buffer.from('hi'));
    expect(b.rows).toEqual([{ two: 2 }]);
    spy.mockRestore();
  });
});
