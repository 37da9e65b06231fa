import { isAdminRole } from '../access/roles';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';

/**
 * A person's second factors: an authenticator app (TOTP) with its ten single-use recovery codes, and
 * passkeys. One stream per person (`factors-<userId>`). The TOTP secret and the recovery codes' hashes
 * are secret fields: the event store keeps them out of the log (domain/personalData.ts).
 */

export const RECOVERY_CODE_COUNT = 10;

export interface PasskeyState {
  factorId: string;
  credentialId: string;
  counter: number;
}

export interface FactorsState {
  totp: { factorId: string } | null;
  /** How many recovery codes the current set has, and which of them (by index) were spent. */
  recoveryCodes: number;
  usedRecoveryCodes: readonly number[];
  passkeys: readonly PasskeyState[];
}

export type FactorEvent =
  /** `secret` only on the way into the store. */
  | { type: 'TotpEnrolled.v1'; data: { userId: string; factorId: string; secret?: string } }
  /** `codeHashes` (a JSON list of argon2 hashes) only on the way into the store. A new set replaces the old one. */
  | { type: 'RecoveryCodesIssued.v1'; data: { userId: string; count: number; codeHashes?: string } }
  | { type: 'RecoveryCodeUsed.v1'; data: { userId: string; index: number } }
  | {
      type: 'PasskeyRegistered.v1';
      data: { userId: string; factorId: string; credentialId: string; publicKey: string; counter: number; transports: string[]; name: string };
    }
  | { type: 'PasskeyUsed.v1'; data: { userId: string; factorId: string; counter: number } }
  | { type: 'FactorRemoved.v1'; data: { userId: string; factorId: string; kind: 'totp' | 'passkey' } }
  /** An administrator's reset: every factor and recovery code is gone; the reason is audited. */
  | { type: 'FactorsReset.v1'; data: { userId: string; reason: string } };

export type FactorCommand =
  | { type: 'EnrolTotp'; userId: string; factorId: string; secret: string; recoveryCodeHashes: string[] }
  | { type: 'UseRecoveryCode'; userId: string; index: number }
  | { type: 'RegisterPasskey'; userId: string; factorId: string; credentialId: string; publicKey: string; counter: number; transports: string[]; name: string }
  | { type: 'UsePasskey'; userId: string; credentialId: string; counter: number }
  | { type: 'RemoveFactor'; userId: string; factorId: string }
  | { type: 'ResetFactors'; userId: string; reason: string };

export const FACTOR_MESSAGES = {
  totpAlreadyEnrolled: 'An authenticator app is already set up. Remove it first to set up another one.',
  recoveryCodeCount: `A set of recovery codes has exactly ${RECOVERY_CODE_COUNT} codes.`,
  recoveryCodeUsed: 'This recovery code has already been used.',
  recoveryCodeUnknown: 'There is no such recovery code.',
  passkeyKnown: 'This passkey is already registered.',
  passkeyUnknown: 'This passkey is not registered for this account.',
  passkeyNameRequired: 'Give the passkey a name.',
  factorUnknown: 'There is no such second factor.',
  onlyAdminsReset: "Only administrators can reset a person's second factors.",
  resetReasonRequired: 'A reason is required to reset second factors.',
  nothingToReset: 'This person has no second factor.',
} as const;

export const initialFactors = (): FactorsState => ({ totp: null, recoveryCodes: 0, usedRecoveryCodes: [], passkeys: [] });

/** Whether any second factor is set up. */
export const hasFactor = (state: FactorsState) => Boolean(state.totp) || state.passkeys.length > 0;

