import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserId } from '../seed/identity';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

/** Team management: partners and distributors manage their own members, and nobody else's. */
let t: TestPortal;
let admin: Session;
let partner: Session;
let distributor: Session;
const partnerTeam = '/api/partner/management/sub-users';
const distributorTeam = '/api/distributor/management/sub-users';

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector', 'worker'], env: { JOB_BACKOFF_MS: '50' } });
  [admin, partner, distributor] = await Promise.all([
    login(t.app, 'admin@partnerhub.test'),
    login(t.app, 'partner@partnerhub.test'),
    login(t.app, 'distributor@partnerhub.test'),
  ]);
});
afterAll(() => t?.close());

const member = (overrides: Record<string, unknown> = {}) => ({
  full_name: 'Nadia Berg',
  email: `nadia.${Math.random().toString(36).slice(2, 8)}@northwind.test`,
  password: 'Secret123',
  permissions: ['projects_read', 'orders_track'],
  ...overrides,
});

const eventsByPartner = async (): Promise<number> =>
  Number((await t.db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM events WHERE metadata->>'actorId' = $1`, [partner.user.id])).rows[0].n);

describe('the partner’s team', () => {
  it('lists its own members only, in the specification’s shape, with search and status filters', async () => {
    const list = await as(t.app, partner)({ method: 'GET', url: `${partnerTeam}?page=1&limit=10` });
    expect(list.statusCode).toBe(200);
    const { data } = list.json();
    expect(data).toMatchObject({ totalCount: expect.any(Number), currentPage: 1, totalPages: expect.any(Number) });
    expect(data.subUsers.length).toBeGreaterThanOrEqual(4);
    expect(new Set(data.subUsers.map((m: { parentUserId: string }) => m.parentUserId))).toEqual(new Set([demoUserId('partner@partnerhub.test')]));
    expect(data.subUsers.map((m: { status: string }) => m.status)).toEqual(expect.arrayContaining(['active', 'inactive', 'invited']));
    const searched = (await as(t.app, partner)({ method: 'GET', url: `${partnerTeam}?search=LENA` })).json().data.subUsers;
    expect(searched.map((m: { email: string }) => m.email)).toEqual(['partner.user@partnerhub.test']);
    const inactive = (await as(t.app, partner)({ method: 'GET', url: `${partnerTeam}?isActive=false` })).json().data.subUsers;
    expect(inactive.every((m: { is_active: boolean }) => !m.is_active)).toBe(true);
  });

  it('adds a member who signs in with exactly the permissions given', async () => {
    const body = member();
    const created = await as(t.app, partner)({ method: 'POST', url: partnerTeam, payload: body });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      success: true,
      message: 'Team member added successfully!',
      data: { role: 'partner_user', is_active: true, permissions: ['projects_read', 'orders_track'], effectivePermissions: ['Projects.Read', 'Orders.Track'] },
    });
    const session = await login(t.app, body.email, 'Secret123');
    expect([...session.user.effectivePermissions].sort()).toEqual(['Orders.Track', 'Projects.Read']);
    expect((await as(t.app, session)({ method: 'GET', url: '/api/orders' })).statusCode).toBe(200);
    expect((await as(t.app, session)({ method: 'GET', url: '/api/products' })).statusCode).toBe(403);
  });

  it.each<[string, Record<string, unknown>, number, string]>([
    [
      'more than the partner holds',
      { permissions: ['Projects.Read', 'Projects.Delete'] },
      403,
      'You cannot give a team member permissions you do not hold: Projects.Delete.',
    ],
    ['permissions no member may hold', { permissions: ['Partners.Read'] }, 403, 'You cannot give a team member permissions you do not hold: Partners.Read.'],
    ['no permission', { permissions: [] }, 400, 'Please select at least one permission'],
    ['a short password', { password: 'abc' }, 400, 'Password must be at least 6 characters'],
    ['no password and no invitation', { password: undefined }, 400, 'Password is required'],
    ['an invalid e-mail', { email: 'not-an-address' }, 400, 'Invalid email format'],
    ['a one-letter first name', { full_name: undefined, firstName: 'N', lastName: 'Berg' }, 400, 'First name must be at least 2 characters'],
    ['a taken e-mail', { email: 'partner.user@partnerhub.test' }, 409, ''],
  ])('refuses %s', async (_, overrides, status, message) => {
    const before = await eventsByPartner();
    const response = await as(t.app, partner)({ method: 'POST', url: partnerTeam, payload: member(overrides) });
    expect(response.statusCode).toBe(status);
    if (message) expect(response.json().message).toBe(message);
    // The worker may append its own events meanwhile; what matters is that the refused request wrote none.
    expect(await eventsByPartner()).toBe(before);
  });

  it('edits a member: a blank password keeps the current one; deactivation ends the member’s session at once', async () => {
    const body = member();
    const { data: created } = (await as(t.app, partner)({ method: 'POST', url: partnerTeam, payload: body })).json();
    const session = await login(t.app, body.email, 'Secret123');
    // react-admin sends the whole record back: its read-only fields are ignored.
    const record = (await as(t.app, partner)({ method: 'GET', url: `${partnerTeam}/${created.id}` })).json();
    const renamed = await as(
      t.app,
      partner,
    )({
      method: 'PUT',
      url: `${partnerTeam}/${created.id}`,
      payload: { ...record, success: undefined, data: undefined, full_name: 'Nadia Berg-Holm', password: '' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ message: 'Team member updated successfully!', data: { full_name: 'Nadia Berg-Holm' } });
    await login(t.app, body.email, 'Secret123');

    const deactivated = await as(
      t.app,
      partner,
    )({
      method: 'PUT',
      url: `${partnerTeam}/${created.id}`,
      payload: { full_name: 'Nadia Berg-Holm', email: body.email, permissions: ['projects_read'], is_active: false },
    });
    expect(deactivated.json().data).toMatchObject({ is_active: false, status: 'inactive', permissions: ['projects_read'] });
    expect((await as(t.app, session)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: body.email, password: 'Secret123' } })).statusCode).toBe(403);
  });

  it('resets a password (ending the member’s sessions) and deletes a member, whose address can be used again', async () => {
    const body = member();
    const { data: created } = (await as(t.app, partner)({ method: 'POST', url: partnerTeam, payload: body })).json();
    const session = await login(t.app, body.email, 'Secret123');
    const reset = await as(t.app, partner)({ method: 'POST', url: `${partnerTeam}/${created.id}/reset-password`, payload: { newPassword: 'Changed2026' } });
    expect(reset.statusCode).toBe(200);
    expect((await as(t.app, session)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    await login(t.app, body.email, 'Changed2026');

    const deleted = await as(t.app, partner)({ method: 'DELETE', url: `${partnerTeam}/${created.id}` });
    expect(deleted.json()).toMatchObject({ success: true, message: 'Team member deleted successfully!' });
    expect((await as(t.app, partner)({ method: 'GET', url: `${partnerTeam}/${created.id}` })).statusCode).toBe(404);
    expect((await as(t.app, partner)({ method: 'POST', url: partnerTeam, payload: { ...body, full_name: 'Nadia Again' } })).statusCode).toBe(201);
  });

  it('lands every change in the member’s history, with the partner as actor', async () => {
    const { data: created } = (await as(t.app, partner)({ method: 'POST', url: partnerTeam, payload: member() })).json();
    await as(
      t.app,
      partner,
    )({
      method: 'PUT',
      url: `${partnerTeam}/${created.id}`,
      payload: { full_name: created.full_name, email: created.email, permissions: ['projects_read'], is_active: false },
    });
    const history = (await as(t.app, admin)({ method: 'GET', url: `/api/users/${created.id}/history` })).json().data;
    expect(history.map((row: { to_status: string; actor_id: string }) => [row.to_status, row.actor_id])).toEqual([
      ['active', demoUserId('partner@partnerhub.test')],
      ['inactive', demoUserId('partner@partnerhub.test')],
    ]);
  });
});

describe('what a partner cannot reach', () => {
  it('cannot list, read, change, reset or delete the distributor’s members or an admin', async () => {
    const distributorMember = demoUserId('distributor.user@partnerhub.test');
    const adminId = demoUserId('admin@partnerhub.test');
    for (const id of [distributorMember, adminId, demoUserId('partner@partnerhub.test')]) {
      for (const [method, url, payload] of [
        ['GET', `${partnerTeam}/${id}`, undefined],
        ['PUT', `${partnerTeam}/${id}`, { full_name: 'Taken Over', email: 'taken.over@northwind.test', permissions: ['projects_read'] }],
        ['POST', `${partnerTeam}/${id}/reset-password`, { newPassword: 'Hijacked1' }],
        ['DELETE', `${partnerTeam}/${id}`, undefined],
      ] as const) {
        const response = await as(t.app, partner)({ method, url, payload });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    expect((await as(t.app, partner)({ method: 'GET', url: distributorTeam })).statusCode).toBe(403);
    const list = (await as(t.app, partner)({ method: 'GET', url: `${partnerTeam}?limit=100` })).json().data.subUsers;
    expect(list.map((m: { id: string }) => m.id)).not.toContain(distributorMember);
    await login(t.app, 'distributor.user@partnerhub.test');
  });

  it('cannot add a member to another team', async () => {
    const response = await as(
      t.app,
      partner,
    )({ method: 'POST', url: partnerTeam, payload: member({ parentUserId: demoUserId('distributor@partnerhub.test') }) });
    expect(response.statusCode).toBe(403);
  });

  it('a team member cannot manage members', async () => {
    const lena = await login(t.app, 'partner.user@partnerhub.test');
    expect((await as(t.app, lena)({ method: 'GET', url: partnerTeam })).statusCode).toBe(403);
    expect((await as(t.app, lena)({ method: 'POST', url: partnerTeam, payload: member() })).statusCode).toBe(403);
  });
});

describe('the distributor’s team', () => {
  it('answers its list with top-level total, page, limit and totalPages too', async () => {
    const list = (await as(t.app, distributor)({ method: 'GET', url: `${distributorTeam}?page=1&limit=2` })).json();
    expect(list).toMatchObject({ success: true, total: expect.any(Number), page: 1, limit: 2, totalPages: expect.any(Number) });
    expect(list.data.subUsers.every((m: { role: string }) => m.role === 'distributor_user')).toBe(true);
  });

  it("links every activity line about a member, its removal too, to the distributor's team screen", async () => {
    const created = await as(
      t.app,
      distributor,
    )({
      method: 'POST',
      url: distributorTeam,
      payload: member({ full_name: 'Oskar Lind', email: `oskar.${Date.now()}@atlas.test`, permissions: ['orders_track'] }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    expect((await as(t.app, distributor)({ method: 'DELETE', url: `${distributorTeam}/${id}` })).statusCode).toBe(200);
    const feed = (await as(t.app, distributor)({ method: 'GET', url: '/api/activity?range=[0,99]' })).json() as Array<{
      event_type: string;
      message: string;
      link: string;
    }>;
    const lines = feed.filter((line) => line.message.includes('Oskar Lind'));
    expect(lines.map((line) => line.event_type).sort()).toEqual(['UserDeleted.v1', 'UserRegistered.v1']);
    expect(lines.map((line) => line.link)).toEqual(['/distributor/team-management', '/distributor/team-management']);
  });
});

describe('the permission picker', () => {
  it('offers a partner only what it holds and a member may hold', async () => {
    const offered = (await as(t.app, partner)({ method: 'GET', url: '/api/permissions' })).json().data.map((p: { name: string }) => p.name);
    expect(offered).toContain('Projects.Read');
    expect(offered).not.toContain('Projects.Delete');
    expect(offered.some((name: string) => name.startsWith('Partners.') || name.startsWith('Users.'))).toBe(false);
    const groups = (await as(t.app, partner)({ method: 'GET', url: '/api/permissions/groups' })).json().data;
    expect(groups.map((g: { category: string }) => g.category)).toEqual(expect.arrayContaining(['Projects', 'Orders']));
    expect(groups.find((g: { category: string }) => g.category === 'Projects').permissions[0]).toMatchObject({ key: expect.stringMatching(/^projects_/) });
  });

  it('offers nothing to accounts without a team', async () => {
    const support = await login(t.app, 'support@partnerhub.test');
    expect((await as(t.app, support)({ method: 'GET', url: '/api/permissions' })).json().data).toEqual([]);
  });
});

describe("when an admin narrows the owner's permissions", () => {
  it('the members lose what the owner lost: at once on their requests, and in their records by a reaction', async () => {
    const distributorId = demoUserId('distributor@partnerhub.test');
    const tom = await login(t.app, 'distributor.user@partnerhub.test');
    expect((await as(t.app, tom)({ method: 'GET', url: '/api/products' })).statusCode).toBe(200);
    const owner = (await as(t.app, admin)({ method: 'GET', url: `/api/users/${distributorId}` })).json();
    const narrowed = owner.permissions.filter((p: string) => p !== 'Orders.Browse');
    expect(
      (
        await as(
          t.app,
          admin,
        )({ method: 'PUT', url: `/api/users/${distributorId}`, payload: { full_name: owner.full_name, email: owner.email, permissions: narrowed } })
      ).statusCode,
    ).toBe(200);
    const refused = await as(t.app, tom)({ method: 'GET', url: '/api/products' });
    expect(refused.statusCode).toBe(403);
    let stored: string[] = [];
    for (let i = 0; i < 50; i++) {
      stored = (await as(t.app, admin)({ method: 'GET', url: `/api/users/${demoUserId('distributor.user@partnerhub.test')}` })).json().permissions;
      if (!stored.includes('Orders.Browse')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(stored).toEqual(['Orders.Track', 'Learning.Read']);
    const next = await as(t.app, tom)({ method: 'GET', url: '/api/auth/me' });
    expect(next.headers['x-permissions-changed']).toBe('true');
    expect(JSON.parse(String(next.headers['x-current-permissions']))).toEqual(['Orders.Track', 'Learning.Read']);
  });
});

describe('invitations', () => {
  it('let the invited member set a password once, then sign in', async () => {
    const email = `invited.${Date.now()}@northwind.test`;
    const invited = await as(
      t.app,
      partner,
    )({ method: 'POST', url: partnerTeam, payload: { full_name: 'Ines Invited', email, permissions: ['projects_read'], invite: true } });
    expect(invited.statusCode).toBe(201);
    expect(invited.json()).toMatchObject({ message: `Invitation sent to ${email}.`, data: { status: 'invited', is_active: false } });
    const token = new URL(invited.json().invitationLink, 'http://x').searchParams.get('token')!;
    const shown = await t.app.inject({ method: 'GET', url: `/api/team/invitation?token=${encodeURIComponent(token)}` });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().data).toMatchObject({ email, full_name: 'Ines Invited', company_name: 'Northwind Networks' });
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'Secret123' } })).statusCode).toBe(401);

    const accepted = await t.app.inject({ method: 'POST', url: '/api/team/invitations/accept', payload: { token, password: 'Chosen2026' } });
    expect(accepted.json()).toMatchObject({ success: true, message: 'Your password is set. You can sign in now.' });
    const session = await login(t.app, email, 'Chosen2026');
    expect(session.user.effectivePermissions).toEqual(['Projects.Read']);

    const again = await t.app.inject({ method: 'POST', url: '/api/team/invitations/accept', payload: { token, password: 'Another2026' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('INVITATION_USED');
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/team/invitations/accept',
      payload: { token: token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), password: 'Another2026' },
    });
    expect(forged.statusCode).toBe(404);
  });
});
