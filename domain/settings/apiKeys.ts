import { API_KEY_SCOPES, LEGACY_READ_SCOPES, scopesBeyond, scopesFor, type ApiKeyOwnerKind, type ApiKeyScope } from '../access/apiKeyScopes';
import type { Permission } from '../access/permissions';
import { isAdminRole } from '../access/roles';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';

/**
 * API keys for other systems. A key belongs to the vendor (made by administrators in System Settings)
 * or to one organisation (made by its owner account, the partner or distributor), carries scopes
 * (domain/access/apiKeyScopes.ts) and an expiry, and can be rotated (a new secret, the old one honoured
 * until the overlap ends) and revoked. The secret is shown once; what is kept is its SHA-256 hash (in
 * the `secret` schema, never in the event log) and a short prefix that tells keys apart.
 */

export { API_KEY_SCOPES, type ApiKeyOwnerKind, type ApiKeyScope };

const DAY_MS = 24 * 60 * 60 * 1000;
/** The longest a key may live: a year, so every key is renewed (rotated or replaced) at least yearly. */
export const API_KEY_MAX_DAYS = 365;
/** The expiry a new key gets when none is chosen. */
export const API_KEY_DEFAULT_DAYS = 90;
/** The longest an old secret keeps working after a rotation: a week to roll the new one out. */
export const API_KEY_MAX_OVERLAP_HOURS = 7 * 24;
/** Requests a minute a key may make when its creator chose no limit, and the most that may be chosen. */
export const API_KEY_DEFAULT_RATE_LIMIT = 120;
export const API_KEY_MAX_RATE_LIMIT = 1200;

export const API_KEY_MESSAGES = {
  onlyAdmins: 'Only administrators can manage the vendor’s API keys.',
  onlyOwner: 'Only the owner account of an organisation can manage its API keys.',
  nameRequired: 'Name is required.',
  nameTooLong: 'Name may have at most 80 characters.',
  created: 'API key created. Copy it now: it is not shown again.',
  createdBefore: 'This API key was created by an earlier request with the same Idempotency-Key; its key was shown in that answer only.',
  rotated: 'API key rotated. Copy the new key now: it is not shown again.',
  revoked: 'API key revoked',
  alreadyRevoked: 'This API key is already revoked.',
  expired: 'This API key has expired: create a new one.',
  notFound: 'API key not found.',
  scopeInvalid: `Scopes must be a list of: ${API_KEY_SCOPES.join(', ')}.`,
  scopeRequired: 'Choose at least one scope.',
  scopeNotForOwner: (scopes: string[]) => `These scopes cannot be given to this kind of key: ${scopes.join(', ')}.`,
  scopeBeyondRole: (scopes: string[]) => `Your organisation’s permissions do not allow these scopes: ${scopes.join(', ')}.`,
  expiryInPast: 'The expiry date must be in the future.',
  expiryTooFar: `A key may live at most ${API_KEY_MAX_DAYS} days.`,
  expiryInvalid: 'The expiry date is not a valid date.',
  overlapInvalid: `The overlap must be between 0 and ${API_KEY_MAX_OVERLAP_HOURS} hours.`,
  rateLimitInvalid: `The rate limit must be between 1 and ${API_KEY_MAX_RATE_LIMIT} requests a minute.`,
} as const;

export type ApiKeyOwner = { kind: 'vendor' } | { kind: 'organisation'; organisationId: string };

export type ApiKeyState =
  { status: 'none' } | { status: 'active' | 'revoked'; keyId: string; name: string; scopes: ApiKeyScope[]; owner: ApiKeyOwner; expiresAt: string | null };

