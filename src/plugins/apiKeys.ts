import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import {
  apiAccessOf,
  API_KEY_OWNER_KINDS,
  API_KEY_SCOPE_DEFINITIONS,
  apiKeyPermissions,
  INTEGRATION_ROLE,
  normalizePermissions,
  scopesAllow,
  scopesFor,
  scopesForRoute,
  type Permission,
} from '../../domain/access';
import { usableApiKeyByHash, type UsableApiKey } from '../../projections/settings';
import type { Services } from '../../platform/services';
import { API_PREFIX } from './access';
import type { Principal } from './principal';
import { recordAuditEntry } from './auditTrail';
import { HttpError } from './errors';

/**
 * API keys: a request with `Authorization: Bearer phk_…` or `X-Api-Key: phk_…` acts as the key.
 * A vendor key acts as the named integration (every organisation's records, the permissions its scopes
 * grant vendor keys); an organisation key acts for its owner account, with at most the owner's
 * permissions now and only its organisation's records. Either way a request reaches only the routes
 * its scopes name (domain/access/apiKeyScopes.ts). The key is looked up on every request (by its hash,
 * in the shared read model), so revocation, expiry and the end of a rotation's overlap take effect at
 * once in every API process.
 */

export const API_KEY_PREFIX = 'phk_';

export const API_KEY_AUTH_MESSAGES = {
  invalid: 'This API key is not valid, has expired or has been revoked.',
  notAllowed: 'API keys cannot make this request: no scope allows it.',
  scopeMissing: (scopes: readonly string[]) => `This API key lacks the scope this request needs: ${scopes.join(' or ')}.`,
  ownerInactive: "This API key's organisation is inactive, so its keys are refused.",
} as const;

/** The most a vendor key may read, with every read scope (System Settings' access table shows it). */
export const INTEGRATION_PERMISSIONS: readonly Permission[] = apiKeyPermissions(
  scopesFor('vendor').filter((scope) => API_KEY_SCOPE_DEFINITIONS[scope].access === 'read'),
  'vendor',
);

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

/** The route a request reached, as API_ROUTES names it (`POST /projects`), if it is an API route. */
function routeOf(request: FastifyRequest): { method: string; path: string } | undefined {
  const url = request.routeOptions.url;
  if (!url?.startsWith(`${API_PREFIX}/`)) return undefined;
  return { method: request.method, path: url.slice(API_PREFIX.length) };
}

const anyScopeAllows = (method: string, path: string) => API_KEY_OWNER_KINDS.some((owner) => scopesAllow(scopesFor(owner), owner, method, path));

/**
 * Refuses a request carrying an API key to a route no scope allows (any write to a public route, the
 * administrators' routes, sign-in, settings …), before anything else runs. Public reads ignore the key.
 */
export function refuseUnscopedRoutesWithApiKeys(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (apiKeyOf(request) === undefined) return;
    const route = routeOf(request);
    if (!route) return;
    if (!anyScopeAllows(route.method, route.path) && !isPublicRead(request)) throw new HttpError(403, 'API_KEY_NOT_ALLOWED', API_KEY_AUTH_MESSAGES.notAllowed);
  });
}

/** A public GET (health, an invitation's details): it ignores credentials, a key's too. */
function isPublicRead(request: FastifyRequest): boolean {
  const route = routeOf(request);
  const access = route && (request.method === 'GET' || request.method === 'HEAD') ? apiAccessOf(request.method, route.path) : undefined;
  return Boolean(access && 'public' in access);
}

/** The one place a request made with an API key passes: the audit trail records the key's use here. */
export async function recordApiKeyUse(services: Pick<Services, 'store'>, request: FastifyRequest, key: UsableApiKey): Promise<void> {
  request.log.info({ apiKeyId: key.id, apiKeyName: key.name, method: request.method, url: request.url }, 'API key used');
  const path = request.url.split('?')[0].slice(0, 200);
  const organisation = key.owner_kind === 'organisation' ? key.organisation_id : null;
  await recordAuditEntry(
    services.store,
    {
      type: 'ApiKeyUsed.v1',
      data: { apiKeyId: key.id, name: key.name, method: request.method, path, ...(organisation ? { organisationId: organisation } : {}) },
    },
    {
      actorId: organisation,
      actorRole: organisation ? (key.owner?.role ?? null) : INTEGRATION_ROLE,
      correlationId: request.id,
      apiKeyId: key.id,
      apiKeyName: key.name,
    },
  );
}

