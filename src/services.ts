import type { Redis } from 'ioredis';
import type { Config } from './config';
import type { Pool } from './db';
import type { EventStore } from './eventstore';
import type { ProjectionWatcher } from '../projections/watcher';

/** What the API needs from the outside world; built once in main.ts (or by a test) and handed to buildApp. */
export interface Services {
  config: Config;
  pool: Pool;
  store: EventStore;
  watcher: ProjectionWatcher;
  redis: Redis;
}
