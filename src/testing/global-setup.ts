import pg from 'pg';

const STALE_AFTER_MS = 2 * 60 * 60 * 1000;

/** Removes test databases that an interrupted run left behind (never those of a run still going). */
export default async function setup(): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  await client.connect();
  const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'partnerhub\\_test\\_%'");
  for (const { datname } of rows) {
    const createdAt = Number(datname.split('_')[2]);
    if (!Number.isFinite(createdAt) || Date.now() - createdAt > STALE_AFTER_MS) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  }
  await client.end();
}
