/**
 * A list's total is the same on every page, a page past the last one included: there the page has no
 * row to carry the count, and the total is counted on its own (projections/paging.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
const sessions = new Map<string, Session>();

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  for (const name of ['admin', 'partner']) sessions.set(name, await login(t.app, `${name}@partnerhub.test`));
});
afterAll(() => t?.close());

/** The first `total` in an answer, wherever the list shape puts it (data.total or data.pagination.total). */
function totalOf(value: unknown): number | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.total === 'number') return record.total;
  for (const inner of Object.values(record)) {
    const found = totalOf(inner);
    if (found !== undefined) return found;
  }
  return undefined;
}

const LISTS: Array<[caller: string, path: string]> = [
  ['admin', '/api/users'],
  ['admin', '/api/products'],
  ['admin', '/api/tickets'],
  ['admin', '/api/rebates/admin/all'],
  ['admin', '/api/leads'],
  ['admin', '/api/funds'],
  ['admin', '/api/fund-requests'],
  ['admin', '/api/fund-claims'],
  ['admin', '/api/webhooks'],
  ['admin', '/api/resources'],
  ['partner', '/api/partner/management/sub-users'],
  ['admin', '/api/projects'],
  ['admin', '/api/courses'],
  ['admin', '/api/certifications'],
  ['admin', '/api/learning/enrolments'],
  ['admin', '/api/learning/assignments'],
];

describe('list totals', () => {
  it.each(LISTS)('%s: %s answers the same total on its first page and on a page past the last', async (caller, path) => {
    const get = async (query: string) => {
      const response = await as(t.app, sessions.get(caller)!)({ method: 'GET', url: `${path}?${query}` });
      expect(response.statusCode, response.body).toBe(200);
      return totalOf(response.json());
    };
    const total = await get('page=1&limit=1');
    expect(total).toBeGreaterThan(0);
    expect(await get(`page=${total! + 3}&limit=1`)).toBe(total);
  });
});
