import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as client from 'openid-client';
import { z } from 'zod';
import {
  messageAnswer,
  oidcCallbackQuery,
  oidcCompleteBody,
  oidcStartQuery,
  identityProvider,
  providerAnswer,
  providerCreateBody,
  providerIdParam,
  providersAnswer,
  providerSlugParam,
  providerUpdateBody,
  publicProvidersAnswer,
  signedInAnswer,
  type IdentityProvider,
  redirectAnswer,
} from '../../contracts/identity';
import { DEFAULT_PERMISSIONS_BY_ROLE, ROLES, type Role } from '../../domain/access';
import { normalizeEmail } from '../../domain/identity/emailClaims';
import { acceptableIssuer, IDENTITY_PROVIDER_MESSAGES, identityProviders } from '../../domain/identity/identityProviders';
import { clientSecretOf, findIdentityProvider, listIdentityProviders } from '../../projections/identity';
import { findUser, findUserByEmail, organisationsAmong, type UserRow } from '../../projections/users';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import { registerUser } from '../../commands/users';
import { HttpError } from '../plugins/errors';
import { createdAnswers } from '../../contracts/answers';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { hashPassword } from '../../platform/passwords';
import { portalOrigin } from '../plugins/secondFactor';
import type { Services } from '../../platform/services';
import type { SignInSteps } from '../plugins/signIn';

export const OIDC_MESSAGES = {
  unknownProvider: 'There is no such identity provider.',
  unreachable: (name: string) => `${name} could not be reached or did not describe itself correctly. Please try again later or contact your administrator.`,
  stateUnknown: 'This sign-in link has expired or was already used. Please start again.',
  notVerified: (name: string) => `${name}'s answer could not be verified. Please start again.`,
  refusedAtProvider: (name: string, reason: string) => `${name} did not sign you in: ${reason}`,
  noEmail: (name: string) => `${name} did not share a verified e-mail address, so the portal cannot tell who you are.`,
  domainNotAllowed: (domain: string) => `People of ${domain} cannot sign in with this identity provider. Please contact your administrator.`,
  ticketUnknown: 'This sign-in link has expired or was already used. Please sign in again.',
  organisationUnknown: 'There is no such organisation.',
  roleUnknown: 'There is no such role.',
} as const;

const STATE = 'oidc-state';
const TICKET = 'oidc-ticket';
/** Provider metadata is read again after this long (keys rotate, endpoints move). */
const DISCOVERY_TTL_MS = 10 * 60 * 1000;

interface PendingState {
  providerId: string;
  codeVerifier: string;
  nonce: string;
  state: string;
  returnTo: string | null;
}

/**
 * Single sign-on with OpenID Connect (authorization code with PKCE): the sign-in page's list of
 * providers, the redirect to a provider and its answer, the hand-off of the session to the browser, and
 * the administrators' provider settings.
 */
