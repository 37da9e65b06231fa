/**
 * `npm run bench:data -- --orders 1000000`: appends that many orders' events (generateOrders.ts) to
 * the database at DATABASE_URL (migrated and seeded first when empty), then rebuilds every read model
 * from the whole log and prints how fast both went. For a scale test of a development database;
 * `npm run bench` does the same on its own database (the scale section).
 */
import { loadConfig } from '../../platform/config';
import { createPool, ensureDatabase, migrate } from '../../platform/db';
import { createEventStore } from '../../platform/eventstore';
import { startPortal } from '../../src/portal';
import { readModels } from '../../projections';
import { rebuildProjections } from '../../projections/rebuild';
import { generateOrders } from './generateOrders';

function ordersArgument(args: string[]): number {
  const index = args.indexOf('--orders');
  const raw = index >= 0 ? args[index + 1] : '10000';
  const orders = Number(raw);
  if (!Number.isInteger(orders) || orders < 1) throw new Error(`--orders takes a whole number (got "${raw}").`);
  return orders;
}

const orders = ordersArgument(process.argv.slice(2));
const config = loadConfig();
await ensureDatabase(config.DATABASE_URL);
await migrate(config.DATABASE_URL);
// The demo accounts and catalogue the orders refer to.
const seeded = await startPortal(config, { processes: ['projector'], seedWhenEmpty: true, listen: false });
await seeded.stop();

const pool = createPool(config.DATABASE_URL);
const store = await createEventStore({ eventStoreUrl: config.EVENTSTORE_URL, pool, databaseUrl: config.DATABASE_URL });
console.log(`Appending ${orders.toLocaleString('en-US')} orders to ${new URL(config.DATABASE_URL).pathname.slice(1)} …`);
const generated = await generateOrders(pool, orders, { log: console.log });
console.log(
  `Appended ${generated.events.toLocaleString('en-US')} events (${generated.organisations} organisations) in ${generated.seconds.toFixed(1)} s = ${Math.round(generated.events / generated.seconds).toLocaleString('en-US')} events/s.`,
);
const total = Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0].n);
const began = Date.now();
await rebuildProjections(store, pool, readModels);
const seconds = (Date.now() - began) / 1000;
console.log(
  `Rebuilt every read model from ${total.toLocaleString('en-US')} events in ${seconds.toFixed(1)} s = ${Math.round(total / seconds).toLocaleString('en-US')} events/s.`,
);
await store.close();
await pool.end();
