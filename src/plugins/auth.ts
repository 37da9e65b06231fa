import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normalizePermissions, type Permission } from '../../domain/access';
import type { Services } from '../../platform/services';
import { authenticateApiKey } from './apiKeys';
import { HttpError } from './errors';
import { onPrincipalChangedHere, PrincipalCache, PRINCIPALS_CHANNEL } from '../../platform/principalCache';
import { principalOfSession, type PrincipalRow } from '../../platform/sessions';
import { roleOf } from '../../projections/users';
import type { Applicant, Principal } from './principal';
import { z } from 'zod';

export const TOKEN_AUDIENCE = 'partnerhub';
export const ONBOARDING_AUDIENCE = 'partnerhub-onboarding';
const ISSUER = 'partnerhub';

export type { ApiKeyActor, Applicant, Principal } from './principal';

/** What an access token carries. The role and permissions are the values at issue time; requests use the current ones. */
export interface AccessTokenClaims {
  sub: string;
  sid: string;
  role: string;
  permissions: string[];
  av: number; // the user's access_version when issued
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
    applicant: Applicant;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    authenticateApplicant(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    signAccessToken(claims: AccessTokenClaims): string;
  }
}

export const AUTH_MESSAGES = {
  missing: 'Please sign in to continue.',
  expired: 'Your session has expired. Please sign in again.',
  invalid: 'Your sign-in token is not valid. Please sign in again.',
  ended: 'Your session has ended. Please sign in again.',
  gone: 'Your account no longer exists.',
  deactivated: 'Your account is inactive. Please contact your administrator.',
  organisationInactive: "Your organisation's account is inactive, so its team members cannot sign in. Please contact your administrator.",
  applicantRequired: 'Please register as a partner first: submitting an application needs the onboarding token from your registration.',
  onboardingExpired: 'Your onboarding session has expired. Please contact the administrator to complete your application.',
  notAnApplicant: 'Only a registered partner applicant can submit a partner application.',
} as const;

const onboardingClaims = z.object({ sub: z.uuid(), purpose: z.literal('partner-onboarding') });

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' && /^Bearer\s+\S+$/i.test(header) ? header.split(/\s+/)[1] : undefined;
}

const accessClaims = z.object({ sub: z.uuid(), sid: z.uuid(), role: z.string(), permissions: z.array(z.string()), av: z.number().int() });

const VERIFIED_TOKENS_KEPT = 10_000;

/** Verified access tokens and their claims, at most `capacity` (the oldest go first), each until its `exp`. */
class VerifiedTokens<Claims> {
  private readonly tokens = new Map<string, { claims: Claims; expiresAtMs: number }>();
  constructor(private readonly capacity: number) {}

  get(token: string): Claims | undefined {
    const entry = this.tokens.get(token);
    if (!entry) return undefined;
    if (Date.now() < entry.expiresAtMs) return entry.claims;
    this.tokens.delete(token);
    return undefined;
  }

  set(token: string, claims: Claims, expiresAtMs: number): void {
    if (this.tokens.size >= this.capacity) this.tokens.delete(this.tokens.keys().next().value!);
    this.tokens.set(token, { claims, expiresAtMs });
  }
}

