import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

/** Bodies nested deeper than anything the API takes are refused before they cost anything. */
let t: TestPortal;
let admin: Session;
beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  admin = await login(t.app, 'admin@partnerhub.test');
});
afterAll(() => t?.close());

const nested = (depth: number, inner = '') => '['.repeat(depth) + inner + ']'.repeat(depth);
const post = (url: string, payload: string, session?: Session) =>
  as(t.app, session)({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });

describe('nesting depth', () => {
  it('answers 400, not 500, to ten thousand nested arrays sent to sign-in', async () => {
    const started = Date.now();
    const response = await post('/api/auth/login', nested(10_000));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error: { code: 'TOO_DEEPLY_NESTED' } });
    expect(response.json().message).toBe('The request body is nested too deeply: at most 32 levels of objects and arrays are accepted.');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses depth 33 and lets depth 32 through to the route', async () => {
    expect((await post('/api/auth/login', nested(33))).json().error.code).toBe('TOO_DEEPLY_NESTED');
    const objects = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
    expect((await post('/api/auth/login', objects(33))).json().error.code).toBe('TOO_DEEPLY_NESTED');
    // At 32 levels the body is read; the route then says what is wrong with it.
    const at32 = await post('/api/auth/login', nested(32));
    expect(at32.statusCode).toBe(400);
    expect(at32.json().error.code).toBe('VALIDATION_ERROR');
    const objectAt32 = await post('/api/auth/login', objects(32));
    expect(objectAt32.json().error.code).toBe('VALIDATION_ERROR');
  });

  it('counts brackets inside strings as text, not as nesting', async () => {
    const response = await post('/api/auth/login', JSON.stringify({ email: `${'['.repeat(100)}"{{{@x.test`, password: '{'.repeat(150) }));
    expect(response.statusCode).toBe(401);
  });

  it('finds a NUL character at the deepest level a body may have', async () => {
    const deep = JSON.stringify(Array.from({ length: 30 }).reduce<unknown>((inner) => ({ a: inner }), { name: 'x\u0000' }));
    const response = await post('/api/projects/milestones', deep, admin);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details[0].field).toBe(`${'a.'.repeat(30)}name`);
  });
});

describe('the per-address limit', () => {
  it('counts every request before its body is read, signed in or not, valid or not', async () => {
    const limited = await startTestPortal({ processes: ['api', 'projector'], env: { API_REQUESTS_PER_ADDRESS_PER_MINUTE: '6' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (await limited.app.inject({ method: 'POST', url: '/api/auth/login', payload: nested(10_000), headers: { 'content-type': 'application/json' } }))
            .statusCode,
        );
      for (let i = 0; i < 2; i++)
        statuses.push(
          (await limited.app.inject({ method: 'POST', url: '/api/auth/login', payload: '{"email":', headers: { 'content-type': 'application/json' } }))
            .statusCode,
        );
      statuses.push((await limited.app.inject({ method: 'GET', url: '/api/orders' })).statusCode);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 401]);
      const refused = await limited.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: nested(10_000),
        headers: { 'content-type': 'application/json' },
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // The address is spent for signed-in requests too.
      const other = await limited.app.inject({ method: 'GET', url: '/api/orders', headers: { authorization: `Bearer ${admin.accessToken}` } });
      expect(other.statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
