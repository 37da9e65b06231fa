import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_KINDS, type DashboardKind } from '../../domain/dashboards/quickActions';
import { KPI_DEFINITIONS, KPI_LISTS, kpisOf, mayReadKpi } from '../../domain/dashboards/kpis';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';
import type { KpiCard } from './kpis';

/**
 * Every KPI card of every role's dashboard, on the demo data, against the list it links to: the
 * card's number is the list's total (Content-Range) fetched by the same user with the card's filter.
 * The cards are taken from the KPI definitions, so a new card is checked without touching this file.
 */

const STATS_ROUTE: Readonly<Record<DashboardKind, string>> = {
  manufacturer: '/api/dashboard/manufacturer/stats',
  distributor: '/api/dashboard/distributor/stats',
  partner: '/api/dashboard/stats',
  support: '/api/dashboard/support/stats',
  admin: '/api/dashboard/admin/stats',
};
const ACCOUNT: Readonly<Record<DashboardKind, string>> = {
  manufacturer: 'manufacturer@partnerhub.test',
  distributor: 'distributor@partnerhub.test',
  partner: 'partner@partnerhub.test',
  support: 'support@partnerhub.test',
  admin: 'admin@partnerhub.test',
};

let t: TestPortal;
const sessions = {} as Record<DashboardKind, Session>;

beforeAll(async () => {
  t = await startTestPortal();
  await Promise.all(DASHBOARD_KINDS.map(async (kind) => (sessions[kind] = await login(t.app, ACCOUNT[kind]))));
});
afterAll(async () => t?.close());

async function cardsOf(kind: DashboardKind, session: Session, query = ''): Promise<KpiCard[]> {
  const res = await as(t.app, session)({ method: 'GET', url: `${STATS_ROUTE[kind]}${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.data.kpis as KpiCard[];
}

async function listTotal(session: Session, card: KpiCard): Promise<number> {
  const url = `${card.api}?filter=${encodeURIComponent(JSON.stringify(card.filter))}&range=${encodeURIComponent('[0,0]')}`;
  const res = await as(t.app, session)({ method: 'GET', url });
  expect(res.statusCode, `${card.id}: ${url} ${res.body}`).toBe(200);
  const range = String(res.headers['content-range'] ?? '');
  expect(range, `${card.id}: no Content-Range`).toMatch(/\/\d+$/);
  return Number(range.split('/')[1]);
}

describe('KPI cards equal the totals of the lists they link to', () => {
  it('defines every card once, for a list the web can open', () => {
    const ids = KPI_DEFINITIONS.map((k) => k.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const kind of DASHBOARD_KINDS) expect(kpisOf(kind).length, kind).toBeGreaterThan(0);
  });

  for (const kind of DASHBOARD_KINDS) {
    it(`${kind} dashboard: each card's number is its list's total for the same user`, async () => {
      const session = sessions[kind];
      const cards = await cardsOf(kind, session);
      const me = (await as(t.app, session)({ method: 'GET', url: '/api/auth/me' })).json().data;
      const principal = { role: me.role ?? me.user?.role, permissions: me.permissions ?? me.user?.permissions ?? [] };
      const expected = kpisOf(kind)
        .filter((k) => mayReadKpi(principal, k))
        .map((k) => k.id);
      expect(cards.map((c) => c.id)).toEqual(expected);
      for (const card of cards) {
        expect(await listTotal(session, card), `${card.id} (${card.label})`).toBe(card.count);
        expect(card.api).toBe(KPI_LISTS[card.list].path);
        expect(decodeURIComponent(card.link)).toContain(JSON.stringify(card.filter));
      }
    });
  }

  it('counts something on the demo data (the comparison is not between empty lists)', async () => {
    const all = (await Promise.all(DASHBOARD_KINDS.map((kind) => cardsOf(kind, sessions[kind])))).flat();
    expect(all.filter((c) => c.count > 0).length).toBeGreaterThan(all.length / 2);
  });

  it('cards that follow the date range count the chosen range, and still agree with their list', async () => {
    for (const query of ['?range=year', '?range=7d', '?range=custom&from=2020-01-01&to=2030-12-31']) {
      const cards = await cardsOf('admin', sessions.admin, query);
      const orders = cards.find((c) => c.id === 'admin.orders')!;
      expect(orders.filter).toHaveProperty('date_gte');
      expect(await listTotal(sessions.admin, orders)).toBe(orders.count);
    }
    const wide = (await cardsOf('admin', sessions.admin, '?range=custom&from=2000-01-01&to=2099-12-31')).find((c) => c.id === 'admin.orders')!;
    const all = Number(
      String((await as(t.app, sessions.admin)({ method: 'GET', url: `/api/orders?range=${encodeURIComponent('[0,0]')}` })).headers['content-range']).split(
        '/',
      )[1],
    );
    expect(wide.count).toBe(all);
  });

  it('refuses a range that is not one', async () => {
    for (const query of ['?range=decade', '?range=custom&from=2024-02-01', '?range=custom&from=2024-03-01&to=2024-02-01', '?range=month&from=2024-01-01']) {
      const res = await as(t.app, sessions.admin)({ method: 'GET', url: `${STATS_ROUTE.admin}${query}` });
      expect(res.statusCode, query).toBe(400);
    }
  });

  it("an administrator looking at a partner's dashboard gets that organisation's cards, linked to lists narrowed to it", async () => {
    const partnerId = (await as(t.app, sessions.partner)({ method: 'GET', url: '/api/auth/me' })).json().data;
    const id = partnerId.id ?? partnerId.user?.id;
    const own = await cardsOf('partner', sessions.partner);
    const viewed = await cardsOf('partner', sessions.admin, `?user_id=${id}`);
    for (const card of viewed) {
      expect(card.filter).toHaveProperty('organisation_id');
      expect(await listTotal(sessions.admin, card), card.id).toBe(card.count);
      expect(card.count, card.id).toBe(own.find((c) => c.id === card.id)!.count);
    }
  });
});
