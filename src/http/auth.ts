import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { normalizePermissions } from '../../domain/access';
import { normalizeEmail } from '../../domain/identity/emailClaims';
import { metadataFromRequest, runCommand } from '../commands/dispatch';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { registerUser } from '../commands/users';
import { users } from '../../domain/identity/identity';
import { findUser, toUserView, type UserRow } from '../../projections/users';
import { questionnaireSubmitted, rejectionReasonOf } from '../../projections/partners';
import { rejectedApplicantMessage } from './partners';
import { AUTH_MESSAGES, ONBOARDING_AUDIENCE, type AccessTokenClaims } from '../plugins/auth';
import { HttpError } from '../plugins/errors';
import { decoyHash, hashPassword, verifyPassword } from '../plugins/passwords';
import type { SessionStore } from '../plugins/sessions';
import { recordAuditEntry } from '../plugins/auditTrail';
import type { SignInFailure } from '../../domain/audit/audit';
import { AttemptLimit, FailureThrottle } from '../plugins/throttle';
import type { Services } from '../services';

export const AUTH_ROUTE_MESSAGES = {
  loginSuccess: 'Login successful! Redirecting...',
  invalidCredentials: 'Invalid email or password.',
  awaitingApproval: 'Your partner application is awaiting approval. You can sign in once an administrator approves it.',
  onboardingIncomplete: 'Your partner application is not complete yet: finish the onboarding questionnaire so an administrator can review it.',
  inactive: 'Your account is inactive. Please contact your administrator.',
  tooManyAttempts: (seconds: number) => `Too many sign-in attempts. Please wait ${seconds} seconds and try again.`,
  tooManyPasswordAttempts: (seconds: number) => `Too many wrong current passwords. Please wait ${seconds} seconds and try again.`,
  tooManyRegistrations: (seconds: number) => `Too many registrations from your network. Please wait ${seconds} seconds and try again.`,
  loggedOut: 'You have been signed out.',
  passwordChanged: 'Password changed successfully',
  wrongCurrentPassword: 'Current password is incorrect',
  samePassword: 'New password must be different from current password',
  registered: 'Your account has been created. Complete the partner onboarding questionnaire next; an administrator will review your application and you can sign in once it is approved.',
} as const;

const email = z.string({ error: (i) => (i.input === undefined ? 'Email is required.' : 'Email must be text.') }).trim().max(254);

const loginBody = z
  .object({
    email: email.min(5, 'email must be at least 5 characters'),
    password: z.string({ error: (i) => (i.input === undefined ? 'Password is required' : 'Password must be text.') }).min(4, 'Password must be at least 4 characters').max(200),
  })
  .strict()
  .meta({ example: { email: 'partner@partnerhub.test', password: 'Demo2026!' } });

const refreshBody = z
  .object({ refreshToken: z.string().min(1).max(200).optional(), refresh: z.string().min(1).max(200).optional() })
  .strict()
  .refine((b) => b.refreshToken || b.refresh, { message: 'refreshToken is required.', path: ['refreshToken'] });

const changePasswordBody = z
  .object({
    currentPassword: z.string({ error: 'All fields are required' }).min(1, 'All fields are required').max(200),
    newPassword: z.string({ error: 'All fields are required' }).min(6, 'New password must be at least 6 characters long').max(200),
  })
  .strict()
  .meta({ example: { currentPassword: 'Demo2026!', newPassword: 'Another2026!' } });

/** Sign-up rules of the specification, enforced here as well as in the form. */
export const newPasswordRule = z
  .string({ error: (i) => (i.input === undefined ? 'Password is required' : 'Password must be text.') })
  .min(6, 'Password must be at least 6 characters')
  .max(200)
  .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
  .regex(/\d/, 'Password must contain at least one number');

const registerBody = z
  .object({
    email: z.email({ error: (i) => (i.input === undefined ? 'Email is required' : 'Please enter a valid email') }).max(254),
    password: newPasswordRule,
    full_name: z.string().trim().min(1).max(120).optional(),
    company_name: z.string().trim().min(1, 'Company name is required').max(200).optional(),
    role: z.literal('partner', 'Only partners can register themselves.').optional(),
    is_active: z.literal(false, 'A new partner account starts inactive until approved.').optional(),
  })
  .strict()
  .meta({ example: { email: 'ines.moreau@fjord-networks.example', password: 'Secret123', full_name: 'Ines Moreau', company_name: 'Fjord Networks' } });

