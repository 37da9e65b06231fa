import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, login } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';
import { DEMO_USERS } from './identity';
import { DEMO_APPLICANTS } from './partners';
import { DEMO_MEMBERS } from './team';
import { seed } from './index';
import { demoProjectId } from './projects';
import { projects } from '../../domain/projects/projects';

const DAY_MS = 86_400_000;
let t: TestPortal;

beforeAll(async () => {
  t = await startTestPortal({ env: { DEMO_HISTORY_DAYS: '182' } });
}, 600_000);
afterAll(() => t?.close());

const rows = async <T>(sql: string, values: unknown[] = []) => (await t.portal.services.pool.query(sql, values)).rows as T[];

describe('the demo world with six months of history', () => {
  it('links demo deals to marketing activities, so a paid activity has a real return from delivered orders', async () => {
    const admin = await login(t.app, 'admin@partnerhub.test');
    const answer = await as(t.app, admin)({ method: 'GET', url: '/api/fund-requests?limit=100' });
    const withDeals = (answer.json().data.requests as Array<{ deals: number; revenue: number; paid: number; roi: number | null }>).filter((r) => r.deals > 0);
    expect(withDeals.length).toBeGreaterThanOrEqual(2);
    const returned = withDeals.find((r) => r.roi !== null)!;
    expect(returned.revenue).toBeGreaterThan(0);
    expect(returned.roi).toBe(Math.round((returned.revenue / returned.paid) * 100) / 100);
  });

  it("the admin's order list spans six months, with orders in every week since the first partners joined", async () => {
    const admin = await login(t.app, 'admin@partnerhub.test');
    const oldestFirst = await as(
      t.app,
      admin,
    )({ method: 'GET', url: `/api/orders?sort=${encodeURIComponent('["created_at","ASC"]')}&range=${encodeURIComponent('[0,0]')}` });
    expect(oldestFirst.statusCode).toBe(200);
    const total = Number(String(oldestFirst.headers['content-range']).split('/')[1]);
    const oldest = Date.parse((oldestFirst.json() as Array<{ created_at: string }>)[0].created_at);
    expect(Date.now() - oldest).toBeGreaterThan(170 * DAY_MS);
    expect(total).toBeGreaterThan(60);

    const weeks = await rows<{ week: string; orders: string }>(
      `SELECT date_trunc('week', created_at) AS week, count(*) AS orders FROM read.orders WHERE created_at > now() - interval '175 days' GROUP BY 1`,
    );
    expect(weeks.length).toBeGreaterThanOrEqual(24);
    // Old orders have run their course; only recent ones are still on their way.
    const stale = await rows(`SELECT order_number FROM read.orders WHERE created_at < now() - interval '30 days' AND status NOT IN ('delivered', 'cancelled')`);
    expect(stale).toEqual([]);
    const statusesByAge = await rows<{ status: string }>(`SELECT DISTINCT status FROM read.orders WHERE created_at > now() - interval '10 days'`);
    expect(statusesByAge.map((row) => row.status)).toEqual(expect.arrayContaining(['pending', 'approved', 'shipped']));
  });

  it('organisations joined over time, and every account is a demo account', async () => {
    const joined = await rows<{ company_name: string; approved_at: Date }>(
      `SELECT u.company_name, min(h.occurred_at) AS approved_at FROM read.status_history h JOIN read.users u ON u.id::text = h.record_id::text
        WHERE h.record_type = 'partners' AND h.to_status = 'approved' GROUP BY 1 ORDER BY 2`,
    );
    expect(joined.length).toBeGreaterThanOrEqual(4);
    expect(joined[joined.length - 1].approved_at.getTime() - joined[0].approved_at.getTime()).toBeGreaterThan(90 * DAY_MS);
    const known = new Set([
      ...DEMO_USERS.map((user) => user.email),
      ...DEMO_APPLICANTS.map((applicant) => applicant.email),
      ...DEMO_MEMBERS.map((member) => member.email),
    ]);
    const accounts = await rows<{ email: string }>('SELECT email FROM read.users');
    expect(accounts.filter((account) => !known.has(account.email))).toEqual([]);
  });

  it('team members joined on their own days, weeks or months ago, not when the seed ran', async () => {
    const members = await rows<{ email: string; created_at: Date }>('SELECT email, created_at FROM read.users WHERE parent_user_id IS NOT NULL');
    expect(members.length).toBe(DEMO_MEMBERS.length);
    const lena = members.find((member) => member.email === 'partner.user@partnerhub.test')!;
    expect(Date.now() - lena.created_at.getTime()).toBeGreaterThan(150 * DAY_MS);
    expect(new Set(members.map((member) => member.created_at.toISOString().slice(0, 10))).size).toBeGreaterThanOrEqual(8);
    // A registration that lapsed months ago reads as expired then, though the workers recorded it after the seed.
    await expect
      .poll(async () => (await rows<{ n: string }>("SELECT count(*) AS n FROM events WHERE type = 'ProjectRegistrationExpired.v1'"))[0].n, { timeout: 30_000 })
      .not.toBe('0');
    const expired = await rows<{ expires_at: string; occurred_at: string; last_before: string | null }>(
      `SELECT e.data->>'expiresAt' AS expires_at, e.metadata->>'occurredAt' AS occurred_at,
              (SELECT max(b.metadata->>'occurredAt') FROM events b WHERE b.stream_id = e.stream_id AND b.revision < e.revision) AS last_before
         FROM events e WHERE e.type = 'ProjectRegistrationExpired.v1'`,
    );
    for (const row of expired) expect(Date.parse(row.occurred_at)).toBe(Math.max(Date.parse(row.expires_at), Date.parse(row.last_before ?? row.expires_at)));
  });

  it('tickets were opened and resolved, rebates claimed per quarter, projects registered, extended and expired', async () => {
    const ticketMonths = await rows<{ month: string }>(
      `SELECT DISTINCT to_char(created_at, 'YYYY-MM') AS month FROM read.tickets WHERE status IN ('Resolved', 'Closed')`,
    );
    expect(ticketMonths.length).toBeGreaterThanOrEqual(5);
    const quarters = await rows<{ quarter: string }>(`SELECT DISTINCT to_char(purchase_date, 'YYYY-Q') AS quarter FROM read.rebates`);
    expect(quarters.length).toBeGreaterThanOrEqual(3);
    // The lapsed registration is expired by the worker's sweep after the seed, not by the seed itself: wait for it.
    const statuses = async () =>
      (await rows<{ registration_status: string }>('SELECT DISTINCT registration_status FROM read.projects')).map((row) => row.registration_status);
    await expect.poll(statuses, { timeout: 60_000, interval: 500 }).toEqual(expect.arrayContaining(['approved', 'expired', 'pending', 'rejected']));
    const extendedDeal = await t.portal.services.store.readStream(projects.streamId(demoProjectId('history-2')));
    expect(extendedDeal.map((event) => event.type)).toEqual(expect.arrayContaining(['ProjectExtensionRequested.v1', 'ProjectExtensionApproved.v1']));
  });

  it('seeding again adds nothing', async () => {
    const lines: string[] = [];
    await seed(t.portal.services, (line) => lines.push(line));
    const createdAgain = lines.filter((line) => /: [1-9]\d* of \d+/.test(line));
    expect(createdAgain).toEqual([]);
  });
});