export type ApiKeyEvent =
  /**
   * A vendor key made before owners, expiry and read scopes existed: it reads what LEGACY_READ_SCOPES
   * name, plus its write scopes, and never expires. `keyHash` only on the way into the store, which keeps
   * it in secret.event_secrets: events read back never carry it.
   */
  | { type: 'ApiKeyCreated.v1'; data: { keyId: string; name: string; prefix: string; keyHash?: string; scopes?: ApiKeyScope[] } }
  | {
      type: 'ApiKeyCreated.v2';
      data: {
        keyId: string;
        name: string;
        prefix: string;
        keyHash?: string;
        scopes: ApiKeyScope[];
        ownerKind: ApiKeyOwnerKind;
        /** The organisation (its owner account's id) of an organisation key; null for the vendor's. */
        organisationId: string | null;
        expiresAt: string;
        rateLimitPerMinute: number;
      };
    }
  /** A new secret; the previous one keeps working until `previousValidUntil` (now, with no overlap). */
  | {
      type: 'ApiKeyRotated.v1';
      data: { keyId: string; name: string; prefix: string; keyHash?: string; previousValidUntil: string; organisationId: string | null };
    }
  | { type: 'ApiKeyRevoked.v1'; data: { keyId: string; name: string; organisationId?: string | null } };

export type ApiKeyCommand =
  | {
      type: 'CreateApiKey';
      keyId: string;
      name: string;
      prefix: string;
      keyHash: string;
      scopes: ApiKeyScope[];
      owner: ApiKeyOwner;
      /** What the organisation's owner holds now: an organisation key never reaches beyond it. */
      ownerPermissions?: readonly Permission[];
      /** ISO date-time; API_KEY_DEFAULT_DAYS from now when absent. */
      expiresAt?: string;
      rateLimitPerMinute?: number;
    }
  | { type: 'RotateApiKey'; prefix: string; keyHash: string; overlapHours: number }
  | { type: 'RevokeApiKey' };

const organisationOf = (owner: ApiKeyOwner) => (owner.kind === 'organisation' ? owner.organisationId : null);

