/**
 * `npm run bench`: one command, one machine. Creates a dedicated database, measures
 *   1. HTTP: sign-in, the admin's user list and a bare Fastify hello-world;
 *   2. event-store appends next to plain INSERTs of the same rows;
 *   3. projection lag at half the maximum append rate;
 * prints a table per section and a summary of the goals, writes everything to
 * load-tests/results/latest.json, and drops the database. A missed goal is reported, not fatal.
 * Settings: see load-tests/README.md (BENCH_SECONDS, BENCH_LAG_SECONDS, ...).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BATCHED_GOAL, runAppendSection, SINGLE_GOAL, type AppendMeasurement, type AppendSection } from './bench/appendBench';
import { createBenchDatabase, serverVersion, settle, type BenchDatabase } from './bench/benchDatabase';
import { bundleTable, runBundleSection, SIGNIN_GOAL_KIB, type BundleSection } from './bench/bundleReport';
import { runHttpSection, type HttpMeasurement, type HttpSection } from './bench/httpBench';
import { runOrderSection } from './bench/orders';
import { runProjectSection } from './bench/projects';
import { runRebateSection } from './bench/rebates';
import { runLeadSection } from './bench/leads';
import { runFundSection } from './bench/funds';
import { runTicketSection } from './bench/tickets';
import { runMixedSection } from './bench/mixed';
import { MIX_GOAL, MIX_WITH_COMMANDS_GOAL, ROUTE_GOAL, runReadMixSection, type ReadMixSection } from './bench/readMix';
import { AUDIT_P95_GOAL_MS, REBUILD_GOAL, runScaleSection, SCALE_P95_GOAL, SCALE_ROUTES, slowestAuditRoute, type ScaleSection } from './bench/scale';
import { LAG_GOAL_MS, runLagSection, type LagSection } from './bench/projectionLag';
import { runReportedSection } from './bench/benchPortal';
import { formatCount, formatMs, formatPercent, formatRate, renderTable, type Cell } from './bench/reportTables';

const SECTIONS = ['http', 'reads', 'appends', 'lag', 'orders', 'projects', 'rebates', 'leads', 'funds', 'tickets', 'mixed', 'scale', 'bundle'] as const;
type Section = (typeof SECTIONS)[number];

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number (got "${raw}").`);
  return value;
}

function adminDatabaseUrl(): string {
  const url = new URL(process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = '/postgres';
  return url.toString();
}

const settings = {
  seconds: numberFromEnv('BENCH_SECONDS', 10),
  warmupSeconds: numberFromEnv('BENCH_WARMUP_SECONDS', 2),
  lagSeconds: numberFromEnv('BENCH_LAG_SECONDS', 20),
  lagWarmupSeconds: numberFromEnv('BENCH_LAG_WARMUP_SECONDS', 10),
  connections: numberFromEnv('BENCH_CONNECTIONS', 16),
  loginConnections: numberFromEnv('BENCH_LOGIN_CONNECTIONS', 8),
  clients: numberFromEnv('BENCH_CLIENTS', 16),
  batchSize: numberFromEnv('BENCH_BATCH_SIZE', 100),
  rounds: Math.max(1, Math.round(numberFromEnv('BENCH_ROUNDS', 4))),
  lagRate: numberFromEnv('BENCH_LAG_RATE', 0),
  routeSeconds: numberFromEnv('BENCH_ROUTE_SECONDS', 2),
  routeWarmupSeconds: numberFromEnv('BENCH_ROUTE_WARMUP_SECONDS', 5),
  mixWarmupSeconds: numberFromEnv('BENCH_MIX_WARMUP_SECONDS', 30),
  mixCommandsPerSecond: numberFromEnv('BENCH_MIX_COMMANDS', 10),
  mixedProbeSeconds: numberFromEnv('BENCH_MIXED_PROBE_SECONDS', 6),
  mixedStartRate: numberFromEnv('BENCH_MIXED_START_RATE', 1),
  mixedMaxRate: numberFromEnv('BENCH_MIXED_MAX_RATE', 64),
  scaleOrders: Math.max(1, Math.round(numberFromEnv('BENCH_SCALE_ORDERS', 1_000_000))),
  scaleRequests: Math.max(1, Math.round(numberFromEnv('BENCH_SCALE_REQUESTS', 1000))),
  sections: (process.env.BENCH_SECTIONS ?? SECTIONS.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter((s): s is Section => (SECTIONS as readonly string[]).includes(s)),
};

const log = (line: string) => console.log(line);
const bigintSafe = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

interface Goal {
  goal: string;
  measured: string;
  met: boolean | undefined;
}

// ---- tables ----

function httpTable(section: HttpSection): string {
  const row = (m: HttpMeasurement & { ofHello?: number; goal?: number }): Cell[] => [
    m.request,
    m.connections,
    formatRate(m.result.requestsPerSecond),
    m.ofHello === undefined ? '' : formatPercent(m.ofHello),
    m.goal === undefined ? '' : `>= ${formatPercent(m.goal)}`,
    formatMs(m.result.latency.p50),
    formatMs(m.result.latency.p95),
    formatMs(m.result.latency.p99),
    formatMs(m.result.latency.max),
    formatCount(m.result.responses),
    formatCount(m.result.non2xx + m.result.errors),
  ];
  return [
    renderTable(
      '1. HTTP',
      ['request', 'conns', 'req/s', 'of hello', 'goal', 'p50', 'p95', 'p99', 'max', 'responses', 'non-2xx+errors'],
      [row(section.login), ...section.reads.map(row), ...section.uncachedReads.map((read) => row({ ...read, goal: undefined })), row(section.hello)],
    ),
    "   of hello: the read's req/s divided by the bare Fastify hello-world's, on the same connections",
    '   no kept answers: a second API process with ANSWER_CACHE_ENTRIES=0, so every request reads the database (as right after a change)',
    `   load generator: ${section.loadGenerator}`,
  ].join('\n');
}

function appendTable(section: AppendSection): string {
  const row = (m: AppendMeasurement, versus?: AppendMeasurement): Cell[] => [
    m.name,
    formatRate(m.eventsPerSecond),
    versus ? formatPercent(m.eventsPerSecond / versus.eventsPerSecond) : '',
    formatMs(m.latency.p50),
    formatMs(m.latency.p95),
    formatMs(m.latency.p99),
    formatCount(m.events),
    `${formatCount(m.walBytesPerEvent)} B`,
    m.errors,
  ];
  const rows = [
    row(section.single.store, section.single.raw),
    row(section.single.raw),
    row(section.batched.store, section.batched.raw),
    row(section.batched.raw),
    ...section.diagnostics.map((d) => row(d, d.name.includes(`${section.batchSize} events`) ? section.batched.raw : section.single.raw)),
  ];
  return [
    renderTable(
      `2. Event store appends (${section.clients} clients, pool of ${section.clients}; latency per statement)`,
      ['what', 'events/s', 'of raw', 'p50', 'p95', 'p99', 'events', 'WAL/event', 'errors'],
      rows,
    ),
    `   single: store = ${formatPercent(section.single.ratio)} of raw (goal >= ${formatPercent(SINGLE_GOAL)}); ` +
      `batched: store = ${formatPercent(section.batched.ratio)} of raw (goal >= ${formatPercent(BATCHED_GOAL)})`,
    `   event JSON: data ${section.eventBytes.data} B, metadata ${section.eventBytes.metadata} B; ` +
      `a client starts a new stream every ${section.streamLength} appends (no_stream, then the returned revision)`,
    ...(section.diagnostics.length
      ? [
          '   diagnostics (not the product): a raw 1-row INSERT that calls pg_notify in its own transaction (why the store',
          '   sends one coalesced NOTIFY after commit instead of inside the append); the store with random (v4) event ids instead of its time-ordered ones',
        ]
      : []),
  ].join('\n');
}

function lagTable(section: LagSection): string {
  return [
    renderTable(
      '3. Projection lag',
      ['what', 'value'],
      [
        ['appended at (target)', `${formatRate(section.targetRate)} (${section.rateSource})`],
        ['appended at (achieved)', formatRate(section.achievedRate)],
        ['events measured / confirmed', `${formatCount(section.appended)} / ${formatCount(section.confirmed)}`],
        ['lag p50', formatMs(section.lag.p50)],
        ['lag p95', formatMs(section.lag.p95)],
        ['lag p99', formatMs(section.lag.p99)],
        ['lag max', formatMs(section.lag.max)],
        [
          `lag p50 / p99 in the warm-up (first ${section.warmup.seconds} s of a new projector process)`,
          `${formatMs(section.warmup.lag.p50)} / ${formatMs(section.warmup.lag.p99)}`,
        ],
        ['append latency p50 / p99', `${formatMs(section.appendLatency.p50)} / ${formatMs(section.appendLatency.p99)}`],
        ['projector batches (whole run)', formatCount(section.projectorBatches)],
        ['projector errors', section.projectorErrors.length ? section.projectorErrors.join('; ') : 'none'],
      ],
      ['left', 'left'],
    ),
    `   projection: ${section.projection}`,
    `   events: ${section.events}`,
    `   lag: ${section.measuredFrom}`,
    ...(section.unconfirmed ? [`   ${section.unconfirmed} events were not confirmed in time; they count with the age they reached`] : []),
  ].join('\n');
}

// ---- run ----

async function main() {
  const startedAt = new Date();
  const began = performance.now();
  const adminUrl = adminDatabaseUrl();
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    postgres: await serverVersion(adminUrl),
    loadAverageAtStart: os.loadavg().map((n) => Number(n.toFixed(2))),
  };
  log(`PartnerHub bench — ${startedAt.toISOString()}`);
  log(`machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.postgres}`);
  log(`load average at start: ${machine.loadAverageAtStart.join(' ')} (other work on the machine skews every number below)`);

  let database: BenchDatabase | undefined;
  const interrupted = async () => {
    await database?.drop().catch(() => {});
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);

  const results: { http?: HttpSection; appends?: AppendSection; lag?: LagSection; bundle?: BundleSection; errors: Record<string, string> } = { errors: {} };
  const tables: string[] = [];
  try {
    database = await createBenchDatabase(adminUrl);
    log(`database: ${database.name}\n`);
    const databaseUrl = database.url;

    if (settings.sections.includes('http'))
      tables.push(
        ...(await runReportedSection(
          'http',
          '1. HTTP',
          () =>
            runHttpSection(
              {
                databaseUrl: databaseUrl,
                redisUrl: process.env.REDIS_URL,
                seconds: settings.seconds,
                warmupSeconds: settings.warmupSeconds,
                connections: settings.connections,
                loginConnections: settings.loginConnections,
              },
              log,
            ),
          httpTable,
          log,
          results,
        )),
      );

    if (settings.sections.includes('reads'))
      tables.push(
        ...(await runReadMixSection(
          {
            databaseUrl,
            redisUrl: process.env.REDIS_URL,
            seconds: settings.seconds,
            warmupSeconds: settings.warmupSeconds,
            connections: settings.connections,
            routeSeconds: settings.routeSeconds,
            routeWarmupSeconds: settings.routeWarmupSeconds,
            mixWarmupSeconds: settings.mixWarmupSeconds,
            commandsPerSecond: settings.mixCommandsPerSecond,
            routeFilter: process.env.BENCH_ROUTES ?? '',
          },
          log,
          results,
        )),
      );

    if (settings.sections.includes('appends'))
      tables.push(
        ...(await runReportedSection(
          'appends',
          '2. Event store appends',
          () =>
            runAppendSection(
              {
                databaseUrl: databaseUrl,
                adminUrl,
                clients: settings.clients,
                seconds: settings.seconds,
                warmupSeconds: settings.warmupSeconds,
                batchSize: settings.batchSize,
                streamLength: 10,
                rounds: settings.rounds,
                diagnostics: process.env.BENCH_DIAGNOSTICS !== '0',
              },
              log,
            ),
          appendTable,
          log,
          results,
        )),
      );

    if (settings.sections.includes('lag')) {
      log('3. Projection lag');
      const maxRate = results.appends?.single.store.eventsPerSecond;
      const rate = settings.lagRate || (maxRate ? maxRate / 2 : 200);
      const rateSource = settings.lagRate
        ? 'BENCH_LAG_RATE'
        : maxRate
          ? `half of the ${formatRate(maxRate)} measured in 2 (store, 1 event per append)`
          : 'default: section 2 did not run';
      try {
        await settle(database.url, adminUrl);
        results.lag = await runLagSection(
          {
            databaseUrl,
            clients: settings.clients,
            seconds: settings.lagSeconds,
            warmupSeconds: settings.lagWarmupSeconds,
            rate,
            rateSource,
            drainSeconds: 10,
          },
          log,
        );
        tables.push(lagTable(results.lag));
        log(`\n${tables.at(-1)}\n`);
      } catch (error) {
        results.errors.lag = (error as Error).message;
        log(`   lag section failed: ${(error as Error).message}\n`);
      }
    }
    // The command benches (orders, tickets, projects, rebates, funds) share their database, length and clients.
    const commandBench = {
      databaseUrl,
      redisUrl: process.env.REDIS_URL,
      seconds: settings.seconds,
      warmupSeconds: settings.warmupSeconds,
      clients: settings.clients,
    };
    if (settings.sections.includes('orders')) tables.push(...(await runOrderSection(commandBench, log, results)));
    if (settings.sections.includes('tickets')) tables.push(...(await runTicketSection(commandBench, log, results)));
    if (settings.sections.includes('projects')) tables.push(...(await runProjectSection(commandBench, log, results)));
    if (settings.sections.includes('mixed'))
      tables.push(
        ...(await runMixedSection(
          {
            databaseUrl,
            redisUrl: process.env.REDIS_URL,
            seconds: Math.max(10, settings.seconds),
            probeSeconds: settings.mixedProbeSeconds,
            startRate: settings.mixedStartRate,
            maxRate: settings.mixedMaxRate,
          },
          log,
          results,
        )),
      );
    if (settings.sections.includes('scale'))
      tables.push(
        ...(await runScaleSection(
          { adminUrl, redisUrl: process.env.REDIS_URL, orders: settings.scaleOrders, requests: settings.scaleRequests, clients: 4 },
          log,
          results,
        )),
      );
    if (settings.sections.includes('leads'))
      tables.push(
        ...(await runLeadSection(
          {
            databaseUrl,
            redisUrl: process.env.REDIS_URL,
            clients: settings.clients,
            rows: Math.max(1, Math.round(numberFromEnv('BENCH_LEAD_ROWS', 1000))),
          },
          log,
          results,
        )),
      );
    if (settings.sections.includes('rebates')) tables.push(...(await runRebateSection(commandBench, log, results)));
    if (settings.sections.includes('funds')) tables.push(...(await runFundSection(commandBench, log, results)));
    if (settings.sections.includes('bundle'))
      tables.push(...(await runReportedSection('bundle', 'Bundle', () => runBundleSection(log), bundleTable, log, results)));
  } finally {
    await database?.drop().catch((error: Error) => log(`Could not drop ${database?.name}: ${error.message}`));
  }

  const goals: Goal[] = [];
  if (results.appends) {
    const { single, batched } = results.appends;
    goals.push({
      goal: `single-event appends >= ${formatPercent(SINGLE_GOAL)} of raw INSERTs`,
      measured: formatPercent(single.ratio),
      met: single.ratio >= SINGLE_GOAL,
    });
    goals.push({
      goal: `${settings.batchSize}-event appends >= ${formatPercent(BATCHED_GOAL)} of raw multi-row INSERTs`,
      measured: formatPercent(batched.ratio),
      met: batched.ratio >= BATCHED_GOAL,
    });
  } else if (settings.sections.includes('appends')) {
    goals.push({ goal: 'event store append ratios', measured: `not measured: ${results.errors.appends}`, met: undefined });
  }
  if (results.lag) {
    goals.push({
      goal: `projection lag p99 < ${LAG_GOAL_MS} ms`,
      measured: formatMs(results.lag.lag.p99),
      met: results.lag.lag.p99 < LAG_GOAL_MS && results.lag.unconfirmed === 0,
    });
  } else if (settings.sections.includes('lag')) {
    goals.push({ goal: 'projection lag', measured: `not measured: ${results.errors.lag}`, met: undefined });
  }
  const scale = (results as { scale?: ScaleSection }).scale;
  if (scale) {
    const [small, large] = [scale.sizes[0], scale.sizes.at(-1)!];
    for (const route of SCALE_ROUTES) {
      const a = small.routes[route.name];
      const b = large.routes[route.name];
      if (typeof a !== 'object' || typeof b !== 'object') continue;
      goals.push({
        goal: `${route.name}: p95 at ${formatCount(large.orders)} <= ${SCALE_P95_GOAL}x p95 at ${formatCount(small.orders)}`,
        measured: `${formatMs(b.p95)} / ${formatMs(a.p95)} = ${(b.p95 / a.p95).toFixed(2)}x`,
        met: b.p95 <= SCALE_P95_GOAL * a.p95,
      });
    }
    goals.push({
      goal: `full rebuild >= ${formatCount(REBUILD_GOAL)} events/s (${formatCount(large.events)} events)`,
      measured: formatRate(large.rebuildRate),
      met: large.rebuildRate >= REBUILD_GOAL,
    });
    const audit = slowestAuditRoute(large);
    if (audit)
      goals.push({
        goal: `audit log pages and filters p95 < ${AUDIT_P95_GOAL_MS} ms at ${formatCount(large.events)} events`,
        measured: `slowest ${formatMs(audit.p95)} (${audit.name})`,
        met: audit.p95 < AUDIT_P95_GOAL_MS,
      });
  }
  const notes: Cell[][] = [];
  const reads = (results as { reads?: ReadMixSection }).reads;
  if (reads) {
    for (const mix of reads.mixes) {
      const errors = mix.result.non2xx + mix.result.errors;
      const variant = `read mix, ${mix.processes} API process${mix.processes > 1 ? 'es' : ''}, kept answers ${mix.keptAnswers ? 'on' : 'off'}`;
      if (mix.goal === undefined) {
        notes.push([`${variant} (no goal)`, `${formatPercent(mix.ofHello)} of hello (${formatRate(mix.result.requestsPerSecond)}), ${errors} non-2xx`, 'info']);
        continue;
      }
      goals.push({
        goal: `${variant}${mix.commandsPerSecond ? `, ${mix.commandsPerSecond} commands/s` : ''} >= ${formatPercent(mix.goal)} of hello, 0 non-2xx`,
        measured: `${formatPercent(mix.ofHello)} (${formatRate(mix.result.requestsPerSecond)}), ${errors} non-2xx${mix.warmup ? `; first ${mix.warmup.seconds} s: ${formatPercent(mix.warmup.ofHello)}` : ''}`,
        met: mix.ofHello >= mix.goal && errors === 0,
      });
    }
    const measured = reads.routes.filter((route) => route.ofHello !== undefined);
    goals.push({
      goal: `every GET route alone >= ${formatPercent(ROUTE_GOAL)} of hello`,
      measured: `${measured.filter((route) => route.ofHello! >= ROUTE_GOAL).length} of ${measured.length} measured (${reads.routes.length - measured.length} not measured); slowest ${measured[0] ? `${measured[0].route} ${formatPercent(measured[0].ofHello!)}` : 'none'}`,
      met: measured.length === reads.routes.length && measured.every((route) => route.ofHello! >= ROUTE_GOAL),
    });
    notes.push([
      'bare Fastify route, one pg query of 10 orders (no goal: what a route that reads once reaches here)',
      `${formatPercent(reads.oneQuery.ofHello)} of hello (${formatRate(reads.oneQuery.result.requestsPerSecond)})`,
      'info',
    ]);
  } else if (settings.sections.includes('reads')) {
    goals.push({
      goal: `read mix >= ${formatPercent(MIX_GOAL)} (${formatPercent(MIX_WITH_COMMANDS_GOAL)} with commands) of hello`,
      measured: `not measured: ${results.errors.reads}`,
      met: undefined,
    });
  }
  if (results.http) {
    for (const read of results.http.reads) {
      goals.push({
        goal: `${read.request} >= ${formatPercent(read.goal)} of hello-world req/s`,
        measured: formatPercent(read.ofHello),
        met: read.ofHello >= read.goal && read.result.non2xx + read.result.errors === 0,
      });
    }
    notes.push([
      'sign-in (argon2id, no goal)',
      `${formatRate(results.http.login.result.requestsPerSecond)}, p99 ${formatMs(results.http.login.result.latency.p99)}`,
      'info',
    ]);
  } else if (settings.sections.includes('http')) {
    notes.push(['HTTP', `not measured: ${results.errors.http}`, 'FAILED']);
  }
  if (results.bundle) {
    const kib = results.bundle.signin.gzip / 1024;
    goals.push({ goal: `JavaScript loaded by /signin <= ${SIGNIN_GOAL_KIB} KiB gzip`, measured: `${kib.toFixed(1)} KiB`, met: kib <= SIGNIN_GOAL_KIB });
  } else if (settings.sections.includes('bundle')) {
    goals.push({ goal: 'JavaScript loaded by /signin', measured: `not measured: ${results.errors.bundle}`, met: undefined });
  }
  const totalSeconds = (performance.now() - began) / 1000;
  const summary = renderTable(
    'Summary',
    ['goal', 'measured', 'result'],
    [...goals.map((g): Cell[] => [g.goal, g.measured, g.met === undefined ? 'not measured' : g.met ? 'met' : 'MISSED']), ...notes],
    ['left', 'left', 'left'],
  );
  log(
    `${summary}\n   total run time ${totalSeconds.toFixed(0)} s; load average at end: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );

  const resultsFile = fileURLToPath(new URL('./results/latest.json', import.meta.url));
  await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
  const report = {
    startedAt: startedAt.toISOString(),
    totalSeconds,
    machine: { ...machine, loadAverageAtEnd: os.loadavg() },
    settings,
    ...results,
    goals,
    text: [...tables, summary].join('\n\n'),
  };
  await writeFile(resultsFile, `${JSON.stringify(report, bigintSafe, 2)}\n`);
  log(`   written to ${resultsFile}`);
  // A section that could not run at all is a failure of the bench; a missed goal is not.
  process.exitCode = Object.keys(results.errors).length ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
