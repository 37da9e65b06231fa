import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModels } from '../projections';
import { rebuildProjections } from '../projections/rebuild';
import { startTestPortal, type TestPortal } from '../src/testing/portal';

/**
 * The analysts' database role, connected as analysts would (docs/read-models.md): every read model
 * readable, nothing secret, nothing writable.
 */

let t: TestPortal;
let analyst: pg.Client;

const ANALYST = 'partnerhub_analyst';
/** Column names that would give a secret away, wherever they are. */
const SECRET_COLUMN = /hash|token|secret|password/i;

async function connectAsAnalyst(): Promise<pg.Client> {
  const url = new URL(t.db.url);
  url.username = ANALYST;
  url.password = ANALYST;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return client;
}

const refusal = async (sql: string) => {
  try {
    await analyst.query(sql);
    return 'allowed';
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

const readTables = async () =>
  (
    await t.db.pool.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'read' AND table_type = 'BASE TABLE' ORDER BY 1",
    )
  ).rows.map((r) => r.table_name);

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  analyst = await connectAsAnalyst();
});
afterAll(async () => {
  await analyst?.end();
  await t?.close();
});

describe('the analyst role', () => {
  it('selects from every read model', async () => {
    const tables = await readTables();
    expect(tables).toEqual(
      expect.arrayContaining(['users', 'orders', 'projects', 'rebates', 'tickets', 'audit_log', 'organisation_activity', 'status_history']),
    );
    for (const table of tables) {
      const { rows } = await analyst.query(`SELECT count(*)::int AS n FROM read.${table}`);
      expect(rows[0].n, table).toBeGreaterThanOrEqual(0);
    }
    const { rows } = await analyst.query('SELECT count(*)::int AS n FROM read.users');
    expect(rows[0].n).toBeGreaterThan(5);
  });

  it('is refused on credentials, sessions, refresh tokens, secrets and keys kept apart from events, and the event log (personal data)', async () => {
    for (const table of [
      'secret.user_credentials',
      'secret.auth_sessions',
      'secret.refresh_tokens',
      'secret.event_secrets',
      'secret.person_keys',
      'public.events',
      'public.pgmigrations',
      'public.subscription_checkpoints',
    ]) {
      expect(await refusal(`SELECT * FROM ${table} LIMIT 1`), table).toBe('42501');
    }
    // The secrets are where the portal itself reads them, and not in the analysts' schema.
    const { rows } = await t.db.pool.query(
      "SELECT 1 FROM information_schema.tables WHERE table_schema = 'read' AND table_name IN ('user_credentials', 'auth_sessions', 'refresh_tokens')",
    );
    expect(rows).toHaveLength(0);
  });

  it('can read no column that names a hash, token, secret or password anywhere', async () => {
    const { rows } = await analyst.query<{ table_schema: string; table_name: string; column_name: string }>(
      `SELECT table_schema, table_name, column_name FROM information_schema.columns
       WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
         AND has_column_privilege(current_user, format('%I.%I', table_schema, table_name), column_name, 'SELECT')`,
    );
    expect(rows.length).toBeGreaterThan(50);
    expect(rows.filter((r) => SECRET_COLUMN.test(r.column_name)).map((r) => `${r.table_schema}.${r.table_name}.${r.column_name}`)).toEqual([]);
  });

  it('writes nothing: no insert, update, delete, truncate, table or temporary table', async () => {
    const writes = [
      "INSERT INTO read.notifications (id, user_id, kind, title, body, created_at) VALUES (gen_random_uuid(), gen_random_uuid(), 'x', 'x', 'x', now())",
      "UPDATE read.users SET full_name = 'x'",
      'DELETE FROM read.audit_log',
      'TRUNCATE read.orders',
      'CREATE TABLE read.mine (id int)',
      'CREATE TABLE public.mine (id int)',
      'CREATE TEMPORARY TABLE mine (id int)',
      'CREATE SCHEMA mine',
    ];
    for (const sql of writes) {
      // Refused either by the role's read-only transactions (25006) or by missing privileges (42501).
      expect(['25006', '42501'], sql).toContain(await refusal(sql));
    }
    // Even with read-only transactions switched off, the privileges refuse every write.
    await analyst.query('SET default_transaction_read_only = off');
    for (const sql of writes) expect(await refusal(sql), sql).toBe('42501');
  });

  it('keeps reading every read model after a projection rebuild swaps fresh tables in', async () => {
    await rebuildProjections(t.portal.services.store, t.db.pool, readModels);
    for (const table of await readTables()) {
      expect(await refusal(`SELECT 1 FROM read.${table} LIMIT 1`), table).toBe('allowed');
    }
    expect(await refusal('SELECT * FROM secret.user_credentials')).toBe('42501');
    expect(await refusal("UPDATE read.users SET full_name = 'x'")).toBe('42501');
  });
});