function tokenError(error: unknown): HttpError {
  const code = (error as { code?: string }).code ?? '';
  if (code === 'FST_JWT_NO_AUTHORIZATION_IN_HEADER') return new HttpError(401, 'UNAUTHENTICATED', AUTH_MESSAGES.missing);
  if (code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED') return new HttpError(401, 'TOKEN_EXPIRED', AUTH_MESSAGES.expired);
  return new HttpError(401, 'INVALID_TOKEN', AUTH_MESSAGES.invalid);
}

export async function registerAuth(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(fastifyJwt, {
    secret: services.config.JWT_SECRET,
    // The algorithm is pinned both ways, so a token signed otherwise (or with `alg: none`) is refused.
    sign: { algorithm: 'HS256', aud: TOKEN_AUDIENCE, iss: ISSUER, expiresIn: services.config.ACCESS_TOKEN_TTL_SECONDS },
    verify: { algorithms: ['HS256'], allowedAud: TOKEN_AUDIENCE, allowedIss: ISSUER, requiredClaims: ['exp', 'sub', 'sid'] },
  });

  app.decorate('signAccessToken', (claims: AccessTokenClaims) => app.jwt.sign(claims));

  // The caller's account and session without a database round trip while nothing about them changed.
  const principals = new PrincipalCache<PrincipalRow>(services.watcher, services.config.PRINCIPAL_CACHE_SECONDS * 1000);
  const unsubscribe = await services.watcher.subscribe(PRINCIPALS_CHANNEL, {
    message: (userId) => (userId === '*' ? principals.forgetAll() : principals.forgetUser(userId)),
    interrupted: () => principals.forgetAll(),
  });
  const stopHearingHere = onPrincipalChangedHere((userId) => principals.forgetUser(userId));
  app.addHook('onClose', async () => {
    unsubscribe();
    stopHearingHere();
  });

  const principalRow = async (userId: string, sessionId: string): Promise<PrincipalRow | undefined> => {
    const key = `${userId}:${sessionId}`;
    const cached = principals.lookup(key);
    if (cached) return cached;
    const generation = principals.begin();
    const row = await principalOfSession(services.pool, userId, sessionId);
    // Only a caller who may proceed is remembered; refusals are read afresh every time.
    if (row?.session_live && row.session_expires_at && row.is_active && row.organisation_active) {
      principals.store(key, { row, userId: row.id, parentUserId: row.parent_user_id, sessionExpiresAt: row.session_expires_at.getTime() }, generation);
    }
    return row;
  };

  // Access tokens this process verified, with their claims, until they expire: a client's repeat requests skip
  // the signature check and claim parsing. The session behind the token is still checked on every request.
  const verifiedTokens = new VerifiedTokens<z.infer<typeof accessClaims>>(VERIFIED_TOKENS_KEPT);
  const claimsOf = async (request: FastifyRequest): Promise<z.infer<typeof accessClaims>> => {
    const token = bearerToken(request);
    const known = token ? verifiedTokens.get(token) : undefined;
    if (known) return known;
    let verified: unknown;
    try {
      verified = await request.jwtVerify<AccessTokenClaims>();
    } catch (error) {
      throw tokenError(error);
    }
    const parsed = accessClaims.safeParse(verified);
    if (!parsed.success) throw new HttpError(401, 'INVALID_TOKEN', AUTH_MESSAGES.invalid);
    const expiresAt = (verified as { exp?: unknown }).exp;
    if (token && typeof expiresAt === 'number') verifiedTokens.set(token, parsed.data, expiresAt * 1000);
    return parsed.data;
  };
  // What a remembered account row grants, worked out once per row rather than once per request.
  const grants = new WeakMap<PrincipalRow, Permission[]>();
  const permissionsOf = (user: PrincipalRow): Permission[] => {
    const known = grants.get(user);
    if (known) return known;
    // A team member never holds more than its owner does now, even before the reaction that narrows its own list has run.
    const held = normalizePermissions(user.permissions);
    const ownerHolds = user.parent_user_id ? new Set(normalizePermissions(user.owner_permissions ?? [])) : undefined;
    const permissions = ownerHolds ? held.filter((permission) => ownerHolds.has(permission)) : held;
    grants.set(user, permissions);
    return permissions;
  };

  // Fastify needs a start value for a request decoration; the guards set these before any handler reads them.
  app.decorateRequest('principal', null as unknown as Principal);
  app.decorateRequest('applicant', null as unknown as Applicant);
  app.decorate('authenticate', async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    if (await authenticateApiKey(services, request)) return;
    const claims = await claimsOf(request);
    const user = await principalRow(claims.sub, claims.sid);
    if (!user) throw new HttpError(401, 'UNAUTHENTICATED', AUTH_MESSAGES.gone);
    if (!user.session_live) throw new HttpError(401, 'SESSION_ENDED', AUTH_MESSAGES.ended);
    if (!user.is_active) throw new HttpError(401, 'ACCOUNT_INACTIVE', AUTH_MESSAGES.deactivated);
    // A team member exists through its organisation: when the owner's account is deactivated or deleted, so are its members' rights.
    if (!user.organisation_active) throw new HttpError(401, 'ORGANISATION_INACTIVE', AUTH_MESSAGES.organisationInactive);
    const permissions = permissionsOf(user);
    request.principal = {
      id: user.id,
      email: user.email,
      fullName: user.full_name,
      role: user.role,
      permissions,
      companyName: user.company_name,
      parentUserId: user.parent_user_id,
      organisationId: user.parent_user_id ?? user.id,
      sessionId: claims.sid,
    };
    if (claims.av !== user.access_version || claims.role !== user.role) {
      // The client replaces what it stored; authorization below already uses the current values.
      reply.header('x-permissions-changed', 'true');
      reply.header('x-current-permissions', JSON.stringify(permissions));
      reply.header('x-current-role', user.role);
    }
  });

  /**
   * The applicant: the holder of the onboarding token handed out at registration (a pending partner
   * cannot sign in), or a signed-in partner account. Either way the application is that account's own.
   */
  app.decorate('authenticateApplicant', async function authenticateApplicant(request: FastifyRequest, reply: FastifyReply) {
    const token = bearerToken(request);
    if (!token) throw new HttpError(401, 'UNAUTHENTICATED', AUTH_MESSAGES.applicantRequired);
    const decoded = app.jwt.decode<{ aud?: string | string[] }>(token);
    const audiences = decoded ? [decoded.aud].flat() : [];
    let userId: string;
    if (audiences.includes(ONBOARDING_AUDIENCE)) {
      let claims: unknown;
      try {
        claims = app.jwt.verify(token, { allowedAud: ONBOARDING_AUDIENCE, requiredClaims: ['exp', 'sub'] });
      } catch (error) {
        const expired = (error as { code?: string }).code === 'FAST_JWT_EXPIRED';
        throw new HttpError(401, expired ? 'TOKEN_EXPIRED' : 'INVALID_TOKEN', expired ? AUTH_MESSAGES.onboardingExpired : AUTH_MESSAGES.applicantRequired);
      }
      const parsed = onboardingClaims.safeParse(claims);
      if (!parsed.success) throw new HttpError(401, 'INVALID_TOKEN', AUTH_MESSAGES.applicantRequired);
      userId = parsed.data.sub;
    } else {
      await app.authenticate(request, reply);
      userId = request.principal.id;
    }
    const role = await roleOf(services.pool, userId);
    if (role === undefined) throw new HttpError(401, 'UNAUTHENTICATED', AUTH_MESSAGES.gone);
    if (role !== 'partner') throw new HttpError(403, 'FORBIDDEN', AUTH_MESSAGES.notAnApplicant);
    request.applicant = { userId, role };
  });
}
