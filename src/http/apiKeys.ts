import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiKeyOptionsAnswer,
  apiKeyAnswer,
  apiKeyCreatedAnswers,
  apiKeyListAnswer,
  apiKeyParams,
  apiKeyRotatedAnswer,
  organisationApiKeyBody,
  rotateApiKeyBody,
  vendorApiKeyBody,
  apiKeyView,
  type ApiKeyOptions,
} from '../../contracts/apiKeys';
import {
  API_KEY_SCOPE_DEFINITIONS,
  LEGACY_READ_SCOPES,
  routesOfScope,
  scopesBeyond,
  scopesFor,
  seesAllOrganisations,
  type ApiKeyOwnerKind,
  type Permission,
} from '../../domain/access';
import {
  API_KEY_DEFAULT_DAYS,
  API_KEY_DEFAULT_RATE_LIMIT,
  API_KEY_MAX_DAYS,
  API_KEY_MAX_OVERLAP_HOURS,
  API_KEY_MAX_RATE_LIMIT,
  API_KEY_MESSAGES,
  apiKeys,
  type ApiKeyOwner,
  type ApiKeyScope,
} from '../../domain/settings/apiKeys';
import { apiKeyOf, listApiKeys, listOrganisationApiKeys, ORGANISATION_API_KEY_SORT_FIELDS } from '../../projections/settings';
import { listAnswer } from '../../contracts/answers';
import { z } from 'zod';
import { listQuerySchema } from '../../contracts/lists';
import { sendList } from './lists';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import { generateApiKey } from '../plugins/apiKeys';
import { HttpError } from '../plugins/errors';
import type { Services } from '../../platform/services';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { recordAnswer } from './records';

const organisationKeyListQuery = listQuerySchema({ status: z.enum(['active', 'expired', 'revoked']).optional() }, ORGANISATION_API_KEY_SORT_FIELDS);

/** What a key-creation form offers: the scopes (with their routes) and the limits. */
function optionsFor(owner: ApiKeyOwnerKind, ownerPermissions?: readonly Permission[], ownerRole?: string): ApiKeyOptions {
  const beyond = new Set(owner === 'organisation' ? scopesBeyond(scopesFor(owner), ownerPermissions ?? [], ownerRole) : []);
  return {
    scopes: scopesFor(owner).map((scope) => {
      const definition = API_KEY_SCOPE_DEFINITIONS[scope];
      return {
        scope,
        label: definition.label,
        description: definition.description,
        access: definition.access,
        routes: routesOfScope(scope, owner).map((route) => route.replace(' /', ' /api/')),
        allowed: !beyond.has(scope),
      };
    }),
    max_days: API_KEY_MAX_DAYS,
    default_days: API_KEY_DEFAULT_DAYS,
    max_overlap_hours: API_KEY_MAX_OVERLAP_HOURS,
    default_rate_limit: API_KEY_DEFAULT_RATE_LIMIT,
    max_rate_limit: API_KEY_MAX_RATE_LIMIT,
  };
}

/**
 * API keys: the vendor's in System Settings (administrators), each organisation's on its API keys
 * page (its owner account). A key's secret is in the answer that creates or rotates it, and nowhere else.
 */
