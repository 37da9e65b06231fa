/**
 * Section "scale": the orders lists, search, order statistics and dashboards at 10,000 orders and at
 * BENCH_SCALE_ORDERS (default 1,000,000), and the rate of a full projection rebuild at each size.
 *
 * On its own database: the demo data is seeded, realistic order histories are appended to the event
 * log (load-tests/scale/generateOrders.ts), every read model is rebuilt from the whole log (timed),
 * and then each route of SCALE_ROUTES is called by a few concurrent clients. The larger size appends
 * the difference to the smaller one. Goals: p95 at the larger size at most 1.5 × the p95 at 10,000,
 * and a rebuild of at least 10,000 events per second.
 */
import { performance } from 'node:perf_hooks';
import { createPool } from '../../platform/db';
import { createEventStore } from '../../platform/eventstore';
import { readModels } from '../../projections';
import { rebuildProjections } from '../../projections/rebuild';
import { encodeOrderCursor, listOrders, orderStatistics } from '../../projections/orderQueries';
import { auditCount, auditPage, encodeAuditCursor } from '../../projections/audit';
import { generateOrders } from '../scale/generateOrders';
import { auditCountWindow } from '../../src/http/audit';
import { createBenchDatabase, settle } from './benchDatabase';
import { callApi, runReportedSection, signInForBench, startBenchPortal } from './benchPortal';
import { summarize, type LatencySummary } from './percentiles';
import { formatCount, formatMs, formatRate, renderTable } from './reportTables';

export const SCALE_P95_GOAL = 1.5;
export const REBUILD_GOAL = 10_000;
const SMALL = 10_000;

type Account = 'admin' | 'partner' | 'distributor' | 'manufacturer' | 'support';
interface RouteContext {
  deepCursor: string;
  orderNumber: string;
  partnerId: string;
  adminId: string;
  /** The audit log's next_cursor half-way down the log. */
  auditCursor: string;
  /** A month in the middle of the generated history (YYYY-MM-DD). */
  monthFrom: string;
  monthTo: string;
}

/** The audit log's goal: pages and filters in under this at a million events and more. */
export const AUDIT_P95_GOAL_MS = 200;
const auditFilter = (filter: Record<string, string>) => `/api/audit?range=[0,24]&filter=${encodeURIComponent(JSON.stringify(filter))}`;

/** The routes measured at each size: adding one is one line. Routes this build does not have (404) are reported as such. */
export const SCALE_ROUTES: Array<{ name: string; account: Account; path: (c: RouteContext) => string }> = [
  { name: 'GET /api/orders first page (admin)', account: 'admin', path: () => '/api/orders?page=1&limit=25' },
  { name: 'GET /api/orders first page (partner)', account: 'partner', path: () => '/api/orders?page=1&limit=25' },
  { name: 'GET /api/orders last numbered page (page=400)', account: 'admin', path: () => '/api/orders?page=400&limit=25' },
  { name: 'GET /api/orders deep page (after=)', account: 'admin', path: (c) => `/api/orders?limit=25&after=${c.deepCursor}` },
  { name: 'GET /api/orders?status=pending', account: 'admin', path: () => '/api/orders?status=pending&page=1&limit=25' },
  { name: 'GET /api/orders?search=<number>', account: 'admin', path: (c) => `/api/orders?search=${c.orderNumber}` },
  { name: 'GET /api/orders/counts (status tabs)', account: 'admin', path: () => '/api/orders/counts' },
  { name: 'GET /api/orders/stats (admin)', account: 'admin', path: () => '/api/orders/stats' },
  { name: 'GET /api/orders/stats (partner)', account: 'partner', path: () => '/api/orders/stats' },
  { name: 'GET /api/dashboard/stats', account: 'partner', path: () => '/api/dashboard/stats' },
  { name: 'GET /api/dashboard/manufacturer/stats', account: 'manufacturer', path: () => '/api/dashboard/manufacturer/stats' },
  { name: 'GET /api/dashboard/distributor/stats', account: 'distributor', path: () => '/api/dashboard/distributor/stats' },
  { name: 'GET /api/dashboard/support/stats', account: 'support', path: () => '/api/dashboard/support/stats' },
  { name: 'GET /api/dashboard/admin/stats', account: 'admin', path: () => '/api/dashboard/admin/stats' },
  { name: 'GET /api/audit first page', account: 'admin', path: () => '/api/audit?range=[0,24]' },
  { name: 'GET /api/audit page 400 (offset 9,975)', account: 'admin', path: () => '/api/audit?range=[9975,9999]' },
  { name: 'GET /api/audit deep page (cursor=)', account: 'admin', path: (c) => `/api/audit?limit=25&cursor=${c.auditCursor}` },
  { name: 'GET /api/audit?filter event type', account: 'admin', path: () => auditFilter({ event_type: 'OrderStatusChanged.v1' }) },
  { name: 'GET /api/audit?filter organisation', account: 'admin', path: (c) => auditFilter({ organisation_id: c.partnerId }) },
  { name: 'GET /api/audit?filter actor', account: 'admin', path: (c) => auditFilter({ actor_id: c.adminId }) },
  { name: 'GET /api/audit?filter record type', account: 'admin', path: () => auditFilter({ record_type: 'orders' }) },
  { name: 'GET /api/audit?filter one month', account: 'admin', path: (c) => auditFilter({ from: c.monthFrom, to: c.monthTo }) },
  {
    name: 'GET /api/audit?filter organisation + event type',
    account: 'admin',
    path: (c) => auditFilter({ organisation_id: c.partnerId, event_type: 'OrderPlaced.v1' }),
  },
];
const isAuditRoute = (name: string) => name.startsWith('GET /api/audit');

