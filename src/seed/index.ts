import { randomUUID } from 'node:crypto';
import type { Services } from '../../platform/services';
import { seedCatalogue } from './products';
import { demoUserId, seedIdentity } from './identity';
import { seedPartners } from './partners';
import { seedOrders } from './orders';
import { seedProjects } from './projects';
import { seedRebates } from './rebates';
import { seedLeads } from './leads';
import { seedFunds } from './funds';
import { seedLearning } from './learning';
import { seedProgramme } from './programme';
import { seedWebhooks } from './webhooks';
import { seedTeam } from './team';
import { seedTickets } from './tickets';
import { seedResources } from './resources';
import { seedSettings } from './settings';
import { seedApiKeys } from './apiKeys';
import type { Seeder } from './seeder';

/**
 * Each module appends its seeder here; later ones may rely on the accounts created first. A module's
 * history seeder comes before its recent records, so numbers (orders, tickets) follow the dates.
 */
export const seeders: readonly Seeder[] = [
  seedIdentity,
  seedPartners,
  seedTeam,
  seedCatalogue,
  seedOrders,
  seedProjects,
  seedRebates,
  seedLeads,
  seedFunds,
  seedLearning,
  seedTickets,
  seedProgramme,
  seedResources,
  seedSettings,
  seedApiKeys,
  seedWebhooks,
];

export async function seed(services: Services, log: (line: string) => void = () => {}): Promise<void> {
  const metadata = {
    now: new Date().toISOString(),
    actorId: demoUserId('admin@partnerhub.test'),
    actorRole: 'admin',
    correlationId: `seed-${randomUUID()}`,
    causationId: null,
  };
  for (const seeder of seeders) log(`seed: ${seeder.name}: ${await seeder.run(services, metadata)}`);
}