export async function apiKeyRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, reads } = services;

  /** The organisation a request manages keys for: undefined for the vendor's routes. */
  type Scope = { owner: ApiKeyOwner; organisationId?: string | null };
  const vendor = (): Scope => ({ owner: { kind: 'vendor' } });
  // Administrators oversee every organisation's keys (and may revoke a leaked one); owners their own.
  const organisation = (request: FastifyRequest): Scope => ({
    owner: { kind: 'organisation', organisationId: request.principal.organisationId },
    organisationId: seesAllOrganisations(request.principal.role) ? null : request.principal.organisationId,
  });

  const found = async (scope: Scope, id: string) => {
    const key = await apiKeyOf(pool, id, scope.organisationId);
    if (!key) throw new HttpError(404, 'NOT_FOUND', API_KEY_MESSAGES.notFound);
    return key;
  };

  async function create(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: Scope,
    body: { name: string; scopes?: ApiKeyScope[]; expires_at?: string; rate_limit_per_minute?: number },
    location: string,
  ) {
    const keyId = newRecordId(request, 'api-key');
    const created = { id: keyId, location };
    const earlier = await earlierCreation(services, request, apiKeys.streamId(keyId), keyId);
    // The secret is stored hashed: a repeated request gets the record without it.
    if (earlier)
      return answerCreated(services, reply, { ...created, earlier }, async () => recordAnswer(await found(scope, keyId), API_KEY_MESSAGES.createdBefore));
    const { key, prefix, keyHash } = generateApiKey();
    // Vendor keys made without scopes read what keys always could.
    const scopes = body.scopes ?? (scope.owner.kind === 'vendor' ? [...LEGACY_READ_SCOPES] : []);
    await runCommand(
      services,
      apiKeys,
      keyId,
      {
        type: 'CreateApiKey',
        keyId,
        name: body.name,
        prefix,
        keyHash,
        scopes,
        owner: scope.owner,
        ownerPermissions: scope.owner.kind === 'organisation' ? request.principal.permissions : undefined,
        expiresAt: body.expires_at,
        rateLimitPerMinute: body.rate_limit_per_minute,
      },
      metadataFromRequest(request),
    );
    // The key is in this answer only (a 202 included): it is stored hashed.
    return answerCreated(services, reply, created, async () => recordAnswer({ ...(await found(scope, keyId)), key }, API_KEY_MESSAGES.created), { key });
  }

  async function rotate(request: FastifyRequest, scope: Scope, id: string, overlapHours: number) {
    await found(scope, id);
    const { key, prefix, keyHash } = generateApiKey();
    await runCommand(services, apiKeys, id, { type: 'RotateApiKey', prefix, keyHash, overlapHours }, metadataFromRequest(request));
    return recordAnswer({ ...(await found(scope, id)), key }, API_KEY_MESSAGES.rotated);
  }

  async function revoke(request: FastifyRequest, scope: Scope, id: string) {
    await found(scope, id);
    await runCommand(services, apiKeys, id, { type: 'RevokeApiKey' }, metadataFromRequest(request));
    return recordAnswer(await found(scope, id), API_KEY_MESSAGES.revoked);
  }

  // ---- the vendor's keys (System Settings) ----

  app.get(
    '/settings/api-keys',
    {
      schema: {
        tags: ['api-keys'],
        summary: "The vendor's API keys, live ones first (administrators; secrets are never shown again)",
        response: { 200: apiKeyListAnswer },
      },
    },
    async () => {
      return { success: true as const, data: await listApiKeys(reads) };
    },
  );

  app.get(
    '/settings/api-keys/options',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'The scopes a vendor key may be given, with the routes each allows, and the limits (administrators)',
        response: { 200: apiKeyOptionsAnswer },
      },
    },
    async () => {
      return { success: true as const, data: optionsFor('vendor') };
    },
  );

  app.post(
    '/settings/api-keys',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Create a vendor API key for an integration; the answer holds the key, once (administrators)',
        body: vendorApiKeyBody,
        response: apiKeyCreatedAnswers,
      },
    },
    async (request, reply) => create(request, reply, vendor(), request.body, '/api/settings/api-keys'),
  );

  app.post(
    '/settings/api-keys/:id/rotate',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Give a vendor key a new secret; the old one works until the overlap ends (administrators)',
        params: apiKeyParams,
        body: rotateApiKeyBody,
        response: { 200: apiKeyRotatedAnswer },
      },
    },
    async (request) => rotate(request, vendor(), request.params.id, request.body.overlap_hours),
  );

  app.delete(
    '/settings/api-keys/:id',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Revoke a vendor API key: requests with it are refused at once (administrators)',
        params: apiKeyParams,
        response: { 200: apiKeyAnswer },
      },
    },
    async (request) => revoke(request, vendor(), request.params.id),
  );

  // ---- an organisation's own keys (its owner account) ----

  app.get(
    '/organisation/api-keys',
    {
      schema: {
        tags: ['api-keys'],
        summary: "The caller's organisation's API keys, live ones first (its owner account; administrators see every organisation's)",
        querystring: organisationKeyListQuery,
        response: { 200: listAnswer('api_keys', apiKeyView) },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const { rows, total } = await listOrganisationApiKeys(reads, {
        organisationId: seesAllOrganisations(request.principal.role) ? undefined : request.principal.organisationId,
        ids: query.ids,
        search: query.search,
        status: query.filters.status,
        sort: query.sort,
        offset: query.offset,
        limit: query.limit,
      });
      return sendList(reply, 'api_keys', query, rows, total);
    },
  );

  app.get(
    '/organisation/api-keys/options',
    {
      schema: {
        tags: ['api-keys'],
        summary: "The scopes an organisation key may be given, and whether the organisation's permissions allow each",
        response: { 200: apiKeyOptionsAnswer },
      },
    },
    async (request) => ({ success: true as const, data: optionsFor('organisation', request.principal.permissions, request.principal.role) }),
  );

  app.post(
    '/organisation/api-keys',
    {
      schema: {
        tags: ['api-keys'],
        summary:
          "Create an API key for the organisation's own systems (a CRM, an ERP); it acts for the organisation, never beyond its permissions. The answer holds the key, once",
        body: organisationApiKeyBody,
        response: apiKeyCreatedAnswers,
      },
    },
    async (request, reply) => create(request, reply, organisation(request), request.body, '/api/organisation/api-keys'),
  );

  app.post(
    '/organisation/api-keys/:id/rotate',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Give an organisation key a new secret; the old one works until the overlap ends',
        params: apiKeyParams,
        body: rotateApiKeyBody,
        response: { 200: apiKeyRotatedAnswer },
      },
    },
    async (request) => rotate(request, organisation(request), request.params.id, request.body.overlap_hours),
  );

  app.delete(
    '/organisation/api-keys/:id',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Revoke an organisation key: requests with it are refused at once',
        params: apiKeyParams,
        response: { 200: apiKeyAnswer },
      },
    },
    async (request) => revoke(request, organisation(request), request.params.id),
  );
}