export interface ScaleSettings {
  adminUrl: string;
  redisUrl: string | undefined;
  orders: number;
  /** Requests per route at each size. */
  requests: number;
  clients: number;
}

interface SizeResult {
  orders: number;
  events: number;
  appendSeconds: number;
  rebuildSeconds: number;
  rebuildRate: number;
  routes: Record<string, LatencySummary | 'not in this build' | string>;
  plans: Record<string, string>;
}

export interface ScaleSection {
  sizes: SizeResult[];
  totalSeconds: number;
}

/** Runs each query of the work twice: once under EXPLAIN (ANALYZE, BUFFERS), whose plan is kept, and once for real. */
function explaining(pool: ReturnType<typeof createPool>, plans: string[]) {
  return {
    async query(query: string | { text: string; values?: unknown[] }, params?: unknown[]) {
      // The query code sends some statements prepared ({ name, text, values }).
      const [text, values] = typeof query === 'string' ? [query, params] : [query.text, query.values];
      const plan = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
      plans.push(`${text.replace(/\s+/g, ' ').trim()}\n${plan.rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
      return pool.query(text, values);
    },
  } as never;
}

async function measureSize(settings: ScaleSettings, databaseUrl: string, target: number, current: number, log: (line: string) => void): Promise<SizeResult> {
  const pool = createPool(databaseUrl);
  const store = await createEventStore({ pool, databaseUrl } as never);
  try {
    log(`  appending ${formatCount(target - current)} orders (to ${formatCount(target)})`);
    const generated = await generateOrders(pool, target - current, { log });
    const events = Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0].n);
    log(`  rebuilding every read model from ${formatCount(events)} events`);
    const began = performance.now();
    await rebuildProjections(store, pool, readModels);
    const rebuildSeconds = (performance.now() - began) / 1000;
    // Every table, the log included: the generator's millions of inserts would otherwise have
    // autovacuum walking them while the routes are measured, at one size and not the other.
    await settle(databaseUrl, settings.adminUrl);

    // The slow queries' plans, from the real query code.
    const plans: Record<string, string> = {};
    for (const [name, run] of Object.entries({
      'orders, first page': (db: never) => listOrders(db, { organisationId: undefined }, {}, { offset: 0, limit: 25 }),
      'orders, last numbered page': (db: never) => listOrders(db, { organisationId: undefined }, {}, { offset: 9_975, limit: 25 }),
      'orders, search': (db: never) => listOrders(db, { organisationId: undefined }, { search: 'ORD-2026-0012' }, { offset: 0, limit: 25 }),
      'order statistics': (db: never) => orderStatistics(db, { organisationId: undefined }),
      'audit log, first page and its capped count': (db: never) =>
        Promise.all([auditPage(db, {}, { limit: 25 }), auditCount(db, {}, auditCountWindow(0, 25) + 1)]),
      'audit log, one event type': (db: never) => auditPage(db, { event_type: 'OrderStatusChanged.v1' }, { limit: 25 }),
    })) {
      const collected: string[] = [];
      await run(explaining(pool, collected));
      plans[name] = collected.join('\n\n');
    }

    // Every request reads the database: this section measures the queries at each size, and a kept
    // answer would be served the same way at any size.
    const bench = await startBenchPortal({ databaseUrl, redisUrl: settings.redisUrl }, { answerCache: false });
    const routes: SizeResult['routes'] = {};
    try {
      const accounts: Account[] = ['admin', 'partner', 'distributor', 'manufacturer', 'support'];
      const tokens = Object.fromEntries(
        await Promise.all(accounts.map(async (a) => [a, await signInForBench(bench.baseUrl, `${a}@partnerhub.test`)] as const)),
      );
      // A cursor in the middle of the newest-first list, and an order number from there.
      const middle = await pool.query<{ id: string; created_at: Date; order_number: string }>(
        'SELECT id::text, created_at, order_number FROM read.orders ORDER BY created_at DESC, id DESC OFFSET $1 LIMIT 1',
        [Math.floor(target / 2)],
      );
      const ids = await pool.query<{ email: string; id: string }>(
        "SELECT email, id::text FROM read.users WHERE email IN ('partner@partnerhub.test', 'admin@partnerhub.test')",
      );
      const idOf = (email: string) => ids.rows.find((r) => r.email === email)!.id;
      const auditMiddle = await pool.query<{ occurred_at: Date; event_id: string }>(
        'SELECT occurred_at, event_id FROM read.audit_log ORDER BY occurred_at DESC, event_id DESC OFFSET $1 LIMIT 1',
        [Math.floor(events / 2)],
      );
      const month = new Date(Date.now() - 365 * 86_400_000);
      const context: RouteContext = {
        deepCursor: encodeOrderCursor({ created_at: middle.rows[0].created_at.toISOString(), id: middle.rows[0].id }),
        orderNumber: middle.rows[0].order_number,
        partnerId: idOf('partner@partnerhub.test'),
        adminId: idOf('admin@partnerhub.test'),
        auditCursor: encodeAuditCursor({ occurredAt: auditMiddle.rows[0].occurred_at.toISOString(), eventId: auditMiddle.rows[0].event_id }),
        monthFrom: new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1)).toISOString().slice(0, 10),
        monthTo: new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0)).toISOString().slice(0, 10),
      };
      // One unmeasured pass over every route first: the routes measured first would otherwise pay for
      // the caches the rebuild and the vacuum left cold, and the last ones not.
      for (const route of SCALE_ROUTES) {
        for (let i = 0; i < 5; i++) await callApi(bench.baseUrl, tokens[route.account], 'GET', route.path(context));
      }
      for (const route of SCALE_ROUTES) {
        const path = route.path(context);
        const probe = await callApi(bench.baseUrl, tokens[route.account], 'GET', path);
        if (probe.status === 404) {
          routes[route.name] = 'not in this build';
          continue;
        }
        if (probe.status !== 200) {
          routes[route.name] = `HTTP ${probe.status}`;
          continue;
        }
        /** `count` requests from the section's concurrent clients; their latencies. */
        const load = async (count: number) => {
          const latencies: number[] = [];
          let next = 0;
          await Promise.all(
            Array.from({ length: settings.clients }, async () => {
              while (next++ < count) {
                const began = performance.now();
                const answer = await callApi(bench.baseUrl, tokens[route.account], 'GET', path);
                latencies.push(performance.now() - began);
                if (answer.status !== 200) throw new Error(`${route.name} answered ${answer.status}`);
              }
            }),
          );
          return latencies;
        };
        // A few more unmeasured requests right before, at the concurrency measured.
        await load(Math.max(20, Math.round(settings.requests / 5)));
        const latencies = await load(settings.requests);
        routes[route.name] = summarize(latencies);
      }
    } finally {
      await bench.stop();
    }
    return { orders: target, events, appendSeconds: generated.seconds, rebuildSeconds, rebuildRate: events / rebuildSeconds, routes, plans };
  } finally {
    await store.close();
    await pool.end();
  }
}

export async function runScaleBench(settings: ScaleSettings, log: (line: string) => void): Promise<ScaleSection> {
  const began = performance.now();
  const database = await createBenchDatabase(settings.adminUrl);
  try {
    // The demo accounts and catalogue the generated orders refer to.
    const seeded = await startBenchPortal({ databaseUrl: database.url, redisUrl: settings.redisUrl });
    await seeded.stop();
    const sizes: SizeResult[] = [];
    let current = 0;
    for (const target of [...new Set([Math.min(SMALL, settings.orders), settings.orders])]) {
      log(`  ${formatCount(target)} orders`);
      sizes.push(await measureSize(settings, database.url, target, current, log));
      current = target;
    }
    return { sizes, totalSeconds: (performance.now() - began) / 1000 };
  } finally {
    await database.drop();
  }
}

export function scaleTable(section: ScaleSection): string {
  const [small, large] = [section.sizes[0], section.sizes.at(-1)!];
  const cell = (value: SizeResult['routes'][string] | undefined, pick: 'p50' | 'p95') =>
    value === undefined ? '' : typeof value === 'string' ? value : formatMs(value[pick]);
  const rows = SCALE_ROUTES.map((route) => {
    const a = small.routes[route.name];
    const b = large.routes[route.name];
    const ratio = typeof a === 'object' && typeof b === 'object' ? b.p95 / a.p95 : Number.NaN;
    return [
      route.name,
      cell(a, 'p50'),
      cell(a, 'p95'),
      cell(b, 'p50'),
      cell(b, 'p95'),
      Number.isFinite(ratio) ? `${ratio.toFixed(2)}×${ratio <= SCALE_P95_GOAL ? '' : ' MISSED'}` : '',
    ];
  });
  return [
    renderTable(
      `Scale: ${formatCount(small.orders)} and ${formatCount(large.orders)} orders`,
      [
        'route',
        `p50 @${formatCount(small.orders)}`,
        `p95 @${formatCount(small.orders)}`,
        `p50 @${formatCount(large.orders)}`,
        `p95 @${formatCount(large.orders)}`,
        `p95 ratio (goal ≤ ${SCALE_P95_GOAL}×)`,
      ],
      rows,
    ),
    auditGoalLine(large),
    ...section.sizes.map(
      (s) =>
        `   ${formatCount(s.orders)} orders: ${formatCount(s.events)} events in the log; appended in ${s.appendSeconds.toFixed(1)} s; full rebuild ${s.rebuildSeconds.toFixed(1)} s = ${formatRate(s.rebuildRate)} (goal ≥ ${formatCount(REBUILD_GOAL)}/s)`,
    ),
    `   each route: ${formatCount(
      Object.values(large.routes)
        .filter((r) => typeof r === 'object')
        .map((r) => (r as LatencySummary).count)[0] ?? 0,
    )} requests from concurrent clients after the rebuild, each read from the database (no kept answers); section took ${section.totalSeconds.toFixed(0)} s`,
    `   EXPLAIN (ANALYZE, BUFFERS) at ${formatCount(large.orders)} orders: in load-tests/results/latest.json (scale.sizes[].plans)`,
  ].join('\n');
}

/** The slowest audit route at a size (by p95), or undefined when none was measured. */
export function slowestAuditRoute(size: SizeResult): { name: string; p95: number } | undefined {
  const measured = Object.entries(size.routes).filter(([name, r]) => isAuditRoute(name) && typeof r === 'object') as Array<[string, LatencySummary]>;
  if (measured.length === 0) return undefined;
  const [name, worst] = measured.reduce((a, b) => (b[1].p95 > a[1].p95 ? b : a));
  return { name, p95: worst.p95 };
}

function auditGoalLine(size: SizeResult): string {
  const worst = slowestAuditRoute(size);
  if (!worst) return '   audit log: not measured';
  return `   audit log at ${formatCount(size.events)} events: slowest p95 ${formatMs(worst.p95)} (${worst.name}); goal < ${AUDIT_P95_GOAL_MS} ms: ${worst.p95 < AUDIT_P95_GOAL_MS ? 'held' : 'MISSED'}`;
}

export function runScaleSection(settings: ScaleSettings, log: (line: string) => void, results: { errors: Record<string, string> }): Promise<string[]> {
  return runReportedSection(
    'scale',
    `Scale: orders lists, search, statistics and dashboards at 10,000 and ${formatCount(settings.orders)} orders, and the rebuild rate`,
    () => runScaleBench(settings, log),
    scaleTable,
    log,
    results,
  );
}
