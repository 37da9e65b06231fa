import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { INTEGRATION_ROLE, type Permission } from '../../domain/access';
import { API_KEY_SCOPE_GRANTS, scopeForRoute, type ApiKeyScope } from '../../domain/settings/apiKeys';
import { activeApiKeyByHash } from '../../projections/settings';
import type { Services } from '../services';
import { API_PREFIX } from './access';
import type { Principal } from './auth';
import { recordAuditEntry } from './auditTrail';
import { HttpError } from './errors';

/**
 * API keys: a request with `Authorization: Bearer phk_…` or `X-Api-Key: phk_…` acts as the named
 * integration the key was made for, with read-only access to lists; the writes a key's scopes name
 * (`leads:write`: creating and importing leads) are the only writes it may make. The key is looked up on every
 * request (by its hash, in the shared read model), so a revoked key is refused at once in every
 * API process.
 */

export const API_KEY_PREFIX = 'phk_';

export const API_KEY_AUTH_MESSAGES = {
  invalid: 'This API key is not valid or has been revoked.',
  readOnly: 'API keys have read-only access: only GET requests are allowed, and the writes a key\'s scopes name (leads:write: POST /api/leads and POST /api/leads/import).',
  scopeMissing: (scope: ApiKeyScope) => `This API key may only read: this request needs a key with the ${scope} scope.`,
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

/** The scope a write needs when it is made with a key; undefined when no scope allows it. */
function scopeForWrite(request: FastifyRequest): ApiKeyScope | undefined {
  const url = request.routeOptions.url;
  if (!url?.startsWith(`${API_PREFIX}/`)) return undefined;
  return scopeForRoute(`${request.method} ${url.slice(API_PREFIX.length)}`);
}

/**
 * Refuses every write that carries an API key, on every route of the scope (public ones too), before
 * anything else runs, unless a scope could allow it (whether the key holds that scope is checked
 * when it is looked up).
 */
export function refuseWritesWithApiKeys(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!READ_METHODS.has(request.method) && apiKeyOf(request) !== undefined && !scopeForWrite(request)) throw new HttpError(403, 'API_KEY_READ_ONLY', API_KEY_AUTH_MESSAGES.readOnly);
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
 * An unknown or revoked key is refused (401); so is any write its scopes do not name (403).
 */
export async function authenticateApiKey(services: Pick<Services, 'pool' | 'store'>, request: FastifyRequest): Promise<boolean> {
  const key = apiKeyOf(request);
  if (key === undefined) return false;
  const writing = !READ_METHODS.has(request.method);
  const scope = writing ? scopeForWrite(request) : undefined;
  if (writing && !scope) throw new HttpError(403, 'API_KEY_READ_ONLY', API_KEY_AUTH_MESSAGES.readOnly);
  const found = key.startsWith(API_KEY_PREFIX) && key.length <= 200 ? await activeApiKeyByHash(services.pool, hashApiKey(key)) : undefined;
  if (!found) throw new HttpError(401, 'INVALID_API_KEY', API_KEY_AUTH_MESSAGES.invalid);
  if (scope && !found.scopes.includes(scope)) throw new HttpError(403, 'API_KEY_SCOPE_MISSING', API_KEY_AUTH_MESSAGES.scopeMissing(scope));
  await recordApiKeyUse(services, request, found);
  request.principal = integrationPrincipal(found);
  return true;
}

function integrationPrincipal(key: { id: string; name: string; scopes: ApiKeyScope[] }): Principal {
  const granted = key.scopes.flatMap((scope) => API_KEY_SCOPE_GRANTS[scope].permissions);
  return {
    id: key.id,
    email: '',
    fullName: key.name,
    role: INTEGRATION_ROLE,
    permissions: [...new Set([...INTEGRATION_PERMISSIONS, ...granted])],
    companyName: null,
    parentUserId: null,
    organisationId: key.id,
    sessionId: key.id,
  };
}
