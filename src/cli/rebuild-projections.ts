import { loadConfig } from '../../platform/config';
import { createPool, ensureDatabase, migrate } from '../../platform/db';
import { createEventStore } from '../../platform/eventstore';
import { readModels } from '../../projections';
import { rebuildProjections } from '../../projections/rebuild';

/** `npm run projections:rebuild`: replays the whole log into fresh read tables and swaps them in. */
const config = loadConfig();
await ensureDatabase(config.DATABASE_URL);
await migrate(config.DATABASE_URL);
const pool = createPool(config.DATABASE_URL);
const store = await createEventStore({ eventStoreUrl: config.EVENTSTORE_URL, pool, databaseUrl: config.DATABASE_URL });
const started = Date.now();
const { head, tables } = await rebuildProjections(store, pool, readModels);
console.log(
  `Rebuilt ${tables.length} read tables (${tables.join(', ')}) up to position ${head ? `${head.commit}/${head.prepare}` : 'start'} in ${Date.now() - started} ms.`,
);
await store.close();
await pool.end();