function tokenPair(app: FastifyInstance, user: UserRow, sessionId: string, refreshToken: string) {
  const claims: AccessTokenClaims = { sub: user.id, sid: sessionId, role: user.role, permissions: user.permissions, av: user.access_version };
  const accessToken = app.signAccessToken(claims);
  return { accessToken, refreshToken, access: accessToken, refresh: refreshToken };
}

export async function authRoutes(parent: FastifyInstance, services: Services, sessions: SessionStore): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { config, pool, redis } = services;
  const perIp = new AttemptLimit(redis, `${config.REDIS_PREFIX}:login-ip`, config.LOGIN_ATTEMPTS_PER_IP_PER_MINUTE, 60, AUTH_ROUTE_MESSAGES.tooManyAttempts);
  // Failures slow down the source that fails (this account from this address), never the owner signing in from elsewhere.
  const signInFailures = new FailureThrottle(redis, `${config.REDIS_PREFIX}:login-failures`, config.LOGIN_FAILURES_PER_EMAIL, config.LOGIN_FAILURE_WINDOW_SECONDS, AUTH_ROUTE_MESSAGES.tooManyAttempts);
  const passwordFailures = new FailureThrottle(redis, `${config.REDIS_PREFIX}:password-failures`, config.LOGIN_FAILURES_PER_EMAIL, config.LOGIN_FAILURE_WINDOW_SECONDS, AUTH_ROUTE_MESSAGES.tooManyPasswordAttempts);
  const registrations = new AttemptLimit(redis, `${config.REDIS_PREFIX}:registrations-ip`, config.REGISTRATIONS_PER_IP_PER_HOUR, 60 * 60, AUTH_ROUTE_MESSAGES.tooManyRegistrations);
  const userView = (row: UserRow) => toUserView(row, normalizePermissions);
  /** Good only for submitting this applicant's own application and questionnaire. */
  const issueOnboardingToken = (userId: string) => app.jwt.sign({ sub: userId, purpose: 'partner-onboarding' }, { aud: ONBOARDING_AUDIENCE, expiresIn: '2h' });

  app.post('/auth/login', { schema: { tags: ['auth'], summary: 'Sign in', body: loginBody } }, async (request, reply) => {
    const address = normalizeEmail(request.body.email);
    const source = `${address}|${request.ip}`;
    await perIp.consume(request.ip);
    await signInFailures.check(source);

    const { rows } = await pool.query<{ user_id: string; password_hash: string }>(
      'SELECT user_id, password_hash FROM secret.user_credentials WHERE lower(email) = $1',
      [address],
    );
    const credentials = rows[0];
    const valid = await verifyPassword(credentials?.password_hash ?? (await decoyHash()), request.body.password);
    const user = valid && credentials ? await findUser(pool, credentials.user_id) : undefined;
    // Every answer to a checked password is an audit entry: who tried, from where, and why it failed.
    const signInFailed = (reason: SignInFailure, userId: string | null) =>
      recordAuditEntry(services.store, { type: 'SignInFailed.v1', data: { userId, email: address, reason, ip: request.ip ?? null } }, { actorId: userId, actorRole: null, correlationId: request.id });
    if (!user) {
      await signInFailures.fail(source);
      await signInFailed('invalid_credentials', credentials?.user_id ?? null);
      throw new HttpError(401, 'INVALID_CREDENTIALS', AUTH_ROUTE_MESSAGES.invalidCredentials);
    }
    await signInFailures.succeed(source);
    if (!user.is_active) {
      await signInFailed('account_inactive', user.id);
      const pendingPartner = user.role === 'partner' && (await neverActivated(user.id));
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
    if (!(await organisationActive(user))) {
      await signInFailed('organisation_inactive', user.id);
      throw new HttpError(403, 'ORGANISATION_INACTIVE', AUTH_MESSAGES.organisationInactive);
    }
    const session = await sessions.open(user.id);
    await recordAuditEntry(services.store, { type: 'SignInSucceeded.v1', data: { userId: user.id, email: user.email, ip: request.ip ?? null } }, { actorId: user.id, actorRole: user.role, correlationId: request.id });
    reply.header('cache-control', 'no-store');
    return { success: true, message: AUTH_ROUTE_MESSAGES.loginSuccess, ...tokenPair(app, user, session.sessionId, session.refreshToken), user: userView(user) };
  });

  /** A team member signs in only while the owner of its organisation is active (and exists). */
  async function organisationActive(user: UserRow): Promise<boolean> {
    if (!user.parent_user_id) return true;
    const owner = await findUser(pool, user.parent_user_id);
    return Boolean(owner?.is_active);
  }

  /** A self-registered partner who was never activated is still waiting for approval. */
  async function neverActivated(userId: string): Promise<boolean> {
    const { rows } = await pool.query(
      `SELECT 1 FROM read.status_history WHERE record_type = 'users' AND record_id = $1 AND to_status = 'active' LIMIT 1`,
      [userId],
    );
    return rows.length === 0;
  }

  const refresh = async (request: FastifyRequest<{ Body: z.infer<typeof refreshBody> }>) => {
    const presented = (request.body.refreshToken ?? request.body.refresh)!;
    const rotated = await sessions.rotate(presented);
    const user = await findUser(pool, rotated.userId);
    if (!user || !user.is_active) {
      await sessions.revoke(rotated.sessionId, 'account inactive');
      throw new HttpError(401, 'ACCOUNT_INACTIVE', AUTH_ROUTE_MESSAGES.inactive);
    }
    if (!(await organisationActive(user))) {
      await sessions.revoke(rotated.sessionId, 'organisation inactive');
      throw new HttpError(401, 'ORGANISATION_INACTIVE', AUTH_MESSAGES.organisationInactive);
    }
    return { success: true, ...tokenPair(app, user, rotated.sessionId, rotated.refreshToken) };
  };
  for (const url of ['/auth/refresh', '/user/token/refresh/']) {
    app.post(url, { schema: { tags: ['auth'], summary: 'Exchange a refresh token for new tokens', body: refreshBody } }, refresh);
  }

  app.get('/auth/me', { schema: { tags: ['auth'], summary: 'The signed-in user' } }, async (request) => {
    const user = await findUser(pool, request.principal.id);
    if (!user) throw new HttpError(401, 'UNAUTHENTICATED', 'Your account no longer exists.');
    const view = userView(user);
    return { success: true, user: view, data: { user: view }, role: view.role, permissions: view.permissions, effectivePermissions: view.effectivePermissions };
  });

  // Sign-out needs no body: the session is the one of the access token.
  app.post('/auth/logout', { schema: { tags: ['auth'], summary: 'Sign out' } }, async (request) => {
    await sessions.revoke(request.principal.sessionId, 'signed out');
    return { success: true, message: AUTH_ROUTE_MESSAGES.loggedOut };
  });

  app.post(
    '/auth/change-password',
    { schema: { tags: ['auth'], summary: "Change the signed-in user's password", body: changePasswordBody } },
    async (request) => {
      const { currentPassword, newPassword } = request.body;
      if (currentPassword === newPassword) throw new HttpError(400, 'VALIDATION_ERROR', AUTH_ROUTE_MESSAGES.samePassword);
      const source = `${request.principal.id}|${request.ip}`;
      await passwordFailures.check(source);
      const { rows } = await pool.query<{ password_hash: string }>('SELECT password_hash FROM secret.user_credentials WHERE user_id = $1', [request.principal.id]);
      if (!rows[0] || !(await verifyPassword(rows[0].password_hash, currentPassword))) {
        await passwordFailures.fail(source);
        throw new HttpError(401, 'INVALID_CURRENT_PASSWORD', AUTH_ROUTE_MESSAGES.wrongCurrentPassword);
      }
      await passwordFailures.succeed(source);
      await runCommand(services, users, request.principal.id, { type: 'ChangePassword', passwordHash: await hashPassword(newPassword) }, metadataFromRequest(request));
      // Other devices signed in with the old password are signed out; this one stays.
      await sessions.revokeAllOf(request.principal.id, 'password changed', request.principal.sessionId);
      return { success: true, message: AUTH_ROUTE_MESSAGES.passwordChanged };
    },
  );

  app.post('/user/register/', { schema: { tags: ['auth'], summary: 'Register as a partner', body: registerBody } }, async (request, reply) => {
    const body = request.body;
    await registrations.consume(request.ip);
    // Signed out, an Idempotency-Key is bound to the whole body (the password included): only its sender can repeat it.
    const userId = newRecordId(request, 'registration');
    const created = { id: userId, location: `/api/users/${userId}` };
    const read = async () => {
      const user = await findUser(pool, userId);
      return { success: true, message: AUTH_ROUTE_MESSAGES.registered, data: user ? userView(user) : { id: userId }, onboardingToken: issueOnboardingToken(userId) };
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
  });
}
