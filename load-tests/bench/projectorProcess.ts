/**
 * The projector in a process of its own, as the portal runs it (docker-compose's `projector` service, or the
 * primary process of `npm start`), for the lag section: `PROJECTOR_DATABASE_URL` names the database. It
 * prints `ready` once it follows the log, and on SIGTERM stops after its running batch and prints one JSON
 * line with the batches it committed and its first errors.
 */
import { createPool } from '../../platform/db';
import { PostgresEventStore } from '../../platform/eventstore/postgres';
import { readModels } from '../../projections';
import { ProjectionRunner } from '../../projections/runner';

const databaseUrl = process.env.PROJECTOR_DATABASE_URL;
if (!databaseUrl) throw new Error('PROJECTOR_DATABASE_URL is not set');
const pool = createPool(databaseUrl, 4);
const store = new PostgresEventStore(pool, databaseUrl);
const errors: string[] = [];
let batches = 0;
const runner = new ProjectionRunner(store, pool, readModels, {
  onError: (error) => errors.push(error.message),
  onBatch: () => batches++,
});
runner.start();
console.log('ready');
process.once('SIGTERM', () => {
  void (async () => {
    await runner.stop();
    await store.close();
    await pool.end();
    console.log(JSON.stringify({ batches, errors: errors.slice(0, 5) }));
    process.exit(0);
  })();
});
