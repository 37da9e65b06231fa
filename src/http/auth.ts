import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { normalizePermissions } from '../../domain/access';
import { normalizeEmail } from '../../domain/identity/emailClaims';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { registerUser } from '../../commands/users';
import { users } from '../../domain/identity/users';
import { credentialsByEmail, everActivated, findUser, passwordHashOf, toUserView, type UserRow } from '../../projections/users';
import { questionnaireSubmitted, rejectionReasonOf } from '../../projections/partners';
import { rejectedApplicantMessage } from '../../domain/partners/partners';
import { AUTH_MESSAGES, ONBOARDING_AUDIENCE } from '../plugins/auth';
import { HttpError } from '../plugins/errors';
import { decoyHash, hashPassword, verifyPassword } from '../../platform/passwords';
import type { SessionStore } from '../plugins/sessions';
import { recordAuditEntry } from '../plugins/auditTrail';
import type { SignInFailure } from '../../domain/audit/audit';
import { AttemptLimit, FailureThrottle } from '../plugins/throttle';
import type { Services } from '../../platform/services';
import { securityPolicy } from '../../projections/settings';
import { acceptedAnswer } from '../../contracts/answers';
import {
  changePasswordBody,
  loginBody,
  meAnswer,
  messageAnswer,
  mfaRequiredAnswer,
  refreshBody,
  registerBody,
  registeredAnswer,
  signedInAnswer,
  tokensAnswer,
} from '../../contracts/identity';
import { organisationActive, SIGN_IN_MESSAGES, type SignInSteps } from '../plugins/signIn';

export const AUTH_ROUTE_MESSAGES = {
  ...SIGN_IN_MESSAGES,
  invalidCredentials: 'Invalid email or password.',
  awaitingApproval: 'Your partner application is awaiting approval. You can sign in once an administrator approves it.',
  onboardingIncomplete: 'Your partner application is not complete yet: finish the onboarding questionnaire so an administrator can review it.',
  tooManyPasswordAttempts: (seconds: number) => `Too many wrong current passwords. Please wait ${seconds} seconds and try again.`,
  tooManyRegistrations: (seconds: number) => `Too many registrations from your network. Please wait ${seconds} seconds and try again.`,
  loggedOut: 'You have been signed out.',
  passwordChanged: 'Password changed successfully',
  wrongCurrentPassword: 'Current password is incorrect',
  samePassword: 'New password must be different from current password',
  ssoRequired: 'Your organisation signs in through single sign-on: use the "Sign in with" button below instead of a password.',
  registered:
    'Your account has been created. Complete the partner onboarding questionnaire next; an administrator will review your application and you can sign in once it is approved.',
} as const;

