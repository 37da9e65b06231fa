import { loadConfig } from '../../platform/config';
import { startPortal, StartupError } from '../portal';
import { seed } from '../seed';

/** `npm run seed`: creates whatever demo data is missing (seeding twice is harmless). */
const config = loadConfig();
try {
  const portal = await startPortal(config, { processes: ['projector'], listen: false });
  await seed(portal.services, (line) => console.log(line));
  await portal.stop();
} catch (error) {
  console.error(error instanceof StartupError ? error.message : error);
  process.exit(1);
}
