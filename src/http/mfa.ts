import { randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { z } from 'zod';
import {
  challengeBody,
  challengeOnlyBody,
  enrolBody,
  factorIdParam,
  messageAnswer,
  passkeyOptionsAnswer,
  passkeyRegisterBody,
  resetFactorsBody,
  secondFactorsAnswer,
  signedInAnswer,
  totpConfirmAnswer,
  totpConfirmBody,
  totpEnrolAnswer,
} from '../../contracts/identity';
import { DomainError } from '../../domain/decider';
import { factors, FACTOR_MESSAGES, RECOVERY_CODE_COUNT } from '../../domain/identity/factors';
import { passkeysOf, secondFactorsOf, totpOf, unusedRecoveryCodes } from '../../projections/identity';
import { securityPolicy } from '../../projections/settings';
import { findUser, type UserRow } from '../../projections/users';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import { HttpError } from '../plugins/errors';
import { hashPassword, verifyPassword } from '../../platform/passwords';
import {
  newRecoveryCode,
  newTotpSecret,
  normalRecoveryCode,
  portalOrigin,
  secondFactorRequired,
  totpStep,
  totpUri,
  type PendingSignIn,
} from '../plugins/secondFactor';
import type { Services } from '../../platform/services';
import { MFA_CHALLENGE, type SignInSteps } from '../plugins/signIn';

export const MFA_MESSAGES = {
  challengeExpired: 'Your sign-in has expired. Please sign in again with your password.',
  wrongFactor: 'That code is not right. Please try again.',
  wrongPasskey: 'That passkey could not be verified. Please try again.',
  noPasskey: 'This account has no passkey.',
  noTotp: 'This account has no authenticator app set up.',
  enrolFirst: 'Set up an authenticator app first: your account must have a second factor.',
  alreadyHasFactor: 'This sign-in already has a second factor to answer with.',
  signInFirst: 'Please sign in first, or present the challenge of the password step.',
  startEnrolmentFirst: 'Start the set-up again: scan the new QR code, then enter the code it shows.',
  totpConfirmed: 'Authenticator app set up. Keep the recovery codes somewhere safe: they are shown only this once.',
  passkeyRegistered: 'Passkey added.',
  passkeyOptionsFirst: 'Ask for the passkey options first.',
  factorRemoved: 'Second factor removed.',
  cannotRemoveLast: 'Your account must have a second factor: add another one before removing this one.',
  factorsReset: 'Second factors reset. The person sets up a new one at their next sign-in.',
  tooManyFactorAttempts: (seconds: number) => `Too many sign-in attempts. Please wait ${seconds} seconds and try again.`,
} as const;

const ENROLMENT = 'totp-enrolment';
const PASSKEY_REGISTRATION = 'passkey-registration';
/** A TOTP code is good once: remembered for the steps it could still be accepted in. */
const TOTP_REUSE_SECONDS = 120;

const challengeExpired = () => new HttpError(400, 'MFA_CHALLENGE_EXPIRED', MFA_MESSAGES.challengeExpired);

/**
 * Second factors: enrolment (authenticator app with recovery codes, passkeys), the sign-in challenge
 * after the password, removal by their owner and reset by an administrator.
 */
export async function mfaRoutes(parent: FastifyInstance, services: Services, steps: SignInSteps): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, config } = services;
  const { pending } = steps;

  const relyingParty = (request: FastifyRequest) => {
    const origin = portalOrigin(request, config.PUBLIC_URL);
    return { rpID: origin.hostname, origin: origin.origin, rpName: config.MFA_ISSUER };
  };

  /** The person enrolling: the signed-in caller, or the holder of a challenge that must set up a factor first. */
  const enrollingPerson = async (
    request: FastifyRequest,
    reply: FastifyReply,
    challenge: string | undefined,
  ): Promise<{ user: UserRow; pendingSignIn?: PendingSignIn }> => {
    if (challenge) {
      const pendingSignIn = await pending.peek<PendingSignIn>(MFA_CHALLENGE, challenge);
      if (!pendingSignIn) throw challengeExpired();
      if (!pendingSignIn.enrol) throw new HttpError(400, 'MFA_ALREADY_ENROLLED', MFA_MESSAGES.alreadyHasFactor);
      const user = await findUser(pool, pendingSignIn.userId);
      if (!user) throw challengeExpired();
      return { user, pendingSignIn };
    }
    if (!request.headers.authorization) throw new HttpError(400, 'SIGN_IN_FIRST', MFA_MESSAGES.signInFirst);
    await app.authenticate(request, reply);
    const user = await findUser(pool, request.principal.id);
    if (!user) throw new HttpError(401, 'UNAUTHENTICATED', 'Your account no longer exists.');
    return { user };
  };

  const requiredFor = async (role: string) => secondFactorRequired(role, await securityPolicy(pool));

  app.get(
    '/auth/mfa',
    { schema: { tags: ['auth'], summary: "The signed-in person's second factors", response: { 200: secondFactorsAnswer } } },
    async (request) => {
      const view = await secondFactorsOf(pool, request.principal.id);
      return { success: true as const, data: { ...view, required: await requiredFor(request.principal.role) } };
    },
  );

  // ---- authenticator app (TOTP) ----

  app.post(
    '/auth/mfa/totp/enrol',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Start setting up an authenticator app: answers the otpauth:// URI and its QR code (signed in, or with the challenge of a sign-in that must set one up)',
        body: enrolBody,
        response: { 200: totpEnrolAnswer },
      },
    },
    async (request, reply) => {
      const { user, pendingSignIn } = await enrollingPerson(request, reply, request.body.challenge);
      if (await totpOf(pool, user.id)) throw new HttpError(409, 'TOTP_ALREADY_ENROLLED', FACTOR_MESSAGES.totpAlreadyEnrolled);
      const secret = newTotpSecret();
      if (pendingSignIn) await pending.update<PendingSignIn>(MFA_CHALLENGE, request.body.challenge!, { ...pendingSignIn, totpSecret: secret });
      // Signed in, the secret waits under the account until confirmed (a new start replaces it).
      else await services.redis.set(`${config.REDIS_PREFIX}:${ENROLMENT}:${user.id}`, secret, 'EX', pending.expiresIn);
      const uri = totpUri(secret, config.MFA_ISSUER, user.email);
      reply.header('cache-control', 'no-store');
      return { success: true as const, data: { otpauth_uri: uri, qr_image: await QRCode.toDataURL(uri, { margin: 1, width: 240 }), secret } };
    },
  );

  app.post(
    '/auth/mfa/totp/confirm',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Finish setting up the authenticator app with a code it shows; answers ten recovery codes, once (and the tokens, for a sign-in that had to set one up)',
        body: totpConfirmBody,
        response: { 200: z.union([totpConfirmAnswer.extend(signedInAnswer.shape), totpConfirmAnswer]) },
      },
    },
    async (request, reply) => {
      const { user, pendingSignIn } = await enrollingPerson(request, reply, request.body.challenge);
      const source = `${user.email.toLowerCase()}|${request.ip}`;
      await steps.signInFailures.check(source);
      const secret = pendingSignIn ? pendingSignIn.totpSecret : await services.redis.get(`${config.REDIS_PREFIX}:${ENROLMENT}:${user.id}`);
      if (!secret) throw new HttpError(400, 'MFA_ENROLMENT_NOT_STARTED', MFA_MESSAGES.startEnrolmentFirst);
      const step = totpStep(secret, request.body.code, Date.now());
      if (step === null) {
        await steps.signInFailures.fail(source);
        throw new HttpError(400, 'INVALID_SECOND_FACTOR', MFA_MESSAGES.wrongFactor, [{ field: 'code', message: MFA_MESSAGES.wrongFactor }]);
      }
      await steps.signInFailures.succeed(source);
      await pending.once('totp-used', `${user.id}:${step}`, TOTP_REUSE_SECONDS);
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      const hashes = await Promise.all(codes.map((code) => hashPassword(normalRecoveryCode(code))));
      const metadata = pendingSignIn ? { ...metadataFromRequest(request), actorId: user.id, actorRole: user.role } : metadataFromRequest(request);
      await runCommand(
        services,
        factors,
        user.id,
        { type: 'EnrolTotp', userId: user.id, factorId: randomUUID(), secret, recoveryCodeHashes: hashes },
        metadata,
      );
      reply.header('cache-control', 'no-store');
      const answer = { success: true as const, message: MFA_MESSAGES.totpConfirmed, data: { recovery_codes: codes } };
      if (!pendingSignIn) {
        await services.redis.del(`${config.REDIS_PREFIX}:${ENROLMENT}:${user.id}`);
        return answer;
      }
      // The code just proved the new factor: the sign-in it interrupted is complete.
      if (!(await pending.take(MFA_CHALLENGE, request.body.challenge!))) throw challengeExpired();
      await steps.assertMaySignIn(request, user);
      return { ...(await steps.signedIn(request, user)), ...answer };
    },
  );

  // ---- passkeys ----

  app.post(
    '/auth/mfa/passkeys/options',
    { schema: { tags: ['auth'], summary: 'Options for adding a passkey (navigator.credentials.create)', response: { 200: passkeyOptionsAnswer } } },
    async (request) => {
      const user = await findUser(pool, request.principal.id);
      if (!user) throw new HttpError(401, 'UNAUTHENTICATED', 'Your account no longer exists.');
      const { rpID, rpName } = relyingParty(request);
      const existing = await passkeysOf(pool, user.id);
      const options = await generateRegistrationOptions({
        rpName,
        rpID,
        // The same handle for every passkey of one person, so an authenticator keeps one entry per account.
        userID: new TextEncoder().encode(user.id),
        userName: user.email,
        userDisplayName: user.full_name,
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports as never })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      });
      await services.redis.set(`${config.REDIS_PREFIX}:${PASSKEY_REGISTRATION}:${user.id}`, options.challenge, 'EX', pending.expiresIn);
      return { success: true as const, data: { ...options } };
    },
  );

  app.post(
    '/auth/mfa/passkeys',
    {
      schema: {
        tags: ['auth'],
        summary: "Add a passkey with the browser's answer to the options",
        body: passkeyRegisterBody,
        response: { 200: messageAnswer },
      },
    },
    async (request) => {
      const userId = request.principal.id;
      const expectedChallenge = await services.redis.getdel(`${config.REDIS_PREFIX}:${PASSKEY_REGISTRATION}:${userId}`);
      if (!expectedChallenge) throw new HttpError(400, 'PASSKEY_OPTIONS_FIRST', MFA_MESSAGES.passkeyOptionsFirst);
      const { rpID, origin } = relyingParty(request);
      let verification;
      try {
        // The body schema checks the envelope only; verifyRegistrationResponse checks the credential's own fields.
        verification = await verifyRegistrationResponse({
          response: request.body.response as unknown as RegistrationResponseJSON,
          expectedChallenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: false,
        });
      } catch (error) {
        throw new HttpError(400, 'PASSKEY_NOT_VERIFIED', `${MFA_MESSAGES.wrongPasskey} (${(error as Error).message})`);
      }
      if (!verification.verified) throw new HttpError(400, 'PASSKEY_NOT_VERIFIED', MFA_MESSAGES.wrongPasskey);
      const { credential } = verification.registrationInfo;
      await runCommand(
        services,
        factors,
        userId,
        {
          type: 'RegisterPasskey',
          userId,
          factorId: randomUUID(),
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports ?? [],
          name: request.body.name,
        },
        metadataFromRequest(request),
      );
      return { success: true as const, message: MFA_MESSAGES.passkeyRegistered };
    },
  );

  app.delete(
    '/auth/mfa/factors/:factorId',
    { schema: { tags: ['auth'], summary: 'Remove one of your own second factors', params: factorIdParam, response: { 200: messageAnswer } } },
    async (request) => {
      const userId = request.principal.id;
      const view = await secondFactorsOf(pool, userId);
      const ids = [view.totp?.id, ...view.passkeys.map((p) => p.id)].filter(Boolean);
      if (!ids.includes(request.params.factorId)) throw new HttpError(404, 'NOT_FOUND', FACTOR_MESSAGES.factorUnknown);
      if (ids.length === 1 && (await requiredFor(request.principal.role))) throw new HttpError(409, 'SECOND_FACTOR_REQUIRED', MFA_MESSAGES.cannotRemoveLast);
      await runCommand(services, factors, userId, { type: 'RemoveFactor', userId, factorId: request.params.factorId }, metadataFromRequest(request));
      return { success: true as const, message: MFA_MESSAGES.factorRemoved };
    },
  );

  app.post(
    '/users/:id/mfa/reset',
    {
      schema: {
        tags: ['users'],
        summary: "Reset a person's second factors (administrators; audited with the reason)",
        params: z.object({ id: z.uuid('User not found.') }).strict(),
        body: resetFactorsBody,
        response: { 200: messageAnswer },
      },
    },
    async (request) => {
      const user = await findUser(pool, request.params.id);
      if (!user) throw new HttpError(404, 'NOT_FOUND', 'User not found.');
      await runCommand(services, factors, user.id, { type: 'ResetFactors', userId: user.id, reason: request.body.reason }, metadataFromRequest(request));
      return { success: true as const, message: MFA_MESSAGES.factorsReset };
    },
  );

  // ---- the sign-in challenge ----

  app.post(
    '/auth/mfa/passkey/options',
    {
      schema: {
        tags: ['auth'],
        summary: 'Options for answering a sign-in challenge with a passkey (navigator.credentials.get)',
        body: challengeOnlyBody,
        response: { 200: passkeyOptionsAnswer },
      },
    },
    async (request) => {
      const pendingSignIn = await pending.peek<PendingSignIn>(MFA_CHALLENGE, request.body.challenge);
      if (!pendingSignIn) throw challengeExpired();
      const passkeys = await passkeysOf(pool, pendingSignIn.userId);
      if (!passkeys.length) throw new HttpError(400, 'NO_PASSKEY', MFA_MESSAGES.noPasskey);
      const options = await generateAuthenticationOptions({
        rpID: relyingParty(request).rpID,
        allowCredentials: passkeys.map((p) => ({ id: p.credential_id, transports: p.transports as never })),
        userVerification: 'preferred',
      });
      if (!(await pending.update<PendingSignIn>(MFA_CHALLENGE, request.body.challenge, { ...pendingSignIn, webauthnChallenge: options.challenge })))
        throw challengeExpired();
      return { success: true as const, data: { ...options } };
    },
  );

  app.post(
    '/auth/mfa/challenge',
    {
      schema: {
        tags: ['auth'],
        summary: 'Answer the sign-in challenge with a code from the authenticator app, a recovery code or a passkey; answers the tokens',
        body: challengeBody,
        response: { 200: signedInAnswer },
      },
    },
    async (request, reply) => {
      const { challenge } = request.body;
      const pendingSignIn = await pending.peek<PendingSignIn>(MFA_CHALLENGE, challenge);
      if (!pendingSignIn) throw challengeExpired();
      if (pendingSignIn.enrol) throw new HttpError(400, 'MFA_ENROLMENT_REQUIRED', MFA_MESSAGES.enrolFirst);
      const source = `${pendingSignIn.email.toLowerCase()}|${request.ip}`;
      await steps.signInFailures.check(source);
      const user = await findUser(pool, pendingSignIn.userId);
      if (!user) throw challengeExpired();

      const verified = await verifyFactor(request, request.body, user, pendingSignIn);
      if (!verified) {
        await steps.signInFailures.fail(source);
        await steps.signInFailed(request, 'second_factor_failed', user.id, user.email);
        const message = request.body.passkey ? MFA_MESSAGES.wrongPasskey : MFA_MESSAGES.wrongFactor;
        throw new HttpError(401, 'INVALID_SECOND_FACTOR', message);
      }
      // Taken once: two answers racing for one challenge open one session.
      if (!(await pending.take(MFA_CHALLENGE, challenge))) throw challengeExpired();
      await steps.signInFailures.succeed(source);
      await steps.assertMaySignIn(request, user);
      reply.header('cache-control', 'no-store');
      return steps.signedIn(request, user);
    },
  );

  async function verifyFactor(request: FastifyRequest, body: z.infer<typeof challengeBody>, user: UserRow, pendingSignIn: PendingSignIn): Promise<boolean> {
    const actor = { ...metadataFromRequest(request), actorId: user.id, actorRole: user.role };
    if (body.code !== undefined) {
      const totp = await totpOf(pool, user.id);
      if (!totp) return false;
      const step = totpStep(totp.secret, body.code, Date.now());
      // A code seen once (here or at enrolment) is not accepted again.
      return step !== null && (await pending.once('totp-used', `${user.id}:${step}`, TOTP_REUSE_SECONDS));
    }
    if (body.recovery_code !== undefined) {
      const typed = normalRecoveryCode(body.recovery_code);
      for (const code of await unusedRecoveryCodes(pool, user.id)) {
        if (!(await verifyPassword(code.code_hash, typed))) continue;
        try {
          await runCommand(services, factors, user.id, { type: 'UseRecoveryCode', userId: user.id, index: code.idx }, actor);
          return true;
        } catch (error) {
          // Spent by a concurrent request a moment ago.
          if (error instanceof DomainError && error.code === 'RECOVERY_CODE_USED') return false;
          throw error;
        }
      }
      return false;
    }
    if (!pendingSignIn.webauthnChallenge) throw new HttpError(400, 'PASSKEY_OPTIONS_FIRST', MFA_MESSAGES.passkeyOptionsFirst);
    // The body schema checks the envelope only; verifyAuthenticationResponse checks the credential's own fields.
    const response = body.passkey as unknown as AuthenticationResponseJSON;
    const passkey = (await passkeysOf(pool, user.id)).find((p) => p.credential_id === response.id);
    if (!passkey) return false;
    const { rpID, origin } = relyingParty(request);
    try {
      const verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: pendingSignIn.webauthnChallenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: false,
        credential: {
          id: passkey.credential_id,
          publicKey: Buffer.from(passkey.public_key, 'base64url'),
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
      });
      if (!verification.verified) return false;
      await runCommand(
        services,
        factors,
        user.id,
        { type: 'UsePasskey', userId: user.id, credentialId: passkey.credential_id, counter: verification.authenticationInfo.newCounter },
        actor,
      );
      return true;
    } catch (error) {
      if (error instanceof HttpError) throw error;
      return false;
    }
  }
}
