import type { CommandMetadata } from '../../domain/decider';
import type { Services } from '../../platform/services';

/** One module's demo data. Seeders run in order and skip what already exists, so seeding twice is harmless. */
export interface Seeder {
  name: string;
  run(services: Services, metadata: CommandMetadata): Promise<string>;
}
