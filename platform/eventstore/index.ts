import type { Pool } from '../db';
import type { EventStore } from './eventstore';
import { PostgresEventStore } from './postgres';
import { ProtectedEventStore } from './protected';

export * from './eventstore';

/**
 * EVENTSTORE_URL (esdb:// or kurrentdb://) selects EventStoreDB; otherwise the Postgres table is the log.
 * Either way, secrets and personal data pass through ProtectedEventStore on their way in and out.
 */
export async function createEventStore(options: { eventStoreUrl?: string; pool: Pool; databaseUrl: string }): Promise<EventStore> {
  return new ProtectedEventStore(await createLog(options), options.pool);
}

async function createLog(options: { eventStoreUrl?: string; pool: Pool; databaseUrl: string }): Promise<EventStore> {
  if (options.eventStoreUrl) {
    const { EsdbEventStore } = await import('./esdb');
    return EsdbEventStore.connect(options.eventStoreUrl);
  }
  return new PostgresEventStore(options.pool, options.databaseUrl);
}