export function decide(command: FactorCommand, state: FactorsState, metadata: CommandMetadata): FactorEvent[] {
  const { userId } = command;
  switch (command.type) {
    case 'EnrolTotp': {
      if (state.totp) throw new DomainError('conflict', 'TOTP_ALREADY_ENROLLED', FACTOR_MESSAGES.totpAlreadyEnrolled);
      if (command.recoveryCodeHashes.length !== RECOVERY_CODE_COUNT) throw new DomainError('invalid', 'VALIDATION_ERROR', FACTOR_MESSAGES.recoveryCodeCount);
      return [
        { type: 'TotpEnrolled.v1', data: { userId, factorId: command.factorId, secret: command.secret } },
        { type: 'RecoveryCodesIssued.v1', data: { userId, count: RECOVERY_CODE_COUNT, codeHashes: JSON.stringify(command.recoveryCodeHashes) } },
      ];
    }
    case 'UseRecoveryCode': {
      if (!Number.isInteger(command.index) || command.index < 0 || command.index >= state.recoveryCodes) {
        throw new DomainError('invalid', 'RECOVERY_CODE_UNKNOWN', FACTOR_MESSAGES.recoveryCodeUnknown);
      }
      if (state.usedRecoveryCodes.includes(command.index)) throw new DomainError('conflict', 'RECOVERY_CODE_USED', FACTOR_MESSAGES.recoveryCodeUsed);
      return [{ type: 'RecoveryCodeUsed.v1', data: { userId, index: command.index } }];
    }
    case 'RegisterPasskey': {
      const name = command.name.trim();
      if (!name)
        throw new DomainError('invalid', 'VALIDATION_ERROR', FACTOR_MESSAGES.passkeyNameRequired, [
          { field: 'name', message: FACTOR_MESSAGES.passkeyNameRequired },
        ]);
      if (state.passkeys.some((p) => p.credentialId === command.credentialId)) throw new DomainError('conflict', 'PASSKEY_KNOWN', FACTOR_MESSAGES.passkeyKnown);
      const { type: _type, ...data } = command;
      return [{ type: 'PasskeyRegistered.v1', data: { ...data, name } }];
    }
    case 'UsePasskey': {
      const passkey = state.passkeys.find((p) => p.credentialId === command.credentialId);
      if (!passkey) throw new DomainError('not_found', 'PASSKEY_UNKNOWN', FACTOR_MESSAGES.passkeyUnknown);
      // Authenticators that keep no counter always report 0: nothing to remember then.
      if (command.counter <= passkey.counter) return [];
      return [{ type: 'PasskeyUsed.v1', data: { userId, factorId: passkey.factorId, counter: command.counter } }];
    }
    case 'RemoveFactor': {
      if (state.totp?.factorId === command.factorId) return [{ type: 'FactorRemoved.v1', data: { userId, factorId: command.factorId, kind: 'totp' } }];
      if (state.passkeys.some((p) => p.factorId === command.factorId))
        return [{ type: 'FactorRemoved.v1', data: { userId, factorId: command.factorId, kind: 'passkey' } }];
      throw new DomainError('not_found', 'NOT_FOUND', FACTOR_MESSAGES.factorUnknown);
    }
    case 'ResetFactors': {
      if (!isAdminRole(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', FACTOR_MESSAGES.onlyAdminsReset);
      const reason = command.reason.trim();
      if (!reason)
        throw new DomainError('invalid', 'VALIDATION_ERROR', FACTOR_MESSAGES.resetReasonRequired, [
          { field: 'reason', message: FACTOR_MESSAGES.resetReasonRequired },
        ]);
      if (!hasFactor(state) && state.recoveryCodes === 0) throw new DomainError('conflict', 'NO_FACTORS', FACTOR_MESSAGES.nothingToReset);
      return [{ type: 'FactorsReset.v1', data: { userId, reason } }];
    }
    default:
      return assertNever(command);
  }
}

export function evolve(state: FactorsState, event: FactorEvent): FactorsState {
  switch (event.type) {
    case 'TotpEnrolled.v1':
      return { ...state, totp: { factorId: event.data.factorId } };
    case 'RecoveryCodesIssued.v1':
      return { ...state, recoveryCodes: event.data.count, usedRecoveryCodes: [] };
    case 'RecoveryCodeUsed.v1':
      return { ...state, usedRecoveryCodes: [...state.usedRecoveryCodes, event.data.index] };
    case 'PasskeyRegistered.v1':
      return { ...state, passkeys: [...state.passkeys, { factorId: event.data.factorId, credentialId: event.data.credentialId, counter: event.data.counter }] };
    case 'PasskeyUsed.v1':
      return { ...state, passkeys: state.passkeys.map((p) => (p.factorId === event.data.factorId ? { ...p, counter: event.data.counter } : p)) };
    case 'FactorRemoved.v1':
      // The recovery codes belong to the authenticator app they were issued with.
      return event.data.kind === 'totp'
        ? { ...state, totp: null, recoveryCodes: 0, usedRecoveryCodes: [] }
        : { ...state, passkeys: state.passkeys.filter((p) => p.factorId !== event.data.factorId) };
    case 'FactorsReset.v1':
      return initialFactors();
    default:
      return assertNever(event);
  }
}

export const factors: Decider<FactorsState, FactorCommand, FactorEvent> = {
  initialState: initialFactors,
  evolve,
  decide,
  streamId: (userId) => `factors-${userId}`,
};
