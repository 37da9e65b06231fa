import type { Pool } from '../db';
import type { EventStore } from './eventstore';
import { PostgresEventStore } from './postgres';

export * from './eventstore';

/** EVENTSTORE_URL (esdb:// or kurrentdb://) selects EventStoreDB; otherwise the Postgres table is the log. */
export async function createEventStore(options: { eventStoreUrl?: string; pool: Pool; databaseUrl: string }): Promise<EventStore> {
  if (options.eventStoreUrl) {
    const { EsdbEventStore } = await import('./esdb');
    return EsdbEventStore.connect(options.eventStoreUrl);
  }
  return new PostgresEventStore(options.pool, options.databaseUrl);
}
