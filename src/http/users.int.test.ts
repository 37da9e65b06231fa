import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserId } from '../seed/identity';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
let admin: Session;
beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'], env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' } });
  admin = await login(t.app, 'admin@partnerhub.test');
});
afterAll(() => t?.close());

const asAdmin = (options: Parameters<ReturnType<typeof as>>[0]) => as(t.app, admin)(options);
const newUser = (overrides: Record<string, unknown> = {}) => ({
  full_name: 'Rosa Alvarez',
  email: `rosa.${Math.random().toString(36).slice(2, 8)}@example.test`,
  password: 'Welcome1',
  role: 'distributor',
  permissions: ['Orders.Read', 'Orders.Track'],
  ...overrides,
});

describe('listing', () => {
  it('answers the specification shape: admins first, sub-users hidden', async () => {
    const response = await asAdmin({ method: 'GET', url: '/api/users?page=1&limit=50' });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.total).toBe(data.users.length);
    expect(data.users[0].role).toBe('admin');
    expect(data.users.map((u: { role: string }) => u.role)).not.toContain('partner_user');
    expect(data.users.map((u: { role: string }) => u.role)).not.toContain('distributor_user');
    expect(data.users[0]).not.toHaveProperty('password_hash');
  });

  it('answers react-admin with an array and Content-Range', async () => {
    const response = await asAdmin({
      method: 'GET',
      url: `/api/users?sort=${encodeURIComponent('["full_name","ASC"]')}&range=${encodeURIComponent('[0,2]')}&filter=${encodeURIComponent('{"q":"PARTNERHUB.TEST"}')}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toHaveLength(3);
    expect(response.headers['content-range']).toMatch(/^users 0-2\/\d+$/);
  });

  it('filters by role, activity and a search that ignores case', async () => {
    const inactive = (await asAdmin({ method: 'GET', url: '/api/users?isActive=false' })).json().data.users;
    expect(inactive.map((u: { email: string }) => u.email)).toContain('hiro.tanaka@kaiju-components.test');
    expect(inactive.every((u: { is_active: boolean }) => !u.is_active)).toBe(true);
    const support = (await asAdmin({ method: 'GET', url: '/api/users?role=support' })).json().data.users;
    expect(support.map((u: { email: string }) => u.email).sort()).toEqual(['jordan.lee@partnerhub.test', 'support@partnerhub.test']);
    const found = (await asAdmin({ method: 'GET', url: '/api/users?search=oKaFoR' })).json().data.users;
    expect(found.map((u: { email: string }) => u.email)).toEqual(['distributor@partnerhub.test']);
  });

  it('refuses a malformed list query', async () => {
    for (const url of [
      '/api/users?limit=0',
      '/api/users?sort=notjson',
      '/api/users?sort=["password","ASC"]',
      '/api/users?filter={"owner":"x"}',
      '/api/users?color=red',
    ]) {
      const response = await asAdmin({ method: 'GET', url: encodeURI(url) });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('adding a user', () => {
  it('creates it inactive by default, visible at once in the list and its history', async () => {
    const body = newUser();
    const created = await asAdmin({ method: 'POST', url: '/api/users', payload: body });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      success: true,
      message: 'User successfully registered',
      data: { email: body.email, role: 'distributor', is_active: false, permissions: ['Orders.Read', 'Orders.Track'] },
    });
    const id = created.json().data.id;
    // Read-your-writes: the very next read shows it.
    const listed = (await asAdmin({ method: 'GET', url: `/api/users?search=${body.email}` })).json().data.users;
    expect(listed.map((u: { id: string }) => u.id)).toEqual([id]);
    const history = (await asAdmin({ method: 'GET', url: `/api/users/${id}/history` })).json().data;
    expect(history).toEqual([
      expect.objectContaining({ from_status: null, to_status: 'inactive', actor_id: admin.user.id, actor_name: 'Alex Morgan', actor_role: 'admin' }),
    ]);
  });

  it.each([
    [{ full_name: '' }, 'full_name', 'Full name is required.'],
    [{ full_name: undefined }, 'full_name', 'Full name is required.'],
    [{ email: '' }, 'email', 'Email is required.'],
    [{ email: 'not-an-address' }, 'email', 'Email is invalid.'],
    [{ password: '' }, 'password', 'Password is required.'],
    [{ password: 'abc' }, 'password', 'Password must be at least 6 characters.'],
    [{ role: '' }, 'role', 'Role is required.'],
    [{ role: undefined }, 'role', 'Role is required.'],
    [{ role: 'partner_user' }, 'role', 'Choose distributor, manufacturer or support.'],
    [{ permissions: ['Users.Delete'] }, 'permissions', 'Choose only permissions offered for this role.'],
    [{ nickname: 'Ro' }, 'nickname', 'Unknown field: nickname. Remove it and try again.'],
    [{ is_active: 'yes' }, 'is_active', 'Is active must be a boolean.'],
  ])('%o → %s: %s', async (overrides, field, message) => {
    const before = (await asAdmin({ method: 'GET', url: '/api/users?limit=1' })).json().data.total;
    const response = await asAdmin({ method: 'POST', url: '/api/users', payload: newUser(overrides) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual(expect.arrayContaining([{ field, message }]));
    expect((await asAdmin({ method: 'GET', url: '/api/users?limit=1' })).json().data.total).toBe(before);
  });

  it('an e-mail in use is refused with error.email', async () => {
    const response = await asAdmin({ method: 'POST', url: '/api/users', payload: newUser({ email: 'Support@PartnerHub.test' }) });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ success: false, message: 'Email already exists', error: { code: 'EMAIL_TAKEN', email: 'Email already exists' } });
  });

  it('two admins adding the same e-mail at once create one user', async () => {
    const email = `race.${Date.now()}@example.test`;
    const answers = await Promise.all([1, 2, 3, 4].map(() => asAdmin({ method: 'POST', url: '/api/users', payload: newUser({ email }) })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409]);
    expect((await asAdmin({ method: 'GET', url: `/api/users?search=${email}` })).json().data.total).toBe(1);
  });
});

describe('editing, deactivating and deleting', () => {
  it('an admin edits, deactivates and deletes; each change shows at once in the list and the history', async () => {
    const body = newUser({ is_active: true });
    const id = (await asAdmin({ method: 'POST', url: '/api/users', payload: body })).json().data.id;
    const session = await login(t.app, body.email, body.password);

    const edited = await asAdmin({
      method: 'PUT',
      url: `/api/users/${id}`,
      payload: { id, full_name: 'Rosa M. Alvarez', email: body.email, role: 'distributor', is_active: true, permissions: ['Orders.Read'] },
    });
    expect(edited.json()).toMatchObject({
      success: true,
      message: 'User updated successfully',
      data: { full_name: 'Rosa M. Alvarez', permissions: ['Orders.Read'] },
    });

    // The user's next request learns of the new permissions.
    const me = await as(t.app, session)({ method: 'GET', url: '/api/auth/me' });
    expect(me.headers['x-permissions-changed']).toBe('true');
    expect(JSON.parse(String(me.headers['x-current-permissions']))).toEqual(['Orders.Read']);
    expect(me.headers['x-current-role']).toBe('distributor');

    await asAdmin({ method: 'PUT', url: `/api/users/${id}`, payload: { full_name: 'Rosa M. Alvarez', email: body.email, is_active: false } });
    expect((await asAdmin({ method: 'GET', url: `/api/users?search=${body.email}` })).json().data.users[0].is_active).toBe(false);
    const signedOut = await as(t.app, session)({ method: 'GET', url: '/api/auth/me' });
    expect(signedOut.statusCode).toBe(401);

    const refused = await asAdmin({ method: 'PUT', url: `/api/users/${id}`, payload: { full_name: 'X', email: body.email, role: 'support' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe("A user's role cannot be changed.");

    const deleted = await asAdmin({ method: 'DELETE', url: `/api/users/${id}` });
    expect(deleted.json()).toMatchObject({ success: true, message: 'User Rosa M. Alvarez deleted successfully' });
    expect((await asAdmin({ method: 'GET', url: `/api/users/${id}` })).statusCode).toBe(404);
    expect((await asAdmin({ method: 'GET', url: `/api/users?search=${body.email}` })).json().data.total).toBe(0);

    const history = (await asAdmin({ method: 'GET', url: `/api/users/${id}/history` })).json().data;
    expect(history.map((h: { from_status: string | null; to_status: string }) => `${h.from_status}→${h.to_status}`)).toEqual([
      'null→active',
      'active→inactive',
      'inactive→deleted',
    ]);
    expect(history.every((h: { actor_name: string; occurred_at: string }) => h.actor_name === 'Alex Morgan' && !Number.isNaN(Date.parse(h.occurred_at)))).toBe(
      true,
    );

    // The address is free again.
    expect((await asAdmin({ method: 'POST', url: '/api/users', payload: newUser({ email: body.email }) })).statusCode).toBe(201);
  });

  it('an admin sets a new password', async () => {
    const body = newUser({ is_active: true });
    const id = (await asAdmin({ method: 'POST', url: '/api/users', payload: body })).json().data.id;
    await asAdmin({ method: 'PUT', url: `/api/users/${id}`, payload: { full_name: body.full_name, email: body.email, password: 'Changed99' } });
    await login(t.app, body.email, 'Changed99');
  });

  it('admins cannot be deleted', async () => {
    const response = await asAdmin({ method: 'DELETE', url: `/api/users/${admin.user.id}` });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Admin users cannot be deleted for security reasons.');
  });

  it('unknown and malformed ids', async () => {
    expect((await asAdmin({ method: 'GET', url: '/api/users/00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    const bad = await asAdmin({ method: 'GET', url: '/api/users/42' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('The id in the address is not valid.');
  });
});

describe('activating and deactivating several users at once', () => {
  const addActive = async () => {
    const body = newUser({ is_active: true, role: 'support', permissions: ['Support.Read'] });
    const response = await asAdmin({ method: 'POST', url: '/api/users', payload: body });
    expect(response.statusCode, response.body).toBe(201);
    return { id: response.json().data.id as string, ...body };
  };
  const bulk = (payload: Record<string, unknown>) => asAdmin({ method: 'POST', url: '/api/users/bulk-status', payload });
  const statusOf = async (id: string) => (await asAdmin({ method: 'GET', url: `/api/users/${id}` })).json().data.is_active;

  it('deactivates every chosen user, ends their sessions and records each change in its history', async () => {
    const [a, b] = [await addActive(), await addActive()];
    const session = await login(t.app, a.email, a.password);
    const response = await bulk({ ids: [a.id, b.id], is_active: false });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ success: true, message: '2 users deactivated.', data: { changed: [a.id, b.id], unchanged: [] } });
    expect(response.json().data.users.map((u: { is_active: boolean }) => u.is_active)).toEqual([false, false]);
    expect(await statusOf(a.id)).toBe(false);
    expect(await statusOf(b.id)).toBe(false);
    expect((await as(t.app, session)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    const history = (await asAdmin({ method: 'GET', url: `/api/users/${a.id}/history` })).json().data;
    expect(history.at(-1)).toMatchObject({ to_status: 'inactive', reason: 'Deactivated with other users', actor_name: 'Alex Morgan' });
  });

  it('activates them again; users already in the wanted state are reported unchanged', async () => {
    const [a, b] = [await addActive(), await addActive()];
    await bulk({ ids: [a.id], is_active: false });
    const response = await bulk({ ids: [a.id, b.id], is_active: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ message: '1 user activated.', data: { changed: [a.id], unchanged: [b.id] } });
    expect(await statusOf(a.id)).toBe(true);
    const again = await bulk({ ids: [a.id, b.id], is_active: true });
    expect(again.json()).toMatchObject({ message: 'No user changed: the chosen users were already activated.', data: { changed: [] } });
  });

  it('changes nobody when one row cannot change, and names that row', async () => {
    const a = await addActive();
    const missing = '00000000-0000-4000-8000-000000000000';
    const response = await bulk({ ids: [a.id, missing], is_active: false });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      success: false,
      message: 'No user was changed: User not found.',
      error: { rows: [{ id: missing, message: 'User not found.' }] },
    });
    expect(await statusOf(a.id)).toBe(true);

    const self = await bulk({ ids: [a.id, admin.user.id], is_active: false });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({
      message: 'No user was changed: You cannot deactivate your own account.',
      error: { code: 'VALIDATION_ERROR', rows: [{ id: admin.user.id }] },
    });
    expect(await statusOf(a.id)).toBe(true);
  });

  it('refuses an empty, oversized or repeated list', async () => {
    expect((await bulk({ ids: [], is_active: false })).json().message).toContain('Choose at least one user.');
    const many = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect((await bulk({ ids: many, is_active: false })).statusCode).toBe(400);
    const a = await addActive();
    const twice = await bulk({ ids: [a.id, a.id], is_active: false });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toContain('A user is listed twice.');
    expect(await statusOf(a.id)).toBe(true);
  });
});

describe('who may call what', () => {
  const someone = demoUserId('jordan.lee@partnerhub.test');
  const adminOnly = [
    { method: 'GET', url: '/api/users' },
    { method: 'GET', url: `/api/users/${someone}` },
    { method: 'GET', url: `/api/users/${someone}/history` },
    { method: 'POST', url: '/api/users', payload: newUser() },
    { method: 'PUT', url: `/api/users/${someone}`, payload: { full_name: 'Jordan Lee', email: 'jordan.lee@partnerhub.test' } },
    { method: 'DELETE', url: `/api/users/${someone}` },
    { method: 'POST', url: '/api/users/bulk-status', payload: { ids: [someone], is_active: false } },
  ] as const;
  const anySignedIn = [
    { method: 'GET', url: '/api/auth/me' },
    { method: 'GET', url: '/api/notifications' },
    { method: 'POST', url: '/api/notifications/read-all' },
  ] as const;
  const others = ['partner', 'distributor', 'manufacturer', 'support', 'partner.user', 'distributor.user'];

  it.each(others)('%s is refused every admin route with 403 INSUFFICIENT_PERMISSIONS and may use its own', async (who) => {
    const session = await login(t.app, `${who}@partnerhub.test`);
    for (const route of adminOnly) {
      const response = await as(t.app, session)({ ...route });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(response.json().error.code).toBe('INSUFFICIENT_PERMISSIONS');
    }
    for (const route of anySignedIn) expect((await as(t.app, session)({ ...route })).statusCode, `${route.method} ${route.url}`).toBe(200);
    expect((await as(t.app, session)({ method: 'GET', url: `/api/users/${someone}` })).statusCode).toBe(403);
  });

  it('signed out, every route of this module answers 401', async () => {
    for (const route of [
      ...adminOnly,
      ...anySignedIn,
      { method: 'POST', url: '/api/auth/logout' },
      { method: 'POST', url: '/api/auth/change-password', payload: { currentPassword: 'a', newPassword: 'bbbbbb' } },
    ] as const) {
      const response = await t.app.inject({ ...route });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(response.json().error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('an inactive user is refused everywhere, even with a token from before', async () => {
    const body = newUser({ is_active: true, role: 'support', permissions: ['Support.Read'] });
    const id = (await asAdmin({ method: 'POST', url: '/api/users', payload: body })).json().data.id;
    const session = await login(t.app, body.email, body.password);
    await asAdmin({ method: 'PUT', url: `/api/users/${id}`, payload: { full_name: body.full_name, email: body.email, is_active: false } });
    for (const route of [...adminOnly, ...anySignedIn]) expect((await as(t.app, session)({ ...route })).statusCode, `${route.method} ${route.url}`).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: body.email, password: body.password } })).statusCode).toBe(403);
  });

  it('the admin may call every route', async () => {
    for (const route of adminOnly.slice(0, 3)) expect((await asAdmin({ ...route })).statusCode).toBe(200);
  });
});