describe('rebuilding the read models from six months of history', () => {
  /** Every row of every read model and projected secret, in a stable order. */
  async function everyRow(): Promise<Record<string, unknown[]>> {
    const tables = await rows<{ name: string }>(
      `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
       WHERE table_schema IN ('read', 'secret') AND table_type = 'BASE TABLE' AND table_name <> 'checkpoints' ORDER BY 1`,
    );
    const all: Record<string, unknown[]> = {};
    for (const { name } of tables) all[name] = await rows(`SELECT * FROM ${name} t ORDER BY t::text`);
    return all;
  }

  /** Waits until the workers have stopped appending (notifications of the history, expiry sweeps) and the projector has it all. */
  async function quietLog() {
    const { store, watcher } = t.portal.services;
    let head = await store.headPosition();
    for (let quietFor = 0; quietFor < 3;) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const now = await store.headPosition();
      quietFor =
        JSON.stringify(now, (_, v) => (typeof v === 'bigint' ? String(v) : v)) === JSON.stringify(head, (_, v) => (typeof v === 'bigint' ? String(v) : v))
          ? quietFor + 1
          : 0;
      head = now;
    }
    expect(await watcher.waitFor(head, 60_000)).toBe(true);
  }

  it('a rebuild in many small batches, the audit log and feed a batch behind the record models, writes what the live projector wrote', async () => {
    await quietLog();
    const live = await everyRow();
    const { rebuildProjections } = await import('../../projections/rebuild');
    const { readModels } = await import('../../projections');
    await rebuildProjections(t.portal.services.store, t.portal.services.pool, readModels, { batchSize: 97 });
    const rebuilt = await everyRow();
    expect(Object.keys(rebuilt)).toEqual(Object.keys(live));
    for (const table of Object.keys(live)) expect({ table, rows: rebuilt[table] }).toEqual({ table, rows: live[table] });
    expect(live['read.activity_project_titles'].length).toBeGreaterThan(0);
  }, 300_000);
});
