import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';
import { documentedRoutes, fillPath } from '../testing/routes';

/**
 * JSON refuses text that is not valid Unicode; multipart must too, on every route that takes it,
 * instead of storing U+FFFD in place of the broken bytes.
 */

let t: TestPortal;
let admin: Session;
let onboardingToken: string;

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  admin = await login(t.app, 'admin@partnerhub.test');
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/user/register/',
    payload: { email: 'broken.text@example.test', password: 'Secret123', company_name: 'Broken Text Ltd' },
  });
  onboardingToken = registered.json().onboardingToken;
});
afterAll(() => t?.close());

const eventCount = async () => (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0].n;

/** "Fj" + a cut two-byte sequence + bytes that are never UTF-8 + "ord". */
const BROKEN = Buffer.from([0x46, 0x6a, 0xc3, 0x28, 0xff, 0xfe, 0x6f, 0x72, 0x64]);

function brokenForm(field: string): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----partnerhub-broken-text';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n`),
    BROKEN,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('multipart text that is not valid UTF-8', () => {
  it('is refused with 400 naming the field by every multipart route, and changes nothing', async () => {
    const products = (
      await t.app.inject({ method: 'GET', url: '/api/products?range=[0,0]', headers: { authorization: `Bearer ${admin.accessToken}` } })
    ).json();
    const routes = (await documentedRoutes(t.app)).filter((route) => route.multipart);
    // Routes on an organisation's record look it up before reading the body: they get a record that exists.
    const firstId = async (table: string) => (await t.db.pool.query<{ id: string }>(`SELECT id FROM read.${table} ORDER BY id LIMIT 1`)).rows[0].id;
    const recordOf: Record<string, string> = {
      '/api/fund-requests/:id': await firstId('fund_requests'),
      '/api/fund-claims/:id/proof': await firstId('fund_claims'),
    };
    expect(routes.length).toBeGreaterThanOrEqual(6);
    for (const route of routes) {
      const field = 'description';
      const token = 'applicant' in route.access ? onboardingToken : admin.accessToken;
      const before = await eventCount();
      const { payload, headers } = brokenForm(field);
      const response = await t.app.inject({
        method: route.method as 'POST',
        url: fillPath(route, { id: recordOf[route.url] ?? products[0].id }),
        payload,
        headers: { ...headers, authorization: `Bearer ${token}` },
      });
      const label = `${route.method} ${route.url}`;
      expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
      expect(response.json().error.details, label).toEqual([{ field, message: 'Remove the NUL character or broken Unicode sequence.' }]);
      expect(await eventCount(), label).toBe(before);
    }
  });
});
