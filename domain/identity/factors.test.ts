import { describe, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { FACTOR_MESSAGES, factors, type FactorEvent } from './factors';

const spec = deciderSpec(factors);
const userId = 'u-1';
const hashes = Array.from({ length: 10 }, (_, i) => `hash-${i}`);

const totpEnrolled: FactorEvent = { type: 'TotpEnrolled.v1', data: { userId, factorId: 'f-1', secret: 'SEED' } };
const codesIssued: FactorEvent = { type: 'RecoveryCodesIssued.v1', data: { userId, count: 10, codeHashes: JSON.stringify(hashes) } };
const passkey: FactorEvent = {
  type: 'PasskeyRegistered.v1',
  data: { userId, factorId: 'f-2', credentialId: 'cred-1', publicKey: 'pk', counter: 0, transports: ['internal'], name: 'Laptop' },
};

describe('second factors', () => {
  describe('with none', () => {
    it('enrols an authenticator app with ten recovery codes', () =>
      spec.given([]).when({ type: 'EnrolTotp', userId, factorId: 'f-1', secret: 'SEED', recoveryCodeHashes: hashes }).then([totpEnrolled, codesIssued]));
    it('refuses a set that is not ten codes', () =>
      spec
        .given([])
        .when({ type: 'EnrolTotp', userId, factorId: 'f-1', secret: 'SEED', recoveryCodeHashes: hashes.slice(1) })
        .thenThrows(FACTOR_MESSAGES.recoveryCodeCount));
    it('registers a passkey under a trimmed name', () =>
      spec
        .given([])
        .when({
          type: 'RegisterPasskey',
          userId,
          factorId: 'f-2',
          credentialId: 'cred-1',
          publicKey: 'pk',
          counter: 0,
          transports: ['internal'],
          name: ' Laptop ',
        })
        .then([passkey]));
    it('refuses a passkey without a name', () =>
      spec
        .given([])
        .when({ type: 'RegisterPasskey', userId, factorId: 'f-2', credentialId: 'c', publicKey: 'pk', counter: 0, transports: [], name: ' ' })
        .thenThrows(FACTOR_MESSAGES.passkeyNameRequired));
    it('has no recovery code to use', () =>
      spec.given([]).when({ type: 'UseRecoveryCode', userId, index: 0 }).thenThrows(FACTOR_MESSAGES.recoveryCodeUnknown, 'RECOVERY_CODE_UNKNOWN'));
    it('has nothing for an administrator to reset', () =>
      spec
        .given([])
        .when({ type: 'ResetFactors', userId, reason: 'Lost phone' }, { actorRole: 'admin' })
        .thenThrows(FACTOR_MESSAGES.nothingToReset, 'NO_FACTORS'));
  });

  describe('with an authenticator app', () => {
    const given = [totpEnrolled, codesIssued];
    it('refuses a second one', () =>
      spec
        .given(given)
        .when({ type: 'EnrolTotp', userId, factorId: 'f-9', secret: 'S', recoveryCodeHashes: hashes })
        .thenThrows(FACTOR_MESSAGES.totpAlreadyEnrolled, 'TOTP_ALREADY_ENROLLED'));
    it('spends a recovery code once', () =>
      spec
        .given(given)
        .when({ type: 'UseRecoveryCode', userId, index: 4 })
        .then([{ type: 'RecoveryCodeUsed.v1', data: { userId, index: 4 } }]));
    it('refuses a recovery code used before', () =>
      spec
        .given([...given, { type: 'RecoveryCodeUsed.v1', data: { userId, index: 4 } }])
        .when({ type: 'UseRecoveryCode', userId, index: 4 })
        .thenThrows(FACTOR_MESSAGES.recoveryCodeUsed, 'RECOVERY_CODE_USED'));
    it('removing the app voids its recovery codes', () =>
      spec
        .given([...given, { type: 'FactorRemoved.v1', data: { userId, factorId: 'f-1', kind: 'totp' } }])
        .when({ type: 'UseRecoveryCode', userId, index: 0 })
        .thenThrows(FACTOR_MESSAGES.recoveryCodeUnknown));
    it('an administrator resets every factor, with a reason', () =>
      spec
        .given(given)
        .when({ type: 'ResetFactors', userId, reason: ' Lost phone ' }, { actorRole: 'admin' })
        .then([{ type: 'FactorsReset.v1', data: { userId, reason: 'Lost phone' } }]));
    it.each(['partner', 'support', null])('a %s may not reset factors', (actorRole) =>
      spec
        .given(given)
        .when({ type: 'ResetFactors', userId, reason: 'x' }, { actorRole })
        .thenThrows(FACTOR_MESSAGES.onlyAdminsReset, 'INSUFFICIENT_PERMISSIONS'),
    );
    it('a reset needs a reason', () =>
      spec.given(given).when({ type: 'ResetFactors', userId, reason: '  ' }, { actorRole: 'admin' }).thenThrows(FACTOR_MESSAGES.resetReasonRequired));
    it('after a reset, the app can be set up again', () =>
      spec
        .given([...given, { type: 'FactorsReset.v1', data: { userId, reason: 'Lost phone' } }])
        .when({ type: 'EnrolTotp', userId, factorId: 'f-1', secret: 'SEED', recoveryCodeHashes: hashes })
        .then([totpEnrolled, codesIssued]));
  });

  describe('with a passkey', () => {
    it('refuses the same credential twice', () =>
      spec
        .given([passkey])
        .when({ type: 'RegisterPasskey', userId, factorId: 'f-3', credentialId: 'cred-1', publicKey: 'pk', counter: 0, transports: [], name: 'Again' })
        .thenThrows(FACTOR_MESSAGES.passkeyKnown, 'PASSKEY_KNOWN'));
    it('remembers an advancing signature counter', () =>
      spec
        .given([passkey])
        .when({ type: 'UsePasskey', userId, credentialId: 'cred-1', counter: 3 })
        .then([{ type: 'PasskeyUsed.v1', data: { userId, factorId: 'f-2', counter: 3 } }]));
    it('a counter that does not advance (authenticators without one) records nothing', () =>
      spec.given([passkey]).when({ type: 'UsePasskey', userId, credentialId: 'cred-1', counter: 0 }).then([]));
    it('refuses an unknown passkey', () =>
      spec.given([passkey]).when({ type: 'UsePasskey', userId, credentialId: 'other', counter: 1 }).thenThrows(FACTOR_MESSAGES.passkeyUnknown));
    it('removes it', () =>
      spec
        .given([passkey])
        .when({ type: 'RemoveFactor', userId, factorId: 'f-2' })
        .then([{ type: 'FactorRemoved.v1', data: { userId, factorId: 'f-2', kind: 'passkey' } }]));
    it('refuses to remove an unknown factor', () =>
      spec.given([passkey]).when({ type: 'RemoveFactor', userId, factorId: 'nope' }).thenThrows(FACTOR_MESSAGES.factorUnknown));
  });
});