export async function authRoutes(parent: FastifyInstance, services: Services, sessions: SessionStore, steps: SignInSteps): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { config, pool, redis } = services;
  const perIp = new AttemptLimit(redis, `${config.REDIS_PREFIX}:login-ip`, config.LOGIN_ATTEMPTS_PER_IP_PER_MINUTE, 60, AUTH_ROUTE_MESSAGES.tooManyAttempts);
  const passwordFailures = new FailureThrottle(
    redis,
    `${config.REDIS_PREFIX}:password-failures`,
    config.LOGIN_FAILURES_PER_EMAIL,
    config.LOGIN_FAILURE_WINDOW_SECONDS,
    AUTH_ROUTE_MESSAGES.tooManyPasswordAttempts,
  );
  const registrations = new AttemptLimit(
    redis,
    `${config.REDIS_PREFIX}:registrations-ip`,
    config.REGISTRATIONS_PER_IP_PER_HOUR,
    60 * 60,
    AUTH_ROUTE_MESSAGES.tooManyRegistrations,
  );
  const userView = (row: UserRow) => toUserView(row, normalizePermissions);
  /** Good only for submitting this applicant's own application and questionnaire. */
  const issueOnboardingToken = (userId: string) => app.jwt.sign({ sub: userId, purpose: 'partner-onboarding' }, { aud: ONBOARDING_AUDIENCE, expiresIn: '2h' });

  const { signInFailures } = steps;

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in (answers `mfa_required` with a challenge when a second factor is needed)',
        body: loginBody,
        response: { 200: z.union([signedInAnswer, mfaRequiredAnswer]) },
      },
    },
    async (request, reply) => {
      const address = normalizeEmail(request.body.email);
      const source = `${address}|${request.ip}`;
      await perIp.consume(request.ip);
      await signInFailures.check(source);

      const credentials = await credentialsByEmail(pool, address);
      const valid = await verifyPassword(credentials?.password_hash ?? (await decoyHash()), request.body.password);
      const user = valid && credentials ? await findUser(pool, credentials.user_id) : undefined;
      // Every answer to a checked password is an audit entry: who tried, from where, and why it failed.
      const signInFailed = (reason: SignInFailure, userId: string | null) =>
        recordAuditEntry(
          services.store,
          { type: 'SignInFailed.v1', data: { userId, email: address, reason, ip: request.ip ?? null } },
          { actorId: userId, actorRole: null, correlationId: request.id },
        );
      if (!user) {
        await signInFailures.fail(source);
        await signInFailed('invalid_credentials', credentials?.user_id ?? null);
        throw new HttpError(401, 'INVALID_CREDENTIALS', AUTH_ROUTE_MESSAGES.invalidCredentials);
      }
      await signInFailures.succeed(source);
      if (!user.is_active) {
        await signInFailed('account_inactive', user.id);
        const pendingPartner = user.role === 'partner' && !(await everActivated(pool, user.id));
        // A rejected applicant is told why, in the administrator's words.
        const rejection = pendingPartner ? await rejectionReasonOf(pool, user.id) : null;
        if (pendingPartner && !rejection && !(await questionnaireSubmitted(pool, user.id))) {
          // The password was just verified, so the applicant may pick up the questionnaire where they left it.
          throw new HttpError(403, 'ONBOARDING_INCOMPLETE', AUTH_ROUTE_MESSAGES.onboardingIncomplete, undefined, {
            onboardingToken: issueOnboardingToken(user.id),
            applicant: { userId: user.id, email: user.email, full_name: user.full_name, company_name: user.company_name ?? undefined },
          });
        }
        const message = rejection ? rejectedApplicantMessage(rejection) : pendingPartner ? AUTH_ROUTE_MESSAGES.awaitingApproval : AUTH_ROUTE_MESSAGES.inactive;
        throw new HttpError(403, 'ACCOUNT_INACTIVE', message);
      }
      if (!(await organisationActive(pool, user))) {
        await signInFailed('organisation_inactive', user.id);
        throw new HttpError(403, 'ORGANISATION_INACTIVE', AUTH_MESSAGES.organisationInactive);
      }
      const policy = await securityPolicy(pool);
      if (policy.ssoRequiredOrganisations.includes(user.parent_user_id ?? user.id)) {
        await signInFailed('sso_required', user.id);
        throw new HttpError(403, 'SSO_REQUIRED', AUTH_ROUTE_MESSAGES.ssoRequired);
      }
      reply.header('cache-control', 'no-store');
      // No tokens before the second factor: the challenge is all the password earns then.
      return (await steps.secondFactorStep(user)) ?? (await steps.signedIn(request, user));
    },
  );

  const refresh = async (request: FastifyRequest<{ Body: z.infer<typeof refreshBody> }>) => {
    const presented = (request.body.refreshToken ?? request.body.refresh)!;
    const rotated = await sessions.rotate(presented);
    const user = await findUser(pool, rotated.userId);
    if (!user || !user.is_active) {
      await sessions.revoke(rotated.sessionId, 'account inactive');
      throw new HttpError(401, 'ACCOUNT_INACTIVE', AUTH_ROUTE_MESSAGES.inactive);
    }
    if (!(await organisationActive(pool, user))) {
      await sessions.revoke(rotated.sessionId, 'organisation inactive');
      throw new HttpError(401, 'ORGANISATION_INACTIVE', AUTH_MESSAGES.organisationInactive);
    }
    return { success: true as const, ...steps.tokenPair(user, rotated.sessionId, rotated.refreshToken) };
  };
  for (const url of ['/auth/refresh', '/user/token/refresh/']) {
    app.post(
      url,
      { schema: { tags: ['auth'], summary: 'Exchange a refresh token for new tokens', body: refreshBody, response: { 200: tokensAnswer } } },
      refresh,
    );
  }

  app.get('/auth/me', { schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: meAnswer } } }, async (request) => {
    const user = await findUser(pool, request.principal.id);
    if (!user) throw new HttpError(401, 'UNAUTHENTICATED', 'Your account no longer exists.');
    const view = userView(user);
    return {
      success: true as const,
      user: view,
      data: { user: view },
      role: view.role,
      permissions: view.permissions,
      effectivePermissions: view.effectivePermissions,
    };
  });

  // Sign-out needs no body: the session is the one of the access token.
  app.post('/auth/logout', { schema: { tags: ['auth'], summary: 'Sign out', response: { 200: messageAnswer } } }, async (request) => {
    await sessions.revoke(request.principal.sessionId, 'signed out');
    return { success: true as const, message: AUTH_ROUTE_MESSAGES.loggedOut };
  });

  app.post(
    '/auth/change-password',
    { schema: { tags: ['auth'], summary: "Change the signed-in user's password", body: changePasswordBody, response: { 200: messageAnswer } } },
    async (request) => {
      const { currentPassword, newPassword } = request.body;
      if (currentPassword === newPassword) throw new HttpError(400, 'VALIDATION_ERROR', AUTH_ROUTE_MESSAGES.samePassword);
      const source = `${request.principal.id}|${request.ip}`;
      await passwordFailures.check(source);
      const passwordHash = await passwordHashOf(pool, request.principal.id);
      if (!passwordHash || !(await verifyPassword(passwordHash, currentPassword))) {
        await passwordFailures.fail(source);
        throw new HttpError(401, 'INVALID_CURRENT_PASSWORD', AUTH_ROUTE_MESSAGES.wrongCurrentPassword);
      }
      await passwordFailures.succeed(source);
      await runCommand(
        services,
        users,
        request.principal.id,
        { type: 'ChangePassword', passwordHash: await hashPassword(newPassword) },
        metadataFromRequest(request),
      );
      // Other devices signed in with the old password are signed out; this one stays.
      await sessions.revokeAllOf(request.principal.id, 'password changed', request.principal.sessionId);
      return { success: true as const, message: AUTH_ROUTE_MESSAGES.passwordChanged };
    },
  );

  app.post(
    '/user/register/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Register as a partner',
        body: registerBody,
        response: { 200: registeredAnswer, 201: registeredAnswer, 202: acceptedAnswer },
      },
    },
    async (request, reply) => {
      const body = request.body;
      await registrations.consume(request.ip);
      // Signed out, an Idempotency-Key is bound to the whole body (the password included): only its sender can repeat it.
      const userId = newRecordId(request, 'registration');
      const created = { id: userId, location: `/api/users/${userId}` };
      const read = async () => {
        const user = await findUser(pool, userId);
        return {
          success: true as const,
          message: AUTH_ROUTE_MESSAGES.registered,
          data: user ? userView(user) : { id: userId },
          onboardingToken: issueOnboardingToken(userId),
        };
      };
      const earlier = await earlierCreation(services, request, users.streamId(userId), userId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read, { onboardingToken: issueOnboardingToken(userId) });
      const fullName = body.full_name ?? body.company_name ?? body.email.split('@')[0];
      await registerUser(
        services,
        {
          type: 'RegisterUser',
          userId,
          email: body.email,
          fullName,
          companyName: body.company_name ?? null,
          role: 'partner',
          permissions: [],
          parentUserId: null,
          passwordHash: await hashPassword(body.password),
          isActive: false,
          selfRegistered: true,
        },
        { ...metadataFromRequest(request), actorId: userId, actorRole: 'partner' },
      );
      return answerCreated(services, reply, created, read, { onboardingToken: issueOnboardingToken(userId) });
    },
  );
}
