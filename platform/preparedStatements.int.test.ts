import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, inTransaction, type Pool } from './db';
import { createTestDatabase, type TestDatabase } from '../src/testing/database';

/** The statements prepared on the connection this query runs on, with how often each ran. */
async function preparedHere(pool: Pool): Promise<Array<{ statement: string; runs: number }>> {
  const { rows } = await pool.query<{ statement: string; runs: string }>(
    'SELECT statement, (generic_plans + custom_plans)::text AS runs FROM pg_prepared_statements',
  );
  return rows.map((row) => ({ statement: row.statement, runs: Number(row.runs) }));
}

describe('a pool prepares each statement with values once per connection', () => {
  let database: TestDatabase;
  let pool: Pool;
  beforeAll(async () => {
    database = await createTestDatabase();
    // One connection, so every query below lands on the same one.
    pool = createPool(database.url, 1);
    await pool.query('CREATE TABLE things (id int PRIMARY KEY, name text)');
    await pool.query("INSERT INTO things VALUES (1, 'router'), (2, 'switch')");
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it('prepares a text with values the first time and reuses it after, whichever values it gets', async () => {
    const read = 'SELECT name FROM things WHERE id = $1';
    expect((await pool.query(read, [1])).rows).toEqual([{ name: 'router' }]);
    expect((await pool.query({ text: read, values: [2] })).rows).toEqual([{ name: 'switch' }]);
    const client = await pool.connect();
    try {
      expect((await client.query(read, [3])).rows).toEqual([]);
    } finally {
      client.release();
    }
    const statements = await preparedHere(pool);
    expect(statements.find((s) => s.statement === read)).toEqual({ statement: read, runs: 3 });
  });

  it('runs a text without values as it is, several statements in one text included', async () => {
    await pool.query("UPDATE things SET name = 'firewall' WHERE id = 2; UPDATE things SET name = 'access point' WHERE id = 1");
    expect((await pool.query('SELECT name FROM things ORDER BY id')).rows).toEqual([{ name: 'access point' }, { name: 'firewall' }]);
    const statements = (await preparedHere(pool)).map((s) => s.statement);
    expect(statements).not.toContain('SELECT name FROM things ORDER BY id');
  });

  it('prepares statements inside a transaction, and a failed one leaves the connection usable', async () => {
    await expect(
      inTransaction(pool, async (client) => {
        await client.query('UPDATE things SET name = $1 WHERE id = $2', ['gateway', 1]);
        await client.query('INSERT INTO things VALUES ($1, $2)', [1, 'duplicate']);
      }),
    ).rejects.toThrow(/duplicate key/);
    // The transaction rolled back as a whole.
    expect((await pool.query('SELECT name FROM things WHERE id = $1', [1])).rows).toEqual([{ name: 'access point' }]);
  });

  it("keeps a connection and its prepared statements through a quiet spell longer than pg's default ten seconds", async () => {
    const read = 'SELECT name FROM things WHERE id = $1';
    await pool.query(read, [1]);
    const before = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect((await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid).toBe(before);
    expect((await preparedHere(pool)).map((s) => s.statement)).toContain(read);
  }, 20_000);

  it('after a migration adds a column to a table a prepared `SELECT *` reads, the next request reads the new column', async () => {
    const readAll = 'SELECT * FROM things WHERE id = $1';
    const readInTransaction = () => inTransaction(pool, async (client) => (await client.query(readAll, [1])).rows);
    expect(await readInTransaction()).toEqual([{ id: 1, name: 'access point' }]);
    // Another process migrates meanwhile.
    const migrator = createPool(database.url, 1);
    await migrator.query("ALTER TABLE things ADD COLUMN region text NOT NULL DEFAULT 'EMEA'");
    await migrator.end();
    // The statement prepared before the migration no longer matches: that request fails, and its connection is replaced.
    await expect(readInTransaction()).rejects.toThrow(/cached plan must not change result type/);
    expect(await readInTransaction()).toEqual([{ id: 1, name: 'access point', region: 'EMEA' }]);
    expect((await pool.query(readAll, [2])).rows).toEqual([{ id: 2, name: 'firewall', region: 'EMEA' }]);
  });
});
