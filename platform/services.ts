import type { Redis } from 'ioredis';
import type { Config } from './config';
import type { Pool, Queryable } from './db';
import type { EventStore, GlobalPosition } from './eventstore';

/** What the API needs from the outside world; built once in main.ts (or by a test) and handed to buildApp. */
export interface Services {
  config: Config;
  pool: Pool;
  /**
   * Where reads of the read models outside commands go (lists, searches, dashboards, single records): the
   * read replicas when READ_DATABASE_URL names some (platform/readReplicas.ts), otherwise `pool` itself.
   * Commands and their lookups, sessions and transactions use `pool`.
   */
  reads: Queryable;
  store: EventStore;
  watcher: ReadModelWatcher;
  redis: Redis;
}

/** One listener to a read-model channel (NOTIFY), told when messages may have been missed. */
export interface ChannelSubscriber {
  message(payload: string): void;
  /** The connection was lost or re-established: messages may have been missed in between. */
  interrupted(): void;
}

/**
 * What commands and the API need from the read models' watcher (`projections/watcher.ts`): it is declared
 * here, beneath the projections, so the platform names what it uses without importing the floor above it.
 */
export interface ReadModelWatcher {
  /** The position the read models have reached, as far as this process has heard. */
  readonly position: GlobalPosition | undefined;
  /**
   * The primary's WAL insert position read together with `position` (a 'X/Y' LSN): a streaming replica that
   * has replayed it holds every read-model commit this process has heard of. Undefined until a position is known.
   */
  readonly lsn: string | undefined;
  /** Resolves true once the read models have reached `position`, false after the timeout. */
  waitFor(position: GlobalPosition | undefined, timeoutMs?: number): Promise<boolean>;
  subscribe(channel: string, subscriber: ChannelSubscriber): Promise<() => void>;
  /** Whether the listening connection has proved itself alive lately (otherwise nothing cached may be trusted). */
  alive(): boolean;
}
