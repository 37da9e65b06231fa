import { isAdminRole } from '../access/roles';
import { assertNever, DomainError, type Decider } from '../decider';

/**
 * API keys for analysts' tools, created and revoked in System Settings. The key itself is shown
 * once when it is made; what is kept is its SHA-256 hash (in the `secret` schema, never in the event
 * log) and a short prefix that lets an administrator tell keys apart. A request with a key acts as the named integration, with
 * read-only access to lists.
 */

export const API_KEY_MESSAGES = {
  onlyAdmins: 'Only administrators can manage API keys.',
  nameRequired: 'Name is required.',
  nameTooLong: 'Name may have at most 80 characters.',
  created: 'API key created. Copy it now: it is not shown again.',
  createdBefore: 'This API key was created by an earlier request with the same Idempotency-Key; its key was shown in that answer only.',
  revoked: 'API key revoked',
  alreadyRevoked: 'This API key is already revoked.',
  notFound: 'API key not found.',
} as const;

export type ApiKeyState =
  | { status: 'none' }
  | { status: 'active' | 'revoked'; keyId: string; name: string };

export type ApiKeyEvent =
  /** `keyHash` only on the way into the store, which keeps it in secret.event_secrets: events read back never carry it. */
  | { type: 'ApiKeyCreated.v1'; data: { keyId: string; name: string; prefix: string; keyHash?: string } }
  | { type: 'ApiKeyRevoked.v1'; data: { keyId: string; name: string } };

export type ApiKeyCommand =
  | { type: 'CreateApiKey'; keyId: string; name: string; prefix: string; keyHash: string }
  | { type: 'RevokeApiKey' };

export const apiKeys: Decider<ApiKeyState, ApiKeyCommand, ApiKeyEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyCreated.v1':
        return { status: 'active', keyId: event.data.keyId, name: event.data.name };
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
        return [{ type: 'ApiKeyCreated.v1', data: { keyId: command.keyId, name, prefix: command.prefix, keyHash: command.keyHash } }];
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
