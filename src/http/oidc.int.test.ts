import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../seed/identity';
import { as, login, type Session } from '../testing/api';
import { startTestIdentityProvider, type TestIdentityProvider } from '../testing/oidcProvider';
import { startTestPortal, type TestPortal } from '../testing/portal';

// The address the portal says it is at: the provider sends the browser back there (tests deliver it with inject).
const PORTAL = 'http://localhost:3000';
const callbackOf = (slug: string) => `${PORTAL}/api/auth/oidc/${slug}/callback`;

let t: TestPortal;
let idp: TestIdentityProvider;
let admin: Session;
let partner: Session;

beforeAll(async () => {
  idp = await startTestIdentityProvider({
    clients: [
      { client_id: 'portal', client_secret: 'portal-secret-0123456789', redirect_uris: [callbackOf('acme'), callbackOf('acme-wrong-issuer')] },
      { client_id: 'other-client', client_secret: 'other-secret-0123456789', redirect_uris: [callbackOf('acme-other-client')] },
    ],
    accounts: { 'unverified@acme.example': { email: 'unverified@acme.example', email_verified: false } },
  });
  t = await startTestPortal({ processes: ['api', 'projector'], env: { PUBLIC_URL: PORTAL } });
  admin = await login(t.app, 'admin@partnerhub.test');
  partner = await login(t.app, 'partner@partnerhub.test');
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

const inject = (url: string, session?: Session) => as(t.app, session)({ method: 'GET', url });

async function configure(body: Record<string, unknown>): Promise<{ id: string; slug: string }> {
  const response = await as(t.app, admin)({ method: 'POST', url: '/api/identity-providers', payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** Starts at the portal, signs in at the provider as `login`, and answers the provider's redirect back (not yet delivered). */
async function throughProvider(slug: string, login: string): Promise<URL> {
  const start = await inject(`/api/auth/oidc/${slug}/start`);
  expect(start.statusCode).toBe(302);
  return idp.signIn(start.headers.location as string, login);
}

/** Delivers the provider's redirect to the portal; answers where the portal sends the browser next. */
async function deliver(callback: URL): Promise<URLSearchParams> {
  const response = await inject(`${callback.pathname}${callback.search}`);
  expect(response.statusCode).toBe(302);
  const location = new URL(response.headers.location as string, PORTAL);
  expect(location.pathname).toBe('/signin');
  return location.searchParams;
}

async function complete(params: URLSearchParams) {
  const ticket = params.get('sso_ticket');
  expect(ticket, params.get('sso_error') ?? 'no ticket').toEqual(expect.any(String));
  const response = await t.app.inject({ method: 'POST', url: '/api/auth/oidc/complete', payload: { ticket } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('single sign-on with a real OpenID provider', () => {
  let acme: { id: string; slug: string };

  beforeAll(async () => {
    acme = await configure({
      slug: 'acme',
      name: 'Acme Identity',
      issuer: idp.issuer,
      client_id: 'portal',
      client_secret: 'portal-secret-0123456789',
      allowed_domains: ['acme.example', 'partnerhub.test'],
      organisation_id: partner.user.id,
      role: 'partner_user',
    });
  });

  it('lists the providers for the sign-in page without their settings, and keeps the client secret out of events and answers', async () => {
    const listed = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/providers' });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.providers).toEqual([{ slug: 'acme', name: 'Acme Identity', start_url: '/api/auth/oidc/acme/start' }]);
    const shown = await inject(`/api/identity-providers/${acme.id}`, admin);
    expect(shown.body).not.toContain('portal-secret');
    const { rows } = await t.db.pool.query(`SELECT data FROM events WHERE type LIKE 'IdentityProvider%'`);
    expect(JSON.stringify(rows)).not.toContain('portal-secret');
    expect((await inject('/api/identity-providers', partner)).statusCode).toBe(403);
  });

  it('the start redirects to the provider with PKCE (S256), a state and a nonce', async () => {
    const start = await inject('/api/auth/oidc/acme/start');
    const location = new URL(start.headers.location as string);
    expect(location.origin).toBe(idp.issuer);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: 'portal',
      response_type: 'code',
      redirect_uri: callbackOf('acme'),
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      state: expect.any(String),
      nonce: expect.any(String),
    });
  });

  it('creates the account of a new person of an allowed domain, in the configured organisation and role, and signs them in', async () => {
    const session = await complete(await deliver(await throughProvider('acme', 'nina.ross@acme.example')));
    expect(session.user).toMatchObject({ email: 'nina.ross@acme.example', role: 'partner_user' });
    const { rows } = await t.db.pool.query('SELECT parent_user_id, is_active FROM read.users WHERE email = $1', ['nina.ross@acme.example']);
    expect(rows).toEqual([{ parent_user_id: partner.user.id, is_active: true }]);
    expect((await inject('/api/auth/me', session)).json().user.email).toBe('nina.ross@acme.example');
    // The account was made by the identity decider's own command.
    const registered = await t.db.pool.query(`SELECT 1 FROM events WHERE type = 'UserRegistered.v1' AND stream_id = $1`, [`users-${session.user.id}`]);
    expect(registered.rows).toHaveLength(1);
    // The next time, the same account signs in.
    const again = await complete(await deliver(await throughProvider('acme', 'nina.ross@acme.example')));
    expect(again.user.id).toBe(session.user.id);
  });

  it('an existing account is linked by its verified e-mail address', async () => {
    const session = await complete(await deliver(await throughProvider('acme', 'distributor@partnerhub.test')));
    expect(session.user).toMatchObject({ email: 'distributor@partnerhub.test', role: 'distributor' });
    const { rows } = await t.db.pool.query('SELECT count(*)::int AS n FROM read.users WHERE lower(email) = $1', ['distributor@partnerhub.test']);
    expect(rows[0].n).toBe(1);
  });

  it('refuses a disallowed domain and an unverified address, and creates no account', async () => {
    const disallowed = await deliver(await throughProvider('acme', 'mallory@evil.example'));
    expect(disallowed.get('sso_error')).toBe('People of evil.example cannot sign in with this identity provider. Please contact your administrator.');
    expect(disallowed.get('sso_ticket')).toBeNull();
    const unverified = await deliver(await throughProvider('acme', 'unverified@acme.example'));
    expect(unverified.get('sso_error')).toMatch(/did not share a verified e-mail address/);
    const { rows } = await t.db.pool.query('SELECT email FROM read.users WHERE email IN ($1, $2)', ['mallory@evil.example', 'unverified@acme.example']);
    expect(rows).toEqual([]);
    const audited = await t.db.pool.query(`SELECT 1 FROM events WHERE type = 'SignInFailed.v1' AND data->>'reason' = 'sso_refused'`);
    expect(audited.rows.length).toBeGreaterThanOrEqual(2);
  });

  it('a replayed answer is refused, and so is a spent code presented with a fresh state', async () => {
    const callback = await throughProvider('acme', 'nina.ross@acme.example');
    await complete(await deliver(callback));
    expect((await deliver(callback)).get('sso_error')).toBe('This sign-in link has expired or was already used. Please start again.');

    // The same code, now under a state the portal did issue: the provider refuses the spent code.
    const fresh = new URL((await inject('/api/auth/oidc/acme/start')).headers.location as string).searchParams.get('state')!;
    const replay = new URL(callback);
    replay.searchParams.set('state', fresh);
    expect((await deliver(replay)).get('sso_error')).toBe("Acme Identity's answer could not be verified. Please start again.");
  });

  it('an expired code is refused', async () => {
    idp.codeTtlSeconds = 1;
    try {
      const callback = await throughProvider('acme', 'nina.ross@acme.example');
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect((await deliver(callback)).get('sso_error')).toBe("Acme Identity's answer could not be verified. Please start again.");
    } finally {
      idp.codeTtlSeconds = 60;
    }
  });

  it('a ticket is good once', async () => {
    const params = await deliver(await throughProvider('acme', 'nina.ross@acme.example'));
    await complete(params);
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/oidc/complete', payload: { ticket: params.get('sso_ticket') } });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('SSO_TICKET_INVALID');
  });

  it('refuses an answer naming another issuer', async () => {
    const callback = await throughProvider('acme', 'nina.ross@acme.example');
    callback.searchParams.set('iss', 'http://127.0.0.1:1');
    expect((await deliver(callback)).get('sso_error')).toBe("Acme Identity's answer could not be verified. Please start again.");
  });

  it('refuses a provider whose discovery names another issuer than configured', async () => {
    await configure({
      slug: 'acme-wrong-issuer',
      name: 'Acme (localhost)',
      issuer: idp.issuer.replace('127.0.0.1', 'localhost'),
      client_id: 'portal',
      client_secret: 'portal-secret-0123456789',
      allowed_domains: ['acme.example'],
      role: 'partner',
    });
    const start = await inject('/api/auth/oidc/acme-wrong-issuer/start');
    const location = new URL(start.headers.location as string, PORTAL);
    expect(location.pathname).toBe('/signin');
    expect(location.searchParams.get('sso_error')).toMatch(/could not be reached or did not describe itself correctly/);
  });

  it('refuses a code issued to another client (another audience)', async () => {
    await configure({
      slug: 'acme-other-client',
      name: 'Acme (other client)',
      issuer: idp.issuer,
      client_id: 'other-client',
      client_secret: 'other-secret-0123456789',
      allowed_domains: ['acme.example'],
      role: 'partner',
    });
    const codeForPortal = await throughProvider('acme', 'nina.ross@acme.example');
    const otherStart = new URL((await inject('/api/auth/oidc/acme-other-client/start')).headers.location as string);
    const misdelivered = new URL(callbackOf('acme-other-client'));
    misdelivered.searchParams.set('code', codeForPortal.searchParams.get('code')!);
    misdelivered.searchParams.set('state', otherStart.searchParams.get('state')!);
    misdelivered.searchParams.set('iss', idp.issuer);
    expect((await deliver(misdelivered)).get('sso_error')).toBe("Acme (other client)'s answer could not be verified. Please start again.");
  });

  it('an organisation that requires single sign-on refuses its people’s passwords with a clear message', async () => {
    const saved = await as(
      t.app,
      admin,
    )({ method: 'PUT', url: '/api/settings/security', payload: { mfa_required_for: 'nobody', sso_required_organisations: [partner.user.id] } });
    expect(saved.statusCode).toBe(200);
    try {
      for (const email of ['partner@partnerhub.test', 'partner.user@partnerhub.test']) {
        const refused = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: DEMO_PASSWORD } });
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error).toMatchObject({ code: 'SSO_REQUIRED', message: expect.stringContaining('single sign-on') });
      }
      // Other organisations are not concerned; the organisation's people still sign in through the provider.
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'distributor@partnerhub.test', password: DEMO_PASSWORD } })).statusCode,
      ).toBe(200);
      const session = await complete(await deliver(await throughProvider('acme', 'partner.user@partnerhub.test')));
      expect(session.user.email).toBe('partner.user@partnerhub.test');
    } finally {
      await as(t.app, admin)({ method: 'PUT', url: '/api/settings/security', payload: { mfa_required_for: 'nobody', sso_required_organisations: [] } });
    }
  });

  it('administrators change and remove providers; a removed provider is no longer offered', async () => {
    const changed = await as(
      t.app,
      admin,
    )({
      method: 'PUT',
      url: `/api/identity-providers/${acme.id}`,
      payload: {
        slug: 'acme',
        name: 'Acme SSO',
        issuer: idp.issuer,
        client_id: 'portal',
        allowed_domains: ['acme.example', 'partnerhub.test'],
        organisation_id: partner.user.id,
        role: 'partner_user',
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.name).toBe('Acme SSO');
    // The secret was kept: sign-in still works.
    await complete(await deliver(await throughProvider('acme', 'nina.ross@acme.example')));
    const badRole = await as(
      t.app,
      admin,
    )({
      method: 'POST',
      url: '/api/identity-providers',
      payload: { slug: 'x-idp', name: 'X', issuer: idp.issuer, client_id: 'c', client_secret: 's', allowed_domains: [], role: 'emperor' },
    });
    expect(badRole.statusCode).toBe(400);
    const removed = await as(t.app, admin)({ method: 'DELETE', url: `/api/identity-providers/${acme.id}` });
    expect(removed.statusCode).toBe(200);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/auth/oidc/providers' })).json().data.providers.map((p: { slug: string }) => p.slug);
    expect(listed).not.toContain('acme');
    expect((await inject('/api/auth/oidc/acme/start')).statusCode).toBe(404);
  });
});
