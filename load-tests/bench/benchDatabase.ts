import pg from 'pg';
import { migrate } from '../../platform/db';

const PREFIX = 'partnerhub_bench_';
/** Databases of runs that were interrupted before their clean-up are removed after this long. */
const STALE_AFTER_MS = 6 * 60 * 60 * 1000;

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A dedicated, migrated database for one run: `partnerhub_bench_<timestamp>`. The timestamp in the
 * name lets a later run drop what an interrupted one left behind.
 */
export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `${PREFIX}${Date.now()}`;
  await withAdmin(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE '${PREFIX}%'`);
    for (const { datname } of rows) {
      const createdAt = Number(datname.slice(PREFIX.length));
      if (Number.isFinite(createdAt) && Date.now() - createdAt > STALE_AFTER_MS) {
        await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
      }
    }
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  return {
    name,
    url: url.toString(),
    drop: () => withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`).then(() => {})),
  };
}

/** Flushes dirty buffers so a checkpoint does not land in the middle of the next measurement. */
export async function checkpoint(adminUrl: string): Promise<void> {
  await withAdmin(adminUrl, (client) => client.query('CHECKPOINT').then(() => {})).catch(() => {});
}

/**
 * Vacuums the bench database and checkpoints, so a section is not measured against the background
 * vacuum of the rows an earlier section wrote (the append section leaves hundreds of thousands).
 */
export async function settle(databaseUrl: string, adminUrl: string): Promise<void> {
  await withAdmin(databaseUrl, (client) => client.query('VACUUM (ANALYZE)').then(() => {}));
  await checkpoint(adminUrl);
}

export async function serverVersion(adminUrl: string): Promise<string> {
  return withAdmin(adminUrl, async (client) => {
    const { rows } = await client.query<{ v: string; sync: string; fsync: string }>(
      `SELECT current_setting('server_version') AS v, current_setting('synchronous_commit') AS sync, current_setting('fsync') AS fsync`,
    );
    return `PostgreSQL ${rows[0].v} (synchronous_commit=${rows[0].sync}, fsync=${rows[0].fsync})`;
  });
}
