import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

/** What protects the portal from its callers: headers, authentication before validation, rate limits, load shedding. */
let t: TestPortal;
let admin: Session;
beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'], env: { API_REQUESTS_PER_MINUTE: '40' } });
  admin = await login(t.app, 'admin@partnerhub.test');
});
afterAll(() => t?.close());

describe('security headers', () => {
  it('come with every answer of the API, errors included', async () => {
    for (const url of ['/api/auth/me', '/api/orders', '/api/nothing-here']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});

describe('authentication comes before validation', () => {
  it('tells an anonymous caller to sign in, not which fields are wrong', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/users', payload: { full_name: '', email: 'not-an-email', role: 'nobody' } });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.details).toBeUndefined();
    expect(response.body).not.toContain('email');
  });

  it('tells a caller without the permission so, before reading the body', async () => {
    const partner = await login(t.app, 'partner@partnerhub.test');
    const response = await as(t.app, partner)({ method: 'POST', url: '/api/users', payload: { full_name: '' } });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('INSUFFICIENT_PERMISSIONS');
  });
});

describe('order numbers', () => {
  it('are found whatever their case', async () => {
    const [order] = (await as(t.app, admin)({ method: 'GET', url: '/api/orders?range=[0,0]' })).json();
    const lower = await as(t.app, admin)({ method: 'GET', url: `/api/orders/${order.order_number.toLowerCase()}` });
    expect(lower.statusCode).toBe(200);
    expect(lower.json().data.id).toBe(order.id);
  });
});

describe('the per-user API limit', () => {
  it('answers 429 with Retry-After to the user who exceeds it, and not to others', async () => {
    const busy = await login(t.app, 'support@partnerhub.test');
    const statuses: number[] = [];
    let limited;
    for (let i = 0; i < 45 && !limited; i++) {
      const response = await as(t.app, busy)({ method: 'GET', url: '/api/auth/me' });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) limited = response;
    }
    expect(limited, `statuses: ${statuses.join(',')}`).toBeDefined();
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited!.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    expect(limited!.json().message).toMatch(/^Too many requests\. Please wait \d+ seconds and try again\.$/);
    const other = await login(t.app, 'manufacturer@partnerhub.test');
    expect((await as(t.app, other)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
  });
});

describe('load shedding', () => {
  it('answers 503 with Retry-After while the event loop lags, then serves again', async () => {
    const shedding = await startTestPortal({ processes: ['api', 'projector'], env: { MAX_EVENT_LOOP_DELAY_MS: '50' } });
    try {
      let shed;
      for (let attempt = 0; attempt < 5 && !shed; attempt++) {
        const until = Date.now() + 1500;
        while (Date.now() < until) {
          // Keep the event loop busy, as a burst of CPU-bound work would.
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
        const response = await shedding.app.inject({ method: 'GET', url: '/api/auth/me' });
        if (response.statusCode === 503) shed = response;
      }
      expect(shed).toBeDefined();
      expect(shed!.headers['retry-after']).toBe('5');
      expect(shed!.json()).toMatchObject({ success: false, error: { code: 'OVERLOADED' } });
      // Once the loop is calm again, requests are served.
      let served = false;
      for (let i = 0; i < 30 && !served; i++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        served = (await shedding.app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode === 401;
      }
      expect(served).toBe(true);
    } finally {
      await shedding.close();
    }
  }, 60_000);
});