/**
 * Signs the request in as its API key when it carries one; false when it carries none. An unknown,
 * expired or revoked key is refused (401), and so is a request its scopes do not name (403).
 */
export async function authenticateApiKey(services: Pick<Services, 'pool' | 'store'>, request: FastifyRequest): Promise<boolean> {
  const secret = apiKeyOf(request);
  if (secret === undefined) return false;
  const route = routeOf(request);
  const found = secret.startsWith(API_KEY_PREFIX) && secret.length <= 200 ? await usableApiKeyByHash(services.pool, hashApiKey(secret)) : undefined;
  if (!found) throw new HttpError(401, 'INVALID_API_KEY', API_KEY_AUTH_MESSAGES.invalid);
  const owner = found.owner_kind;
  if (owner === 'organisation' && !found.owner?.is_active) throw new HttpError(401, 'INVALID_API_KEY', API_KEY_AUTH_MESSAGES.ownerInactive);
  if (!route || !scopesAllow(found.scopes, owner, route.method, route.path)) {
    const needed = route ? scopesFor(owner).filter((scope) => scopesAllow([scope], owner, route.method, route.path)) : [];
    if (needed.length === 0) throw new HttpError(403, 'API_KEY_NOT_ALLOWED', API_KEY_AUTH_MESSAGES.notAllowed);
    throw new HttpError(403, 'API_KEY_SCOPE_MISSING', API_KEY_AUTH_MESSAGES.scopeMissing(needed), { required_scopes: needed });
  }
  await recordApiKeyUse(services, request, found);
  request.principal = principalOf(found);
  return true;
}

function principalOf(key: UsableApiKey): Principal {
  const apiKey = { id: key.id, name: key.name, ownerKind: key.owner_kind, rateLimitPerMinute: key.rate_limit_per_minute };
  if (key.owner_kind === 'organisation' && key.organisation_id && key.owner) {
    return {
      id: key.organisation_id,
      email: key.owner.email,
      fullName: key.owner.full_name,
      role: key.owner.role,
      permissions: apiKeyPermissions(key.scopes, 'organisation', normalizePermissions(key.owner.permissions)),
      companyName: key.owner.company_name,
      parentUserId: null,
      organisationId: key.organisation_id,
      sessionId: key.id,
      apiKey,
    };
  }
  return {
    id: key.id,
    email: '',
    fullName: key.name,
    role: INTEGRATION_ROLE,
    permissions: apiKeyPermissions(key.scopes, 'vendor'),
    companyName: null,
    parentUserId: null,
    organisationId: key.id,
    sessionId: key.id,
    apiKey,
  };
}

/**
 * OpenAPI: each route served to keys names the scopes that allow it (`x-required-scopes`, and a line
 * in its description) and both security schemes; the others only the bearer token.
 */
export function documentApiKeyScopes(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith(`${API_PREFIX}/`)) return;
    const methods = [route.method].flat().filter((method) => method !== 'OPTIONS' && method !== 'HEAD');
    const scopes = [...new Set(methods.flatMap((method) => scopesForRoute(`${method} ${route.url.slice(API_PREFIX.length)}`)))];
    const schema = (route.schema ??= {}) as Record<string, unknown>;
    if (scopes.length === 0) return;
    schema['x-required-scopes'] = scopes;
    schema.security = [{ bearer: [] }, { apiKey: [] }];
    const line = `API keys: needs the scope ${scopes.join(' or ')}.`;
    schema.description = typeof schema.description === 'string' ? `${schema.description}\n\n${line}` : line;
  });
}
