import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoUserId } from '../seed/identity';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

/** Team members exist through their organisation: its owner's account decides whether they may act. */
let t: TestPortal;
let admin: Session;
const partnerId = demoUserId('partner@partnerhub.test');

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  admin = await login(t.app, 'admin@partnerhub.test');
});
afterAll(() => t?.close());

const signIn = (email: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: DEMO_PASSWORD } });
const setOwnerActive = async (isActive: boolean) => {
  const owner = (await as(t.app, admin)({ method: 'GET', url: `/api/users/${partnerId}` })).json();
  const response = await as(
    t.app,
    admin,
  )({ method: 'PUT', url: `/api/users/${partnerId}`, payload: { full_name: owner.full_name, email: owner.email, is_active: isActive } });
  expect(response.statusCode).toBe(200);
};

describe('a team member of a deactivated owner', () => {
  it('is refused with old and new tokens, and restored with the owner', async () => {
    const member = await login(t.app, 'partner.user@partnerhub.test');
    expect((await as(t.app, member)({ method: 'GET', url: '/api/orders' })).statusCode).toBe(200);

    await setOwnerActive(false);
    const old = await as(t.app, member)({ method: 'GET', url: '/api/orders' });
    expect(old.statusCode).toBe(401);
    expect(old.json().error.code).toBe('SESSION_ENDED');
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: member.refreshToken } });
    expect(refreshed.statusCode).toBe(401);
    const fresh = await signIn('partner.user@partnerhub.test');
    expect(fresh.statusCode).toBe(403);
    expect(fresh.json().error).toMatchObject({
      code: 'ORGANISATION_INACTIVE',
      message: "Your organisation's account is inactive, so its team members cannot sign in. Please contact your administrator.",
    });

    // The rule chosen: reactivating the owner restores its members (their own status never changed).
    await setOwnerActive(true);
    const again = await login(t.app, 'partner.user@partnerhub.test');
    expect((await as(t.app, again)({ method: 'GET', url: '/api/orders' })).statusCode).toBe(200);
  });

  it('is refused even on a session the owner deactivation did not end (checked on every request)', async () => {
    const member = await login(t.app, 'partner.user@partnerhub.test');
    // Deactivate the owner behind the API's back (as another process would): the request-time check still refuses.
    await t.db.pool.query('UPDATE read.users SET is_active = false WHERE id = $1', [partnerId]);
    try {
      const answer = await as(t.app, member)({ method: 'GET', url: `/api/partner/partners/${partnerId}` });
      expect(answer.statusCode).toBe(401);
      expect(answer.json().error.code).toBe('ORGANISATION_INACTIVE');
    } finally {
      await t.db.pool.query('UPDATE read.users SET is_active = true WHERE id = $1', [partnerId]);
    }
  });

  it('of a deleted owner is refused for good', async () => {
    const member = await login(t.app, 'distributor.user@partnerhub.test');
    const distributorId = demoUserId('distributor@partnerhub.test');
    expect((await as(t.app, admin)({ method: 'DELETE', url: `/api/users/${distributorId}` })).statusCode).toBe(200);
    expect((await as(t.app, member)({ method: 'GET', url: '/api/orders' })).statusCode).toBe(401);
    const fresh = await signIn('distributor.user@partnerhub.test');
    expect(fresh.statusCode).toBe(403);
    expect(fresh.json().error.code).toBe('ORGANISATION_INACTIVE');
  });
});

describe("the organisation's partner application", () => {
  it('is read whole by its owner, and not by team members without Partners.Read', async () => {
    const owner = await login(t.app, 'partner@partnerhub.test');
    const own = await as(t.app, owner)({ method: 'GET', url: `/api/partner/partners/${partnerId}` });
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toHaveProperty('tax_id');

    const member = await login(t.app, 'partner.user@partnerhub.test');
    const refused = await as(t.app, member)({ method: 'GET', url: `/api/partner/partners/${partnerId}` });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('tax_id');
  });
});
