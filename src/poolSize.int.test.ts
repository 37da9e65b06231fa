import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config';
import { as, login } from './testing/api';
import { startTestPortal, type TestPortal } from './testing/portal';

describe('DATABASE_POOL_SIZE', () => {
  it('is 20 unless set, and must be a whole number from 1', () => {
    expect(loadConfig({}).DATABASE_POOL_SIZE).toBe(20);
    expect(loadConfig({ DATABASE_POOL_SIZE: '12' }).DATABASE_POOL_SIZE).toBe(12);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: 'many' })).toThrow(/DATABASE_POOL_SIZE/);
  });

  describe('a portal with three connections', () => {
    let t: TestPortal;
    beforeAll(async () => {
      t = await startTestPortal({ processes: ['api', 'projector'], env: { DATABASE_POOL_SIZE: '3' } });
    }, 120_000);
    afterAll(async () => {
      await t?.close();
    });

    it('answers many requests at once, each waiting its turn for one of them', async () => {
      const admin = as(t.app, await login(t.app, 'admin@partnerhub.test'));
      const pool = t.portal.services.pool;
      let most = 0;
      const watch = setInterval(() => (most = Math.max(most, pool.totalCount)), 1);
      const pages = ['/api/orders?page=1&limit=5', '/api/projects?range=[0,4]', '/api/tickets?range=[0,4]', '/api/dashboard/admin/stats'];
      const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => admin({ method: 'GET', url: pages[i % pages.length] })));
      clearInterval(watch);
      most = Math.max(most, pool.totalCount);
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(3);
    });
  });
});
