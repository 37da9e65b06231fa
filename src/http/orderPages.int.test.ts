/**
 * Orders at scale: keyset pages (`after` = the previous page's `nextCursor`) give the same rows as
 * OFFSET pages, totals come from the pre-aggregated statistics (or the orders per placing day) and match a
 * count of the rows, and the statistics follow status changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
let admin: Session;
let partner: Session;

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  [admin, partner] = await Promise.all(['admin', 'partner'].map((name) => login(t.app, `${name}@partnerhub.test`)));
});
afterAll(() => t?.close());

const get = (session: Session, url: string) => as(t.app, session)({ method: 'GET', url });

describe('order pages', () => {
  it('walks the newest-first list by cursor exactly as by page number', async () => {
    const all = (await get(admin, '/api/orders?page=1&limit=100')).json().data;
    expect(all.total).toBeGreaterThan(4);
    expect(all.orders.length).toBe(Math.min(100, all.total));
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 1; page <= 3; page++) {
      const byCursor = (await get(admin, `/api/orders?limit=2${after ? `&after=${after}` : ''}`)).json().data;
      const byOffset = (await get(admin, `/api/orders?page=${page}&limit=2`)).json().data;
      expect(byCursor.orders.map((o: { id: string }) => o.id)).toEqual(byOffset.orders.map((o: { id: string }) => o.id));
      expect(byCursor.total).toBe(all.total);
      seen.push(...byCursor.orders.map((o: { id: string }) => o.id));
      after = byCursor.nextCursor;
      expect(after).toEqual(expect.any(String));
    }
    expect(seen).toEqual(all.orders.slice(0, 6).map((o: { id: string }) => o.id));
  });

  it('refuses a cursor it did not make', async () => {
    const response = await get(admin, `/api/orders?after=${Buffer.from('["yesterday","x"]').toString('base64url')}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([{ field: 'after', message: 'After must be a cursor from a previous page.' }]);
  });

  it('a page past the end is empty and still answers the total, with or without a status', async () => {
    for (const [session, query] of [
      [admin, ''],
      [admin, '&status=shipped'],
      [partner, ''],
      [partner, '&status=pending'],
      [admin, '&search=ORD'],
    ] as const) {
      const first = await get(session, `/api/orders?page=1&limit=100${query}`);
      expect(first.statusCode, query).toBe(200);
      const beyond = await get(session, `/api/orders?page=40&limit=100${query}`);
      expect(beyond.statusCode, query).toBe(200);
      expect(beyond.json().data.orders).toEqual([]);
      expect(beyond.json().data.total).toBe(first.json().data.total);
    }
  });

  it('totals per scope and status match the rows, before and after a status change', async () => {
    const check = async () => {
      for (const [session, query] of [
        [admin, ''],
        [admin, '&status=pending'],
        [partner, ''],
        [partner, '&status=delivered'],
      ] as const) {
        const listed = (await get(session, `/api/orders?page=1&limit=100${query}`)).json().data;
        expect(listed.total).toBe(listed.orders.length);
      }
      const stats = (await get(admin, '/api/orders/stats')).json().data;
      const rows = (await get(admin, '/api/orders?page=1&limit=100')).json().data.orders as Array<{ status: string }>;
      expect(stats.totalOrders).toBe(rows.length);
      expect(stats.pendingOrders).toBe(rows.filter((o) => o.status === 'pending' || o.status === 'processing').length);
      expect(stats.deliveredOrders).toBe(rows.filter((o) => o.status === 'delivered').length);
    };
    await check();
    const pending = (await get(admin, '/api/orders?status=pending&limit=1')).json().data.orders[0];
    expect((await as(t.app, admin)({ method: 'PUT', url: `/api/orders/admin/${pending.id}/status`, payload: { status: 'approved' } })).statusCode).toBe(200);
    await check();
  });

  it('a list narrowed only by the days it was placed on counts the same orders as its rows, at every boundary', async () => {
    const all = (await get(admin, '/api/orders?page=1&limit=100')).json().data.orders as Array<{ created_at: string; organisation_id: string }>;
    const days = [...new Set(all.map((o) => o.created_at.slice(0, 10)))].sort();
    expect(days.length).toBeGreaterThan(0);
    const organisation = all[0].organisation_id;
    const shift = (day: string, by: number) => new Date(Date.parse(`${day}T00:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10);
    const windows = days.flatMap((day): Array<Record<string, string>> => [
      { date_gte: day, date_lte: day },
      { date_gte: day },
      { date_lte: day },
      { date_gte: shift(day, 1), date_lte: shift(day, 1) },
      { date_gte: shift(day, -1), date_lte: shift(day, -1) },
    ]);
    for (const window of windows) {
      for (const [session, extra] of [
        [admin, {}],
        [admin, { organisation_id: organisation }],
        [partner, {}],
      ] as const) {
        const filter = new URLSearchParams({ ...window, ...extra }).toString();
        const label = `${session === admin ? 'admin' : 'partner'} ${JSON.stringify({ ...window, ...extra })}`;
        const answer = await get(session, `/api/orders?page=1&limit=100&${filter}`);
        expect(answer.statusCode, `${label}: ${answer.body}`).toBe(200);
        const listed = answer.json().data;
        expect(listed.total, label).toBe(listed.orders.length);
        // Past the last page the total is counted on its own, from the same source.
        const beyond = (await get(session, `/api/orders?page=40&limit=100&${filter}`)).json().data;
        expect(beyond.total, label).toBe(listed.total);
      }
    }
  });
});
