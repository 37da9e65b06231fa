import { DEFAULT_PERMISSIONS_BY_ROLE, normalizePermissions, type ApiKeyScope, type Permission } from '../../domain/access';
import { apiKeys, type ApiKeyOwner } from '../../domain/settings/apiKeys';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { runCommand } from '../../platform/commands/dispatch';
import { generateApiKey } from '../plugins/apiKeys';
import { demoUserId } from './identity';
import type { Seeder } from './seeder';

/** What the owner holds now, as a key created on its page would be checked against. */
async function permissionsOf(
  services: { pool: { query: (sql: string, values: unknown[]) => Promise<{ rows: Array<{ permissions: string[] }> }> } },
  userId: string,
  role: 'partner' | 'distributor',
): Promise<readonly Permission[]> {
  const { rows } = await services.pool.query('SELECT permissions FROM read.users WHERE id = $1', [userId]);
  return rows[0] ? normalizePermissions(rows[0].permissions) : DEFAULT_PERMISSIONS_BY_ROLE[role];
}

export const demoApiKeyId = (key: string) => deterministicUuid(`demo-api-key:${key}`);

interface DemoKey {
  key: string;
  name: string;
  scopes: ApiKeyScope[];
  /** The organisation's owner account, or none for a vendor key. */
  owner?: { email: string; role: 'partner' | 'distributor' };
}

/** A vendor key and one key for each of two organisations, so every screen and the access suites have records to show. */
const DEMO_KEYS: readonly DemoKey[] = [
  { key: 'finance-bi', name: 'Finance BI', scopes: ['orders:read', 'rebates:read', 'projects:read'] },
  {
    key: 'northwind-crm',
    name: 'Northwind CRM',
    scopes: ['projects:read', 'projects:write', 'orders:read'],
    owner: { email: 'partner@partnerhub.test', role: 'partner' },
  },
  { key: 'atlas-erp', name: 'Atlas ERP', scopes: ['orders:read', 'catalogue:read'], owner: { email: 'distributor@partnerhub.test', role: 'distributor' } },
];

/**
 * Demo API keys, made by real commands as their managers would. Their secrets are thrown away: a demo
 * user rotates a key (or makes a new one) to get a secret to try.
 */
export const seedApiKeys: Seeder = {
  name: 'api keys',
  async run(services, metadata) {
    let made = 0;
    for (const demo of DEMO_KEYS) {
      const keyId = demoApiKeyId(demo.key);
      if ((await services.store.readStream(apiKeys.streamId(keyId))).length) continue;
      const { prefix, keyHash } = generateApiKey();
      const ownerId = demo.owner ? demoUserId(demo.owner.email) : undefined;
      const owner: ApiKeyOwner = ownerId ? { kind: 'organisation', organisationId: ownerId } : { kind: 'vendor' };
      await runCommand(
        services,
        apiKeys,
        keyId,
        {
          type: 'CreateApiKey',
          keyId,
          name: demo.name,
          prefix,
          keyHash,
          scopes: demo.scopes,
          owner,
          ownerPermissions: demo.owner && ownerId ? await permissionsOf(services, ownerId, demo.owner.role) : undefined,
        },
        demo.owner && ownerId ? { ...metadata, actorId: ownerId, actorRole: demo.owner.role } : metadata,
      );
      made += 1;
    }
    return made ? `${made} API keys created` : 'API keys already created';
  },
};
