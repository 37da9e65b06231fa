/**
 * A projector process for the crash test: the real read models plus a pause per event, so that a
 * kill lands in the middle of a batch. Run with DATABASE_URL set.
 */
import { createPool } from '../../platform/db';
import { PostgresEventStore } from '../../platform/eventstore/postgres';
import { readModels } from '../../projections';
import { ProjectionRunner } from '../../projections/runner';

const url = process.env.DATABASE_URL!;
const pool = createPool(url);
const store = new PostgresEventStore(pool, url);
const pause = { name: 'pause', apply: () => new Promise<void>((resolve) => setTimeout(resolve, 2)) };
new ProjectionRunner(store, pool, [...readModels, pause], { batchSize: 40 }).start();
console.log('projecting');
