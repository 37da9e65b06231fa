import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startPortal, type Portal } from '../portal';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

/**
 * Two API processes on one database and Redis: each remembers what it read about a caller, and a
 * session ended (or an account changed) through one is refused (or seen) by the other within a second.
 */
let t: TestPortal;
let other: Portal;
let b: FastifyInstance;
beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  other = await startPortal(t.portal.services.config, { processes: ['api'], listen: false });
  b = other.app!;
});
afterAll(async () => {
  await other?.stop();
  await t?.close();
});

const me = (app: FastifyInstance, session: Session) => as(app, session)({ method: 'GET', url: '/api/auth/me' });

/** Polls until `check` holds, for at most a second; returns how long that took. */
async function withinASecond(check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > 1000) throw new Error('not within a second');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Both processes have served this session, so both may have remembered it. */
async function servedByBoth(session: Session): Promise<void> {
  for (const app of [t.app, b, t.app, b]) expect((await me(app, session)).statusCode).toBe(200);
}

const refusedBy = (app: FastifyInstance, session: Session, code: string) => async () => {
  const answer = await me(app, session);
  return answer.statusCode === 401 && answer.json().error.code === code;
};

describe('a session ended on one API process', () => {
  it('sign-out: the other process refuses the token within a second', async () => {
    const session = await login(t.app, 'manufacturer@partnerhub.test');
    await servedByBoth(session);
    expect((await as(t.app, session)({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(200);
    expect((await me(t.app, session)).statusCode).toBe(401);
    await withinASecond(refusedBy(b, session, 'SESSION_ENDED'));
  });

  it('a reused refresh token: the other process refuses the session within a second', async () => {
    const session = await login(t.app, 'support@partnerhub.test');
    const rotated = (await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: session.refreshToken } })).json() as Session;
    await servedByBoth(rotated);
    const reuse = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: session.refreshToken } });
    expect(reuse.json().error.code).toBe('REFRESH_TOKEN_REUSED');
    await withinASecond(refusedBy(b, rotated, 'SESSION_ENDED'));
  });

  it('a password change: the other sessions are refused by the other process within a second, the changing one still works', async () => {
    const changing = await login(t.app, 'distributor@partnerhub.test');
    const elsewhere = await login(b, 'distributor@partnerhub.test');
    await servedByBoth(changing);
    await servedByBoth(elsewhere);
    const changed = await as(
      t.app,
      changing,
    )({ method: 'POST', url: '/api/auth/change-password', payload: { currentPassword: 'Demo2026!', newPassword: 'Another2026!' } });
    expect(changed.statusCode).toBe(200);
    await withinASecond(refusedBy(b, elsewhere, 'SESSION_ENDED'));
    expect((await me(b, changing)).statusCode).toBe(200);
  });

  it('a deactivated account is refused by the other process within a second, and its new permissions show on the next request', async () => {
    const admin = await login(t.app, 'admin@partnerhub.test');
    const partner = await login(t.app, 'partner@partnerhub.test');
    await servedByBoth(partner);
    const account = partner.user as Session['user'] & { email: string; full_name: string };

    const narrowed = await as(
      t.app,
      admin,
    )({ method: 'PUT', url: `/api/users/${account.id}`, payload: { full_name: account.full_name, email: account.email, permissions: ['Orders.Browse'] } });
    expect(narrowed.statusCode).toBe(200);
    // The process that made the change has already heard of it when the change is answered.
    const next = await me(t.app, partner);
    expect(next.headers['x-permissions-changed']).toBe('true');
    expect(JSON.parse(String(next.headers['x-current-permissions']))).toEqual(['Orders.Browse']);
    await withinASecond(async () => (await me(b, partner)).headers['x-permissions-changed'] === 'true');

    const deactivated = await as(
      t.app,
      admin,
    )({ method: 'PUT', url: `/api/users/${account.id}`, payload: { full_name: account.full_name, email: account.email, is_active: false } });
    expect(deactivated.statusCode).toBe(200);
    await withinASecond(async () => (await me(b, partner)).statusCode === 401);
    expect((await me(t.app, partner)).statusCode).toBe(401);
  });
});

describe('read answers an API process keeps', () => {
  const pendingOrders = async (admin: Session) =>
    ((await as(t.app, admin)({ method: 'GET', url: '/api/orders?limit=100' })).json().data.orders as Array<{ id: string; status: string }>).filter(
      (order) => order.status === 'pending',
    );
  const approve = (admin: Session, id: string) => as(t.app, admin)({ method: 'PUT', url: `/api/orders/admin/${id}/status`, payload: { status: 'approved' } });

  it('the process that made a change answers with it on the very next request', async () => {
    const admin = await login(t.app, 'admin@partnerhub.test');
    const [order] = await pendingOrders(admin);
    const read = () => as(t.app, admin)({ method: 'GET', url: `/api/orders/${order.id}` });
    const first = await read();
    expect((await read()).body).toBe(first.body);
    expect(first.json().data.status).toBe('pending');
    expect((await approve(admin, order.id)).statusCode).toBe(200);
    expect((await read()).json().data.status).toBe('approved');
  });

  it('another process answers with the change within a second', async () => {
    const admin = await login(t.app, 'admin@partnerhub.test');
    const [order] = await pendingOrders(admin);
    const readOnB = () => as(b, admin)({ method: 'GET', url: `/api/orders/${order.id}` });
    expect((await readOnB()).json().data.status).toBe('pending');
    expect((await readOnB()).json().data.status).toBe('pending');
    expect((await approve(admin, order.id)).statusCode).toBe(200);
    await withinASecond(async () => (await readOnB()).json().data.status === 'approved');
  });

  it('callers of one URL get their own answers, and a react-admin list keeps its Content-Range', async () => {
    const admin = await login(t.app, 'admin@partnerhub.test');
    // A member of another organisation (the demo partner was deactivated above).
    const partner = await login(t.app, 'distributor.user@partnerhub.test');
    const url = '/api/orders?range=[0,4]&sort=["created_at","DESC"]';
    const asAdmin = await as(t.app, admin)({ method: 'GET', url });
    const asAdminAgain = await as(t.app, admin)({ method: 'GET', url });
    const asPartner = await as(t.app, partner)({ method: 'GET', url });
    expect(asAdminAgain.body).toBe(asAdmin.body);
    expect(asAdminAgain.headers['content-range']).toBe(asAdmin.headers['content-range']);
    expect(asAdminAgain.headers['content-type']).toBe('application/json; charset=utf-8');
    const total = (answer: { headers: Record<string, unknown> }) => Number(String(answer.headers['content-range']).split('/')[1]);
    expect(total(asPartner)).toBeLessThan(total(asAdmin));
    expect(new Set((asPartner.json() as Array<{ organisation_id: string }>).map((order) => order.organisation_id)).size).toBeLessThanOrEqual(1);
  });
});
