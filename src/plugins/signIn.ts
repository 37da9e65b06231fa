import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { signedInAnswer, MfaRequiredAnswer } from '../../contracts/identity';
import { normalizePermissions } from '../../domain/access';
import type { SignInFailure } from '../../domain/audit/audit';
import { passkeysOf, totpOf } from '../../projections/identity';
import { securityPolicy } from '../../projections/settings';
import { findUser, toUserView, type UserRow } from '../../projections/users';
import type { Services } from '../../platform/services';
import { recordAuditEntry } from './auditTrail';
import { AUTH_MESSAGES, type AccessTokenClaims } from './auth';
import { HttpError } from './errors';
import { PendingStore, secondFactorRequired, type PendingSignIn } from './secondFactor';
import type { SessionStore } from './sessions';
import { FailureThrottle } from './throttle';

/**
 * Signing in, after whichever first step (a password, single sign-on) and second factor: the steps the
 * password, second-factor and single sign-on routes share, kept here so none of those route modules
 * imports another.
 */

export const SIGN_IN_MESSAGES = {
  loginSuccess: 'Login successful! Redirecting...',
  inactive: 'Your account is inactive. Please contact your administrator.',
  tooManyAttempts: (seconds: number) => `Too many sign-in attempts. Please wait ${seconds} seconds and try again.`,
  mfaRequired: 'Enter the code from your authenticator app, a recovery code, or use your passkey.',
  mfaEnrolmentRequired: 'Your account must have a second factor: set up an authenticator app to finish signing in.',
} as const;

/** The pending-store kind of a second-factor challenge. */
export const MFA_CHALLENGE = 'mfa-challenge';

/** What the second step of signing in (a second factor, or single sign-on) needs from the first. */
export interface SignInSteps {
  /** Second-factor challenges, in-progress enrolments, single sign-on states and tickets. */
  pending: PendingStore;
  /** The same throttle as wrong passwords: a wrong second factor counts as a failed sign-in. */
  signInFailures: FailureThrottle;
  signInFailed(request: FastifyRequest, reason: SignInFailure, userId: string | null, email: string): Promise<void>;
  /** Refuses an account that may not sign in (inactive, or its organisation is). */
  assertMaySignIn(request: FastifyRequest, user: UserRow): Promise<void>;
  /** After the first factor: the second factor's challenge when one is needed (or must be set up), else null. */
  secondFactorStep(user: UserRow): Promise<MfaRequiredAnswer | null>;
  /** Opens the session and answers the tokens. */
  signedIn(request: FastifyRequest, user: UserRow): Promise<z.infer<typeof signedInAnswer>>;
  /** New tokens for an open session (a refresh). */
  tokenPair(user: UserRow, sessionId: string, refreshToken: string): { accessToken: string; refreshToken: string; access: string; refresh: string };
}

/** A team member signs in only while the owner of its organisation is active (and exists). */
export async function organisationActive(pool: Services['pool'], user: UserRow): Promise<boolean> {
  if (!user.parent_user_id) return true;
  const owner = await findUser(pool, user.parent_user_id);
  return Boolean(owner?.is_active);
}

export function signInSteps(app: FastifyInstance, services: Services, sessions: SessionStore): SignInSteps {
  const { config, pool, redis } = services;
  const pending = new PendingStore(redis, `${config.REDIS_PREFIX}:sign-in`, config.MFA_CHALLENGE_TTL_SECONDS);
  // Failures slow down the source that fails (this account from this address), never the owner signing in from elsewhere.
  const signInFailures = new FailureThrottle(
    redis,
    `${config.REDIS_PREFIX}:login-failures`,
    config.LOGIN_FAILURES_PER_EMAIL,
    config.LOGIN_FAILURE_WINDOW_SECONDS,
    SIGN_IN_MESSAGES.tooManyAttempts,
  );
  const tokenPair = (user: UserRow, sessionId: string, refreshToken: string) => {
    const claims: AccessTokenClaims = { sub: user.id, sid: sessionId, role: user.role, permissions: user.permissions, av: user.access_version };
    const accessToken = app.signAccessToken(claims);
    return { accessToken, refreshToken, access: accessToken, refresh: refreshToken };
  };
  const steps: SignInSteps = {
    pending,
    signInFailures,
    tokenPair,
    signInFailed: (request, reason, userId, address) =>
      recordAuditEntry(
        services.store,
        { type: 'SignInFailed.v1', data: { userId, email: address, reason, ip: request.ip ?? null } },
        { actorId: userId, actorRole: null, correlationId: request.id },
      ),
    async assertMaySignIn(request, user) {
      if (!user.is_active) {
        await steps.signInFailed(request, 'account_inactive', user.id, user.email);
        throw new HttpError(403, 'ACCOUNT_INACTIVE', SIGN_IN_MESSAGES.inactive);
      }
      if (!(await organisationActive(pool, user))) {
        await steps.signInFailed(request, 'organisation_inactive', user.id, user.email);
        throw new HttpError(403, 'ORGANISATION_INACTIVE', AUTH_MESSAGES.organisationInactive);
      }
    },
    async secondFactorStep(user) {
      const [totp, passkeys, policy] = await Promise.all([totpOf(pool, user.id), passkeysOf(pool, user.id), securityPolicy(pool)]);
      const methods: MfaRequiredAnswer['methods'] = [...(totp ? (['totp', 'recovery_code'] as const) : []), ...(passkeys.length ? (['passkey'] as const) : [])];
      const enrol = methods.length === 0;
      if (enrol && !secondFactorRequired(user.role, policy)) return null;
      const challenge = await pending.issue<PendingSignIn>(MFA_CHALLENGE, { userId: user.id, email: user.email, enrol });
      return {
        success: true,
        mfa_required: true,
        message: enrol ? SIGN_IN_MESSAGES.mfaEnrolmentRequired : SIGN_IN_MESSAGES.mfaRequired,
        challenge,
        expires_in: pending.expiresIn,
        methods,
        enrolment_required: enrol,
      };
    },
    async signedIn(request, user) {
      const session = await sessions.open(user.id);
      await recordAuditEntry(
        services.store,
        { type: 'SignInSucceeded.v1', data: { userId: user.id, email: user.email, ip: request.ip ?? null } },
        { actorId: user.id, actorRole: user.role, correlationId: request.id },
      );
      return {
        success: true as const,
        message: SIGN_IN_MESSAGES.loginSuccess,
        ...tokenPair(user, session.sessionId, session.refreshToken),
        user: toUserView(user, normalizePermissions),
      };
    },
  };
  return steps;
}
