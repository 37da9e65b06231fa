import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS_BY_ROLE, type Role } from '../../domain/access';
import { DEMO_PASSWORD } from '../seed/identity';
import { as, login } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'], env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000', LOGIN_FAILURES_PER_EMAIL: '3' } });
});
afterAll(() => t?.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

describe('sign-in', () => {
  it.each<[string, Role]>([
    ['admin@partnerhub.test', 'admin'],
    ['partner@partnerhub.test', 'partner'],
    ['distributor@partnerhub.test', 'distributor'],
    ['manufacturer@partnerhub.test', 'manufacturer'],
    ['support@partnerhub.test', 'support'],
    ['partner.user@partnerhub.test', 'partner_user'],
    ['distributor.user@partnerhub.test', 'distributor_user'],
  ])('%s signs in as %s with its permissions', async (email, role) => {
    const response = await post('/api/auth/login', { email, password: DEMO_PASSWORD });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.message).toBe('Login successful! Redirecting...');
    expect(body.accessToken).toBe(body.access);
    expect(body.refreshToken).toBe(body.refresh);
    expect(body.user).toMatchObject({ email, role, is_active: true });
    expect([...body.user.effectivePermissions].sort()).toEqual([...DEFAULT_PERMISSIONS_BY_ROLE[role]].sort());
    const me = await as(t.app, body)({ method: 'GET', url: '/api/auth/me' });
    expect(me.json()).toMatchObject({ success: true, role, user: { email } });
  });

  it('a wrong password and an unknown e-mail get the same answer', async () => {
    for (const payload of [
      { email: 'support@partnerhub.test', password: 'Wrong-password1' },
      { email: 'nobody@partnerhub.test', password: 'Wrong-password1' },
    ]) {
      const response = await post('/api/auth/login', payload);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ success: false, message: 'Invalid email or password.', error: { code: 'INVALID_CREDENTIALS' } });
    }
  });

  it('an inactive user is told why', async () => {
    const response = await post('/api/auth/login', { email: 'hiro.tanaka@kaiju-components.test', password: DEMO_PASSWORD });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatchObject({ code: 'ACCOUNT_INACTIVE', message: 'Your account is inactive. Please contact your administrator.' });
  });

  it('a self-registered partner awaits approval', async () => {
    const registered = await post('/api/user/register/', { email: 'new.partner@example.test', password: 'Secret123', company_name: 'Fjord Networks' });
    expect(registered.statusCode).toBe(201);
    expect(registered.json()).toMatchObject({ success: true, data: { id: expect.any(String), role: 'partner', is_active: false } });
    expect(registered.json().onboardingToken).toEqual(expect.any(String));
    // Not yet through the questionnaire: told so, with a fresh token to finish it.
    const response = await post('/api/auth/login', { email: 'new.partner@example.test', password: 'Secret123' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatchObject({
      code: 'ONBOARDING_INCOMPLETE',
      message: 'Your partner application is not complete yet: finish the onboarding questionnaire so an administrator can review it.',
      onboardingToken: expect.any(String),
      applicant: { email: 'new.partner@example.test', company_name: 'Fjord Networks' },
    });
    const wrongPassword = await post('/api/auth/login', { email: 'new.partner@example.test', password: 'Secret999' });
    expect(wrongPassword.json().error).not.toHaveProperty('onboardingToken');
    const again = await post('/api/user/register/', { email: 'NEW.partner@example.test', password: 'Secret123' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'EMAIL_TAKEN', email: 'Email already exists' });
  });

  it('registration enforces the sign-up password rules', async () => {
    const cases: Array<[unknown, string]> = [
      [{ email: 'a@b.test', password: 'Sh1' }, 'Password must be at least 6 characters'],
      [{ email: 'a@b.test', password: 'lowercase1' }, 'Password must contain at least one uppercase letter'],
      [{ email: 'a@b.test', password: 'NoDigitsHere' }, 'Password must contain at least one number'],
      [{ email: 'not-an-email', password: 'Secret123' }, 'Please enter a valid email'],
      [{ email: 'a@b.test', password: 'Secret123', role: 'admin' }, 'Only partners can register themselves.'],
    ];
    for (const [payload, message] of cases) {
      const response = await post('/api/user/register/', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
    }
  });

  it('the login form rules hold on the server too', async () => {
    const short = await post('/api/auth/login', { email: 'a@b', password: 'x' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.details).toEqual([
      { field: 'email', message: 'email must be at least 5 characters' },
      { field: 'password', message: 'Password must be at least 4 characters' },
    ]);
    const missing = await post('/api/auth/login', {});
    expect(missing.json().error.details.map((d: { message: string }) => d.message)).toEqual(['Email is required.', 'Password is required']);
  });

  it('slows down the address that keeps failing, with Retry-After, and never the owner signing in from elsewhere', async () => {
    const from = (remoteAddress: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'jordan.lee@partnerhub.test', password }, remoteAddress });
    // LOGIN_FAILURES_PER_EMAIL is 3 here: three free failures, then each failure blocks this address for this account.
    for (let i = 0; i < 4; i++) expect((await from('203.0.113.9', 'nope-nope')).statusCode).toBe(401);
    const slowed = await from('203.0.113.9', DEMO_PASSWORD);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toMatch(/^\d+$/);
    expect(slowed.json().message).toMatch(/^Too many sign-in attempts\. Please wait \d+ seconds and try again\.$/);
    // The owner, from another address, is not locked out.
    expect((await from('198.51.100.20', DEMO_PASSWORD)).statusCode).toBe(200);
    // Each further failure doubles the wait of the failing address.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await from('203.0.113.9', 'nope-nope')).statusCode).toBe(401);
    expect(Number((await from('203.0.113.9', DEMO_PASSWORD)).headers['retry-after'])).toBe(2);
  });

  it('limits registrations per address, with Retry-After', async () => {
    const limited = await startTestPortal({ processes: ['api', 'projector'], env: { REGISTRATIONS_PER_IP_PER_HOUR: '2' } });
    try {
      const register = (n: number) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/user/register/',
          payload: { email: `burst${n}@example.test`, password: 'Secret123', company_name: `Burst ${n}` },
          remoteAddress: '203.0.113.50',
        });
      expect((await register(1)).statusCode).toBe(201);
      expect((await register(2)).statusCode).toBe(201);
      const third = await register(3);
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      expect(third.json().message).toMatch(/^Too many registrations from your network\. Please wait \d+ seconds and try again\.$/);
      // Nothing was created for the refused one.
      const { rows } = await limited.db.pool.query("SELECT count(*)::int AS n FROM read.users WHERE email LIKE 'burst%'");
      expect(rows[0].n).toBe(2);
    } finally {
      await limited.close();
    }
  });
});

