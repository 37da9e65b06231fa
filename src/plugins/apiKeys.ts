import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { INTEGRATION_ROLE, type Permission } from '../../domain/access';
import { activeApiKeyByHash } from '../../projections/settings';
import type { Services } from '../services';
import type { Principal } from './auth';
import { recordAuditEntry } from './auditTrail';
import { HttpError } from './errors';

/**
 * API keys: a request with `Authorization: Bearer phk_…` or `X-Api-Key: phk_…` acts as the named
 * integration the key was made for, with read-only access to lists. The key is looked up on every
 * request (by its hash, in the shared read model), so a revoked key is refused at once in every
 * API process.
 */

export const API_KEY_PREFIX = 'phk_';

export const API_KEY_AUTH_MESSAGES = {
  invalid: 'This API key is not valid or has been revoked.',
  readOnly: 'API keys have read-only access: only GET requests are allowed.',
} as const;

/** What an integration may read: the lists of projects, orders, the catalogue, rebates, tickets and partners. */
export const INTEGRATION_PERMISSIONS: readonly Permission[] = ['Projects.Read', 'Orders.Read', 'Orders.Browse', 'Rebates.Read', 'Support.Read', 'Partners.Read'];

export const hashApiKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** A new key, the part shown in lists to tell keys apart, and the hash that is stored. */
export function generateApiKey(): { key: string; prefix: string; keyHash: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(30).toString('base64url')}`;
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + 6), keyHash: hashApiKey(key) };
}

/** The API key a request carries, if any. A bearer token that is not a key is left to the JWT check. */
export function apiKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  if (Array.isArray(header) && header.length) return header[0]!.trim();
  const authorization = request.headers.authorization;
  const match = typeof authorization === 'string' ? /^Bearer\s+(\S+)$/i.exec(authorization) : null;
  return match?.[1]?.startsWith(API_KEY_PREFIX) ? match[1] : undefined;
}

const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * Refuses every write that carries an API key, on every route of the scope (public ones too), before
 * anything else runs.
 */
export function refuseWritesWithApiKeys(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!READ_METHODS.has(request.method) && apiKeyOf(request) !== undefined) throw new HttpError(403, 'API_KEY_READ_ONLY', API_KEY_AUTH_MESSAGES.readOnly);
  });
}

/**
 * The one place a request made with an API key passes: the audit trail records the key's use here.
 */
export async function recordApiKeyUse(services: Pick<Services, 'store'>, request: FastifyRequest, key: { id: string; name: string }): Promise<void> {
  request.log.info({ apiKeyId: key.id, apiKeyName: key.name, method: request.method, url: request.url }, 'API key used');
  const path = request.url.split('?')[0].slice(0, 200);
  await recordAuditEntry(services.store, { type: 'ApiKeyUsed.v1', data: { apiKeyId: key.id, name: key.name, method: request.method, path } }, { actorId: null, actorRole: 'integration' });
}

/**
 * Signs the request in as the key's integration when it carries a key; false when it carries none.
 * An unknown or revoked key is refused (401); so is any write (403).
 */
export async function authenticateApiKey(services: Pick<Services, 'pool' | 'store'>, request: FastifyRequest): Promise<boolean> {
  const key = apiKeyOf(request);
  if (key === undefined) return false;
  if (!READ_METHODS.has(request.method)) throw new HttpError(403, 'API_KEY_READ_ONLY', API_KEY_AUTH_MESSAGES.readOnly);
  const found = key.startsWith(API_KEY_PREFIX) && key.length <= 200 ? await activeApiKeyByHash(services.pool, hashApiKey(key)) : undefined;
  if (!found) throw new HttpError(401, 'INVALID_API_KEY', API_KEY_AUTH_MESSAGES.invalid);
  await recordApiKeyUse(services, request, found);
  request.principal = integrationPrincipal(found);
  return true;
}

function integrationPrincipal(key: { id: string; name: string }): Principal {
  return {
    id: key.id,
    email: '',
    fullName: key.name,
    role: INTEGRATION_ROLE,
    permissions: [...INTEGRATION_PERMISSIONS],
    companyName: null,
    parentUserId: null,
    organisationId: key.id,
    sessionId: key.id,
  };
}