/** Administrators manage the vendor's keys; an organisation's owner account (only) manages its own. */
function assertManages(owner: ApiKeyOwner, metadata: CommandMetadata): void {
  if (owner.kind === 'vendor') {
    if (!isAdminRole(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', API_KEY_MESSAGES.onlyAdmins);
    return;
  }
  const ownerRole = metadata.actorRole === 'partner' || metadata.actorRole === 'distributor';
  if (!ownerRole || metadata.actorId !== owner.organisationId) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', API_KEY_MESSAGES.onlyOwner);
}

const invalid = (field: string, message: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);

function expiryOf(command: { expiresAt?: string }, now: string): string {
  const nowMs = Date.parse(now);
  if (command.expiresAt === undefined) return new Date(nowMs + API_KEY_DEFAULT_DAYS * DAY_MS).toISOString();
  const at = Date.parse(command.expiresAt);
  if (Number.isNaN(at)) throw invalid('expires_at', API_KEY_MESSAGES.expiryInvalid);
  if (at <= nowMs) throw invalid('expires_at', API_KEY_MESSAGES.expiryInPast);
  if (at > nowMs + API_KEY_MAX_DAYS * DAY_MS) throw invalid('expires_at', API_KEY_MESSAGES.expiryTooFar);
  return new Date(at).toISOString();
}

const hasExpired = (state: { expiresAt: string | null }, now: string) => state.expiresAt !== null && Date.parse(state.expiresAt) <= Date.parse(now);

export const apiKeys: Decider<ApiKeyState, ApiKeyCommand, ApiKeyEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyCreated.v1': {
        const scopes = [...new Set([...LEGACY_READ_SCOPES, ...(event.data.scopes ?? [])])];
        return { status: 'active', keyId: event.data.keyId, name: event.data.name, scopes, owner: { kind: 'vendor' }, expiresAt: null };
      }
      case 'ApiKeyCreated.v2': {
        const owner: ApiKeyOwner =
          event.data.ownerKind === 'organisation' && event.data.organisationId
            ? { kind: 'organisation', organisationId: event.data.organisationId }
            : { kind: 'vendor' };
        return { status: 'active', keyId: event.data.keyId, name: event.data.name, scopes: event.data.scopes, owner, expiresAt: event.data.expiresAt };
      }
      case 'ApiKeyRotated.v1':
        return state;
      case 'ApiKeyRevoked.v1':
        return state.status === 'none' ? state : { ...state, status: 'revoked' };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, metadata) {
    switch (command.type) {
      case 'CreateApiKey': {
        assertManages(command.owner, metadata);
        // A retried create of the same key changes nothing.
        if (state.status !== 'none') return [];
        const name = command.name.trim().replace(/\s+/g, ' ');
        if (!name) throw invalid('name', API_KEY_MESSAGES.nameRequired);
        if (name.length > 80) throw invalid('name', API_KEY_MESSAGES.nameTooLong);
        const scopes = API_KEY_SCOPES.filter((scope) => command.scopes.includes(scope));
        if (scopes.length === 0) throw invalid('scopes', API_KEY_MESSAGES.scopeRequired);
        const offered = new Set(scopesFor(command.owner.kind));
        const foreign = scopes.filter((scope) => !offered.has(scope));
        if (foreign.length) throw invalid('scopes', API_KEY_MESSAGES.scopeNotForOwner(foreign));
        if (command.owner.kind === 'organisation') {
          const beyond = scopesBeyond(scopes, command.ownerPermissions ?? [], metadata.actorRole ?? undefined);
          if (beyond.length)
            throw new DomainError('forbidden', 'SCOPE_BEYOND_ROLE', API_KEY_MESSAGES.scopeBeyondRole(beyond), [
              { field: 'scopes', message: API_KEY_MESSAGES.scopeBeyondRole(beyond) },
            ]);
        }
        const rateLimitPerMinute = command.rateLimitPerMinute ?? API_KEY_DEFAULT_RATE_LIMIT;
        if (!Number.isInteger(rateLimitPerMinute) || rateLimitPerMinute < 1 || rateLimitPerMinute > API_KEY_MAX_RATE_LIMIT)
          throw invalid('rate_limit_per_minute', API_KEY_MESSAGES.rateLimitInvalid);
        const expiresAt = expiryOf(command, metadata.now);
        return [
          {
            type: 'ApiKeyCreated.v2',
            data: {
              keyId: command.keyId,
              name,
              prefix: command.prefix,
              keyHash: command.keyHash,
              scopes,
              ownerKind: command.owner.kind,
              organisationId: organisationOf(command.owner),
              expiresAt,
              rateLimitPerMinute,
            },
          },
        ];
      }
      case 'RotateApiKey': {
        if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', API_KEY_MESSAGES.notFound);
        assertManages(state.owner, metadata);
        if (state.status === 'revoked') throw new DomainError('conflict', 'ALREADY_REVOKED', API_KEY_MESSAGES.alreadyRevoked);
        if (hasExpired(state, metadata.now)) throw new DomainError('conflict', 'API_KEY_EXPIRED', API_KEY_MESSAGES.expired);
        if (!Number.isInteger(command.overlapHours) || command.overlapHours < 0 || command.overlapHours > API_KEY_MAX_OVERLAP_HOURS)
          throw invalid('overlap_hours', API_KEY_MESSAGES.overlapInvalid);
        const overlapEnds = Date.parse(metadata.now) + command.overlapHours * 60 * 60 * 1000;
        // The old secret never outlives the key itself.
        const previousValidUntil = new Date(state.expiresAt ? Math.min(overlapEnds, Date.parse(state.expiresAt)) : overlapEnds).toISOString();
        return [
          {
            type: 'ApiKeyRotated.v1',
            data: {
              keyId: state.keyId,
              name: state.name,
              prefix: command.prefix,
              keyHash: command.keyHash,
              previousValidUntil,
              organisationId: organisationOf(state.owner),
            },
          },
        ];
      }
      case 'RevokeApiKey':
        if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', API_KEY_MESSAGES.notFound);
        // An administrator may also stop an organisation's key (a leaked secret), never rotate it: the new secret is the owner's to see.
        if (!(state.owner.kind === 'organisation' && isAdminRole(metadata.actorRole))) assertManages(state.owner, metadata);
        if (state.status === 'revoked') throw new DomainError('conflict', 'ALREADY_REVOKED', API_KEY_MESSAGES.alreadyRevoked);
        return [{ type: 'ApiKeyRevoked.v1', data: { keyId: state.keyId, name: state.name, organisationId: organisationOf(state.owner) } }];
      default:
        return assertNever(command);
    }
  },
  streamId: (id) => `apikeys-${id}`,
};