describe('sessions', () => {
  it('refresh rotates; a reused refresh token ends the whole session', async () => {
    const session = await login(t.app, 'support@partnerhub.test');
    const first = await post('/api/user/token/refresh/', { refreshToken: session.refreshToken });
    expect(first.statusCode).toBe(200);
    const rotated = first.json();
    expect(rotated.refreshToken).not.toBe(session.refreshToken);
    expect((await as(t.app, rotated)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);

    const reuse = await post('/api/auth/refresh', { refresh: session.refreshToken });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().error.code).toBe('REFRESH_TOKEN_REUSED');
    // The family is gone: the newer refresh token and the access token of that session no longer work.
    expect((await post('/api/auth/refresh', { refreshToken: rotated.refreshToken })).statusCode).toBe(401);
    const me = await as(t.app, rotated)({ method: 'GET', url: '/api/auth/me' });
    expect(me.statusCode).toBe(401);
    expect(me.json().error.code).toBe('SESSION_ENDED');
  });

  it('logout ends the session', async () => {
    const session = await login(t.app, 'manufacturer@partnerhub.test');
    expect((await as(t.app, session)({ method: 'POST', url: '/api/auth/logout' })).json()).toMatchObject({ success: true });
    expect((await as(t.app, session)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    expect((await post('/api/auth/refresh', { refreshToken: session.refreshToken })).statusCode).toBe(401);
  });

  it('change password: messages, then only the new password works and other sessions end', async () => {
    const other = await login(t.app, 'distributor.user@partnerhub.test');
    const session = await login(t.app, 'distributor.user@partnerhub.test');
    const change = (payload: unknown) => as(t.app, session)({ method: 'POST', url: '/api/auth/change-password', payload: payload as object });
    expect((await change({ currentPassword: 'Wrong1', newPassword: 'Another2026!' })).json()).toMatchObject({ message: 'Current password is incorrect' });
    expect((await change({ currentPassword: DEMO_PASSWORD, newPassword: 'abc' })).json()).toMatchObject({
      message: 'New password must be at least 6 characters long',
    });
    expect((await change({ currentPassword: DEMO_PASSWORD, newPassword: DEMO_PASSWORD })).json()).toMatchObject({
      message: 'New password must be different from current password',
    });
    expect((await change({ currentPassword: '', newPassword: '' })).json()).toMatchObject({ message: 'All fields are required' });
    const ok = await change({ currentPassword: DEMO_PASSWORD, newPassword: 'Another2026!' });
    expect(ok.json()).toMatchObject({ success: true, message: 'Password changed successfully' });
    expect((await post('/api/auth/login', { email: 'distributor.user@partnerhub.test', password: DEMO_PASSWORD })).statusCode).toBe(401);
    await login(t.app, 'distributor.user@partnerhub.test', 'Another2026!');
    expect((await as(t.app, session)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
    expect((await as(t.app, other)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });

  it('counts wrong current passwords like sign-in failures: the guessing session is slowed down with Retry-After', async () => {
    const session = await login(t.app, 'manufacturer@partnerhub.test');
    const guess = (currentPassword: string) =>
      as(t.app, session)({ method: 'POST', url: '/api/auth/change-password', payload: { currentPassword, newPassword: 'Guessed2026!' } });
    for (let i = 0; i < 4; i++) expect((await guess(`guess-${i}`)).statusCode).toBe(401);
    const slowed = await guess(DEMO_PASSWORD);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toMatch(/^\d+$/);
    expect(slowed.json().message).toMatch(/^Too many wrong current passwords\. Please wait \d+ seconds and try again\.$/);
    // The password did not change.
    await login(t.app, 'manufacturer@partnerhub.test');
  });
});

describe('tokens that must be refused', () => {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const sign = (header: object, payload: object, secret: string) => {
    const head = `${b64(header)}.${b64(payload)}`;
    return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
  };
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });

  it.each([
    [
      'expired',
      () => {
        const now = Math.floor(Date.now() / 1000);
        const claims = {
          sub: randomUUID(),
          sid: randomUUID(),
          role: 'admin',
          permissions: [],
          av: 1,
          aud: 'partnerhub',
          iss: 'partnerhub',
          iat: now - 100,
          exp: now - 10,
        };
        return sign({ alg: 'HS256', typ: 'JWT' }, claims, t.portal.services.config.JWT_SECRET);
      },
      'TOKEN_EXPIRED',
    ],
    ['valid signature but not our claims', () => t.app.jwt.sign({ sub: 'x', sid: 'y', role: 'admin', permissions: [], av: 1 }), 'INVALID_TOKEN'],
    [
      'forged with another secret',
      () => sign({ alg: 'HS256', typ: 'JWT' }, { sub: 'x', sid: 'y', role: 'admin', aud: 'partnerhub', iss: 'partnerhub', exp: 9999999999 }, 'not-the-secret'),
      'INVALID_TOKEN',
    ],
    [
      'alg none',
      () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'x', sid: 'y', role: 'admin', aud: 'partnerhub', iss: 'partnerhub', exp: 9999999999 })}.`,
      'INVALID_TOKEN',
    ],
    [
      'for another audience',
      () => t.app.jwt.sign({ sub: 'x', sid: 'y', role: 'admin', permissions: [], av: 1 }, { aud: 'partnerhub-onboarding' }),
      'INVALID_TOKEN',
    ],
    ['garbage', () => 'not.a.token', 'INVALID_TOKEN'],
  ])('%s → 401', async (_name, make, code) => {
    const response = await me(make());
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false, error: { code } });
  });
});

describe('bad input changes nothing and says why', () => {
  it('malformed JSON', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error: { code: 'MALFORMED_JSON', message: 'The request body is not valid JSON.' } });
  });
  it('unknown fields are refused', async () => {
    const response = await post('/api/auth/login', { email: 'admin@partnerhub.test', password: DEMO_PASSWORD, isAdmin: true });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Unknown field: isAdmin. Remove it and try again.');
  });
  it('wrong types', async () => {
    const response = await post('/api/auth/login', { email: 42, password: ['x'] });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.map((d: { message: string }) => d.message)).toEqual(
      expect.arrayContaining(['Email must be text.', 'Password must be text.']),
    );
  });
  it('a 10 MB body', async () => {
    const response = await post('/api/auth/login', { email: 'admin@partnerhub.test', password: 'x'.repeat(10 * 1024 * 1024) });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });
  it('a non-JSON content type', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: 'email=a', headers: { 'content-type': 'text/plain' } });
    expect(response.statusCode).toBe(415);
  });
  it('unknown routes answer in the envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });
});

it('serves the OpenAPI document', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(response.statusCode).toBe(200);
  const paths = Object.keys(response.json().paths);
  expect(paths).toEqual(expect.arrayContaining(['/api/auth/login', '/api/users', '/api/users/{id}', '/api/users/{id}/history', '/api/notifications']));
});
