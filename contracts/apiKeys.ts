import { z } from 'zod';
import { API_KEY_OWNER_KINDS, API_KEY_SCOPES } from '../domain/access/apiKeyScopes';
import { API_KEY_MAX_OVERLAP_HOURS, API_KEY_MAX_RATE_LIMIT, API_KEY_MESSAGES } from '../domain/settings/apiKeys';
import { createdAnswers, recordAnswer } from './answers';

/** The scopes a request may name: the catalogue's, each spelled exactly. */
const scopeList = z
  .array(z.enum(API_KEY_SCOPES, { error: API_KEY_MESSAGES.scopeInvalid }), { error: API_KEY_MESSAGES.scopeInvalid })
  .max(API_KEY_SCOPES.length, API_KEY_MESSAGES.scopeInvalid);

const keyFields = {
  name: z.string().max(80, API_KEY_MESSAGES.nameTooLong),
  /** ISO date-time: at most a year ahead; 90 days when left out. */
  expires_at: z.iso.datetime({ offset: true, error: API_KEY_MESSAGES.expiryInvalid }).optional(),
  rate_limit_per_minute: z
    .number({ error: API_KEY_MESSAGES.rateLimitInvalid })
    .int(API_KEY_MESSAGES.rateLimitInvalid)
    .min(1, API_KEY_MESSAGES.rateLimitInvalid)
    .max(API_KEY_MAX_RATE_LIMIT, API_KEY_MESSAGES.rateLimitInvalid)
    .optional(),
};

/** POST /api/settings/api-keys: a vendor key; without scopes it reads what keys always could. */
export const vendorApiKeyBody = z
  .object({ ...keyFields, scopes: scopeList.optional() })
  .strict()
  .meta({ example: { name: 'Web form leads', scopes: ['leads:write'], expires_at: '2027-06-30T00:00:00.000Z' } });

/** POST /api/organisation/api-keys: a key of the caller's own organisation. */
export const organisationApiKeyBody = z
  .object({ ...keyFields, scopes: scopeList.min(1, API_KEY_MESSAGES.scopeRequired) })
  .strict()
  .meta({ example: { name: 'CRM sync', scopes: ['projects:write', 'orders:read'], expires_at: '2027-06-30T00:00:00.000Z', rate_limit_per_minute: 60 } });

/** POST …/api-keys/:id/rotate */
export const rotateApiKeyBody = z
  .object({
    overlap_hours: z
      .number({ error: API_KEY_MESSAGES.overlapInvalid })
      .int(API_KEY_MESSAGES.overlapInvalid)
      .min(0, API_KEY_MESSAGES.overlapInvalid)
      .max(API_KEY_MAX_OVERLAP_HOURS, API_KEY_MESSAGES.overlapInvalid),
  })
  .strict()
  .meta({ example: { overlap_hours: 24 } });

export const apiKeyParams = z.object({ id: z.uuid({ error: API_KEY_MESSAGES.notFound }) }).strict();

export const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, to tell keys apart; the key itself is never shown again. */
  prefix: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  owner_kind: z.enum(API_KEY_OWNER_KINDS),
  organisation_id: z.string().nullable(),
  organisation_name: z.string().nullable(),
  created_at: z.string(),
  created_by_name: z.string().nullable(),
  /** Null only for keys made before keys expired. */
  expires_at: z.string().nullable(),
  /** Null: the portal's default for keys. */
  rate_limit_per_minute: z.number().int().nullable(),
  rotated_at: z.string().nullable(),
  /** While a rotation's overlap lasts: until when the previous secret still works. */
  previous_valid_until: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;

/** A created or rotated key: the record, and the secret (this answer only). */
export const apiKeyWithSecret = apiKeyView.extend({ key: z.string().optional() });
export type ApiKeyWithSecret = z.infer<typeof apiKeyWithSecret>;

export const apiKeyListAnswer = z.object({ success: z.literal(true), data: z.array(apiKeyView) });
export const apiKeyCreatedAnswers = createdAnswers(apiKeyWithSecret);
export const apiKeyAnswer = recordAnswer(apiKeyView);
export const apiKeyRotatedAnswer = recordAnswer(apiKeyWithSecret);

export const apiKeyScopeView = z.object({
  scope: z.enum(API_KEY_SCOPES),
  label: z.string(),
  description: z.string(),
  access: z.enum(['read', 'write']),
  /** The routes the scope allows a key of this owner kind (`POST /api/projects`). */
  routes: z.array(z.string()),
  /** For an organisation owner: whether its permissions allow the scope now. */
  allowed: z.boolean(),
});
export type ApiKeyScopeView = z.infer<typeof apiKeyScopeView>;
export const apiKeyOptions = z.object({
  scopes: z.array(apiKeyScopeView),
  max_days: z.number(),
  default_days: z.number(),
  max_overlap_hours: z.number(),
  default_rate_limit: z.number(),
  max_rate_limit: z.number(),
});
export type ApiKeyOptions = z.infer<typeof apiKeyOptions>;
export const apiKeyOptionsAnswer = z.object({ success: z.literal(true), data: apiKeyOptions });
