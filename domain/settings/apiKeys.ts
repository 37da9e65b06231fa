import type { Permission } from '../access/permissions';
import { isAdminRole } from '../access/roles';
import { assertNever, DomainError, type Decider } from '../decider';

/**
 * API keys for analysts' tools, created and revoked in System Settings. The key itself is shown
 * once when it is made; what is kept is its SHA-256 hash (in the `secret` schema, never in the event
 * log) and a short prefix that lets an administrator tell keys apart. A request with a key acts as the named integration, with
 * read-only access to lists, and may make the writes its scopes name (none unless chosen).
 */

export const API_KEY_SCOPES = ['leads:write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** What each scope lets a key write: the routes (as domain/access/api.ts names them) and the permissions they need. */
export const API_KEY_SCOPE_GRANTS: Readonly<Record<ApiKeyScope, { routes: readonly string[]; permissions: readonly Permission[] }>> = {
  'leads:write': { routes: ['POST /leads', 'POST /leads/import'], permissions: ['Leads.Create'] },
};

/** The scope that lets a key make this write (`POST /leads`), if any. */
export const scopeForRoute = (route: string): ApiKeyScope | undefined => API_KEY_SCOPES.find((scope) => API_KEY_SCOPE_GRANTS[scope].routes.includes(route));

export const API_KEY_MESSAGES = {
  onlyAdmins: 'Only administrators can manage API keys.',
  nameRequired: 'Name is required.',
  nameTooLong: 'Name may have at most 80 characters.',
  created: 'API key created. Copy it now: it is not shown again.',
  createdBefore: 'This API key was created by an earlier request with the same Idempotency-Key; its key was shown in that answer only.',
  revoked: 'API key revoked',
  alreadyRevoked: 'This API key is already revoked.',
  notFound: 'API key not found.',
  scopeInvalid: `Scopes must be a list of: ${API_KEY_SCOPES.join(', ')}.`,
} as const;

export type ApiKeyState =
  | { status: 'none' }
  | { status: 'active' | 'revoked'; keyId: string; name: string; scopes: ApiKeyScope[] };

export type ApiKeyEvent =
  /** `keyHash` only on the way into the store, which keeps it in secret.event_secrets: events read back never carry it. `scopes` is absent from the keys made before scopes existed: read-only. */
  | { type: 'ApiKeyCreated.v1'; data: { keyId: string; name: string; prefix: string; keyHash?: string; scopes?: ApiKeyScope[] } }
  | { type: 'ApiKeyRevoked.v1'; data: { keyId: string; name: string } };

export type ApiKeyCommand =
  | { type: 'CreateApiKey'; keyId: string; name: string; prefix: string; keyHash: string; scopes: ApiKeyScope[] }
  | { type: 'RevokeApiKey' };

export const apiKeys: Decider<ApiKeyState, ApiKeyCommand, ApiKeyEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyCreated.v1':
        return { status: 'active', keyId: event.data.keyId, name: event.data.name, scopes: event.data.scopes ?? [] };
      case 'ApiKeyRevoked.v1':
        return state.status === 'none' ? state : { ...state, status: 'revoked' };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, metadata) {
    if (!isAdminRole(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', API_KEY_MESSAGES.onlyAdmins);
    switch (command.type) {
      case 'CreateApiKey': {
        // A retried create of the same key changes nothing.
        if (state.status !== 'none') return [];
        const name = command.name.trim().replace(/\s+/g, ' ');
        if (!name) throw new DomainError('invalid', 'VALIDATION_ERROR', API_KEY_MESSAGES.nameRequired, [{ field: 'name', message: API_KEY_MESSAGES.nameRequired }]);
        if (name.length > 80) throw new DomainError('invalid', 'VALIDATION_ERROR', API_KEY_MESSAGES.nameTooLong, [{ field: 'name', message: API_KEY_MESSAGES.nameTooLong }]);
        const scopes = API_KEY_SCOPES.filter((scope) => command.scopes.includes(scope));
        return [{ type: 'ApiKeyCreated.v1', data: { keyId: command.keyId, name, prefix: command.prefix, keyHash: command.keyHash, scopes } }];
      }
      case 'RevokeApiKey':
        if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', API_KEY_MESSAGES.notFound);
        if (state.status === 'revoked') throw new DomainError('conflict', 'ALREADY_REVOKED', API_KEY_MESSAGES.alreadyRevoked);
        return [{ type: 'ApiKeyRevoked.v1', data: { keyId: state.keyId, name: state.name } }];
      default:
        return assertNever(command);
    }
  },
  streamId: (id) => `apikeys-${id}`,
};
