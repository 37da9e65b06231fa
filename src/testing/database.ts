import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createPool, migrate, type Pool } from '../../platform/db';

const baseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  pool: Pool;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file, so files can run in parallel; `serverUrl` names another server's `postgres` database. */
export async function createTestDatabase(serverUrl = baseUrl): Promise<TestDatabase> {
  // The creation time in the name lets a later run remove databases an interrupted run left behind.
  const name = `partnerhub_test_${Date.now()}_${randomUUID().replaceAll('-', '').slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  const pool = createPool(url.toString());
  return {
    url: url.toString(),
    pool,
    async drop() {
      await pool.end();
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
