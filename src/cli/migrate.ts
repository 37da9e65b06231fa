import { loadConfig } from '../../platform/config';
import { ensureDatabase, migrate } from '../../platform/db';

const config = loadConfig();
await ensureDatabase(config.DATABASE_URL);
await migrate(config.DATABASE_URL);
console.log('Migrations are up to date.');