export async function oidcRoutes(parent: FastifyInstance, services: Services, steps: SignInSteps): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, config } = services;
  const { pending } = steps;

  const discovered = new Map<string, { at: number; configuration: Promise<client.Configuration> }>();
  const configurationOf = async (provider: IdentityProvider): Promise<client.Configuration> => {
    const secret = await clientSecretOf(pool, provider.id);
    const key = `${provider.id}|${provider.updated_at}|${provider.issuer}|${provider.client_id}|${secret}`;
    const known = discovered.get(key);
    if (known && Date.now() - known.at < DISCOVERY_TTL_MS) return known.configuration;
    const insecure = new URL(provider.issuer).protocol === 'http:';
    // http only ever reaches a loopback issuer (acceptableIssuer): a provider run beside the portal in development and tests.
    const configuration = client.discovery(new URL(provider.issuer), provider.client_id, secret, undefined, {
      execute: insecure && acceptableIssuer(provider.issuer) ? [client.allowInsecureRequests] : [],
      timeout: 10,
    });
    discovered.set(key, { at: Date.now(), configuration });
    configuration.catch(() => discovered.delete(key));
    return configuration;
  };

  const redirectUri = (request: FastifyRequest, provider: IdentityProvider) =>
    new URL(`/api/auth/oidc/${provider.slug}/callback`, portalOrigin(request, config.PUBLIC_URL)).href;
  /** Back to the sign-in page, which shows the message. */
  const toSignIn = (reply: FastifyReply, params: Record<string, string>) =>
    reply
      .code(302)
      .header('cache-control', 'no-store')
      .redirect(`/signin?${new URLSearchParams(params)}`);

  const activeProvider = async (slug: string) => {
    const provider = await findIdentityProvider(pool, { slug });
    if (!provider || !provider.active) throw new HttpError(404, 'NOT_FOUND', OIDC_MESSAGES.unknownProvider);
    return provider;
  };

  app.get(
    '/auth/oidc/providers',
    { schema: { tags: ['auth'], summary: 'The identity providers the sign-in page offers (no sign-in needed)', response: { 200: publicProvidersAnswer } } },
    async () => {
      const providers = await listIdentityProviders(pool, { activeOnly: true });
      return {
        success: true as const,
        data: { providers: providers.map((p) => ({ slug: p.slug, name: p.name, start_url: `/api/auth/oidc/${p.slug}/start` })) },
      };
    },
  );

  app.get(
    '/auth/oidc/:provider/start',
    {
      schema: {
        tags: ['auth'],
        summary: 'Redirects to the identity provider to sign in (authorization code with PKCE)',
        params: providerSlugParam,
        querystring: oidcStartQuery,
        response: { 302: redirectAnswer },
      },
    },
    async (request, reply) => {
      const provider = await activeProvider(request.params.provider);
      let configuration: client.Configuration;
      try {
        configuration = await configurationOf(provider);
      } catch (error) {
        request.log.warn({ err: error, provider: provider.slug }, 'identity provider discovery failed');
        return toSignIn(reply, { sso_error: OIDC_MESSAGES.unreachable(provider.name) });
      }
      const codeVerifier = client.randomPKCECodeVerifier();
      const nonce = client.randomNonce();
      const state = client.randomState();
      await pending.put(STATE, state, {
        providerId: provider.id,
        codeVerifier,
        nonce,
        state,
        returnTo: request.query.return_to ?? null,
      } satisfies PendingState);
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri(request, provider),
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return reply.code(302).header('cache-control', 'no-store').redirect(url.href);
    },
  );

  app.get(
    '/auth/oidc/:provider/callback',
    {
      schema: {
        tags: ['auth'],
        summary: "The identity provider's answer: signs the person in (or creates their account) and returns to the sign-in page with a one-time ticket",
        params: providerSlugParam,
        querystring: oidcCallbackQuery,
        response: { 302: redirectAnswer },
      },
    },
    async (request, reply) => {
      const provider = await activeProvider(request.params.provider);
      // Taken once: a replayed answer (or one whose state was never issued here) goes no further.
      const started = request.query.state ? await pending.take<PendingState>(STATE, request.query.state) : null;
      if (!started || started.providerId !== provider.id) return toSignIn(reply, { sso_error: OIDC_MESSAGES.stateUnknown });
      const refuse = async (message: string, detail: unknown, userId: string | null = null, email = '') => {
        request.log.warn({ err: detail, provider: provider.slug }, 'single sign-on refused');
        await steps.signInFailed(request, 'sso_refused', userId, email || `(${provider.slug})`);
        return toSignIn(reply, { sso_error: message });
      };
      if (request.query.error)
        return refuse(OIDC_MESSAGES.refusedAtProvider(provider.name, request.query.error_description ?? request.query.error), request.query.error);

      let claims: client.IDToken | undefined;
      let userInfo: { email?: unknown; email_verified?: unknown; name?: unknown } = {};
      try {
        const configuration = await configurationOf(provider);
        const currentUrl = new URL(redirectUri(request, provider));
        currentUrl.search = new URLSearchParams(request.query as Record<string, string>).toString();
        const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
          pkceCodeVerifier: started.codeVerifier,
          expectedState: started.state,
          expectedNonce: started.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
        userInfo = (claims ?? {}) as typeof userInfo;
        if (claims && typeof claims.email !== 'string') userInfo = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      } catch (error) {
        return refuse(OIDC_MESSAGES.notVerified(provider.name), error);
      }
      const email = typeof userInfo.email === 'string' ? normalizeEmail(userInfo.email) : null;
      // Only an address the provider vouches for can name an account here.
      if (!email || userInfo.email_verified !== true) return refuse(OIDC_MESSAGES.noEmail(provider.name), 'no verified e-mail');
      const domain = email.split('@')[1] ?? '';
      if (!provider.allowed_domains.includes(domain)) return refuse(OIDC_MESSAGES.domainNotAllowed(domain), 'domain not allowed', null, email);

      let user = await findUserByEmail(pool, email);
      if (!user) {
        const name = typeof userInfo.name === 'string' && userInfo.name.trim() ? userInfo.name.trim().slice(0, 120) : email.split('@')[0];
        user = await createAccount(request, provider, email, domain, name);
      }
      try {
        await steps.assertMaySignIn(request, user);
      } catch (error) {
        return toSignIn(reply, { sso_error: (error as Error).message });
      }
      const ticket = await pending.issue(TICKET, { userId: user.id, providerId: provider.id });
      return toSignIn(reply, { sso_ticket: ticket, ...(started.returnTo ? { return_to: started.returnTo } : {}) });
    },
  );

  app.post(
    '/auth/oidc/complete',
    {
      schema: {
        tags: ['auth'],
        summary: 'Trade the one-time ticket of a single sign-on for tokens',
        body: oidcCompleteBody,
        response: { 200: signedInAnswer },
      },
    },
    async (request, reply) => {
      const handed = await pending.take<{ userId: string }>(TICKET, request.body.ticket);
      const user = handed ? await findUser(pool, handed.userId) : undefined;
      if (!user) throw new HttpError(400, 'SSO_TICKET_INVALID', OIDC_MESSAGES.ticketUnknown);
      await steps.assertMaySignIn(request, user);
      reply.header('cache-control', 'no-store');
      return steps.signedIn(request, user);
    },
  );

  /** A just-in-time account, through the identity decider's commands: active, with no usable password. */
  async function createAccount(request: FastifyRequest, provider: IdentityProvider, email: string, domain: string, fullName: string): Promise<UserRow> {
    const userId = randomUUID();
    const organisationId = provider.domain_organisations[domain] ?? provider.organisation_id;
    const role = provider.role as Role;
    await registerUser(
      services,
      {
        type: 'RegisterUser',
        userId,
        email,
        fullName,
        companyName: null,
        role,
        permissions: [...(DEFAULT_PERMISSIONS_BY_ROLE[role] ?? [])],
        parentUserId: organisationId,
        // Nobody knows this password: the person signs in through the provider.
        passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
        isActive: true,
        selfRegistered: false,
      },
      { ...metadataFromRequest(request), actorId: userId, actorRole: 'system' },
    );
    const user = await findUser(pool, userId);
    if (!user) throw new HttpError(500, 'INTERNAL', 'The new account could not be read back.');
    return user;
  }

  // ---- administrators: the providers ----

  const checkReferences = async (body: { role: string; organisation_id?: string | null; domain_organisations?: Record<string, string> }) => {
    if (!(ROLES as readonly string[]).includes(body.role))
      throw new HttpError(400, 'VALIDATION_ERROR', OIDC_MESSAGES.roleUnknown, [{ field: 'role', message: OIDC_MESSAGES.roleUnknown }]);
    const ids = [body.organisation_id, ...Object.values(body.domain_organisations ?? {})].filter((id): id is string => Boolean(id));
    if (!ids.length) return;
    const known = new Set(await organisationsAmong(pool, ids));
    if (ids.some((id) => !known.has(id)))
      throw new HttpError(400, 'VALIDATION_ERROR', OIDC_MESSAGES.organisationUnknown, [
        { field: 'organisation_id', message: OIDC_MESSAGES.organisationUnknown },
      ]);
  };
  const settingsOf = (body: z.infer<typeof providerUpdateBody>) => ({
    slug: body.slug,
    name: body.name,
    issuer: body.issuer,
    clientId: body.client_id,
    allowedDomains: body.allowed_domains,
    organisationId: body.organisation_id ?? null,
    role: body.role,
    domainOrganisations: body.domain_organisations ?? {},
    active: body.active ?? true,
  });
  const answer = (provider: IdentityProvider, message?: string) => ({ ...provider, success: true as const, ...(message ? { message } : {}), data: provider });
  const slugTaken = async (slug: string, exceptId?: string) => {
    const other = await findIdentityProvider(pool, { slug });
    if (other && other.id !== exceptId)
      throw new HttpError(409, 'CONFLICT', `The short name "${slug}" is taken by another identity provider.`, [
        { field: 'slug', message: 'This short name is taken.' },
      ]);
  };
  const readBack = async (id: string) => {
    const provider = await findIdentityProvider(pool, { id });
    if (!provider) throw new HttpError(404, 'NOT_FOUND', IDENTITY_PROVIDER_MESSAGES.notFound);
    return provider;
  };

  app.get(
    '/identity-providers',
    {
      schema: {
        tags: ['identity-providers'],
        summary: 'The identity providers (administrators); client secrets are never answered',
        response: { 200: providersAnswer },
      },
    },
    async () => {
      const providers = await listIdentityProviders(pool);
      return { success: true as const, data: { identity_providers: providers, total: providers.length } };
    },
  );

  app.get(
    '/identity-providers/:id',
    { schema: { tags: ['identity-providers'], summary: 'One identity provider (administrators)', params: providerIdParam, response: { 200: providerAnswer } } },
    async (request) => {
      return answer(await readBack(request.params.id));
    },
  );

  app.post(
    '/identity-providers',
    {
      schema: {
        tags: ['identity-providers'],
        summary: 'Configure an identity provider (administrators); the client secret is kept out of the event log',
        body: providerCreateBody,
        response: createdAnswers(identityProvider),
      },
    },
    async (request, reply) => {
      const providerId = newRecordId(request, 'identity-provider');
      const created = { id: providerId, location: `/api/identity-providers/${providerId}` };
      const earlier = await earlierCreation(services, request, identityProviders.streamId(providerId), providerId);
      if (earlier)
        return answerCreated(services, reply, { ...created, earlier }, async () => answer(await readBack(providerId), IDENTITY_PROVIDER_MESSAGES.saved));
      await checkReferences(request.body);
      await slugTaken(request.body.slug.trim());
      await runCommand(
        services,
        identityProviders,
        providerId,
        { type: 'ConfigureIdentityProvider', providerId, clientSecret: request.body.client_secret, ...settingsOf(request.body) },
        metadataFromRequest(request),
      );
      return answerCreated(services, reply, created, async () => answer(await readBack(providerId), IDENTITY_PROVIDER_MESSAGES.saved));
    },
  );

  app.put(
    '/identity-providers/:id',
    {
      schema: {
        tags: ['identity-providers'],
        summary: 'Change an identity provider (administrators); without client_secret the secret stays',
        params: providerIdParam,
        body: providerUpdateBody,
        response: { 200: providerAnswer },
      },
    },
    async (request) => {
      await readBack(request.params.id);
      await checkReferences(request.body);
      await slugTaken(request.body.slug.trim(), request.params.id);
      const secret = request.body.client_secret?.trim();
      await runCommand(
        services,
        identityProviders,
        request.params.id,
        { type: 'ChangeIdentityProvider', ...(secret ? { clientSecret: secret } : {}), ...settingsOf(request.body) },
        metadataFromRequest(request),
      );
      return answer(await readBack(request.params.id), IDENTITY_PROVIDER_MESSAGES.saved);
    },
  );

  app.delete(
    '/identity-providers/:id',
    {
      schema: {
        tags: ['identity-providers'],
        summary: 'Remove an identity provider (administrators)',
        params: providerIdParam,
        response: { 200: messageAnswer },
      },
    },
    async (request) => {
      await readBack(request.params.id);
      await runCommand(services, identityProviders, request.params.id, { type: 'RemoveIdentityProvider' }, metadataFromRequest(request));
      return { success: true as const, message: IDENTITY_PROVIDER_MESSAGES.removed };
    },
  );
}
