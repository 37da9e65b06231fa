import { performance } from 'node:perf_hooks';
import { callApi, signInForBench, startBenchPortal } from './load-tests/bench/benchPortal';
import { SCALE_ROUTES } from './load-tests/bench/scale';
import { createPool } from './src/db';
import { encodeAuditCursor } from './projections/audit';
const url = process.argv[2];
const only = process.argv[3] ? new RegExp(process.argv[3]) : /./;
const pool = createPool(url);
const bench = await startBenchPortal({ databaseUrl: url });
const accounts = ['admin', 'partner', 'distributor', 'manufacturer', 'support'] as const;
const tokens: any = Object.fromEntries(await Promise.all(accounts.map(async (a) => [a, await signInForBench(bench.baseUrl, `${a}@partnerhub.test`)] as const)));
const first = await callApi(bench.baseUrl, tokens.admin, 'GET', '/api/orders?page=1&limit=25');
const deepPage = Math.max(1, Math.floor(first.json.data.total / 25 / 2));
const middle = await callApi(bench.baseUrl, tokens.admin, 'GET', `/api/orders?page=${deepPage}&limit=25`);
const ids = await pool.query("SELECT email, id::text FROM read.users WHERE email IN ('partner@partnerhub.test', 'admin@partnerhub.test')");
const idOf = (e: string) => ids.rows.find((r: any) => r.email === e).id;
const am = await pool.query('SELECT occurred_at, event_id FROM read.audit_log ORDER BY occurred_at DESC, event_id DESC OFFSET 400000 LIMIT 1');
const ctx: any = { deepPage, deepCursor: middle.json.data.nextCursor, orderNumber: middle.json.data.orders[0].order_number, partnerId: idOf('partner@partnerhub.test'), adminId: idOf('admin@partnerhub.test'), auditCursor: encodeAuditCursor({ occurredAt: am.rows[0].occurred_at.toISOString(), eventId: am.rows[0].event_id }), monthFrom: '2025-11-01', monthTo: '2025-11-30' };
for (const r of SCALE_ROUTES.filter((r) => only.test(r.name))) {
  const l: number[] = [];
  let status = 0;
  for (let i = 0; i < 30; i++) { const t = performance.now(); const a = await callApi(bench.baseUrl, tokens[r.account], 'GET', r.path(ctx)); status = a.status; l.push(performance.now() - t); }
  l.sort((a, b) => a - b);
  console.log(r.name.padEnd(50), status, 'p50', l[15].toFixed(1), 'p95', l[28].toFixed(1));
}
await bench.stop(); await pool.end();
