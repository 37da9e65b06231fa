/**
 * Section "reads": the portal's read traffic as users make it. The demo world is seeded, then the API
 * runs as `npm start` runs it (src/main.ts, PORTAL_PROCESSES=api) in its own process(es), and autocannon
 * draws every request at random from the URLs of readWorkload.ts: five roles, every GET route, pages,
 * page sizes, filters, searches and records.
 *
 *   - the mix, one API process, no kept answers (the primary figure);
 *   - the same while partners and distributors open and comment on tickets at BENCH_MIX_COMMANDS a second;
 *   - the same mix with kept answers on (what the answer cache adds);
 *   - the mix with two API processes (node:cluster);
 *   - every GET route alone, its own URLs drawn at random, sorted slowest first.
 *
 * Every figure is a share of the bare Fastify hello-world measured in the same run, on the same
 * connections.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import pg from 'pg';
import { callApi, runReportedSection, signInForBench, startBenchPortal } from './benchPortal';
import { freePort } from '../../src/testing/freePort';
import { LOAD_TEST_LIMITS } from './limits';
import { LoadGenerator } from './loadGenerator';
import { cpuPerAnswer, readCpu, readOwnCpu, type CpuPerAnswer, type CpuReading } from './processCpu';
import type { LoadResult } from './httpLoader';
import { readWorkload, type ReadTarget, type ReadWorkload } from './readWorkload';
import { formatCount, formatMs, formatPercent, formatRate, renderTable, type Cell } from './reportTables';

export const MIX_GOAL = 0.08;
export const MIX_WITH_COMMANDS_GOAL = 0.06;
export const ROUTE_GOAL = 0.04;

export interface ReadMixSettings {
  databaseUrl: string;
  redisUrl: string | undefined;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** Length of each route's own run. */
  routeSeconds: number;
  /** The same requests before each route's run is measured. */
  routeWarmupSeconds: number;
  /**
   * How long each mix runs before it is measured: a serving API has planned its statements on each of its
   * connections (Postgres plans a prepared statement afresh for its first five runs on a connection), a
   * process that has just started has not. The warm-up's own rate is reported beside the figure.
   */
  mixWarmupSeconds: number;
  /** Commands a second during the "with commands" variant. */
  commandsPerSecond: number;
  /** Only the routes whose path contains this are measured alone (all when empty). */
  routeFilter?: string;
}

export interface MixRun {
  name: string;
  processes: number;
  keptAnswers: boolean;
  commandsPerSecond: number;
  result: LoadResult;
  ofHello: number;
  goal?: number;
  /** The mix's warm-up, measured too: the same requests in the first seconds of the API's serving them. */
  warmup?: { seconds: number; requestsPerSecond: number; ofHello: number };
  /** Commands sent and refused during the run (the "with commands" variant). */
  commands?: { sent: number; failed: number; firstFailure?: string };
  /** CPU microseconds per answer during the measured run: the API's processes and Postgres's (Linux only). */
  cpu?: CpuPerAnswer;
}

export interface RouteRun {
  route: string;
  urls: number;
  result?: LoadResult;
  ofHello?: number;
  unmeasured?: string;
  /** CPU microseconds per answer of the route's measured run, as a mix's. */
  cpu?: CpuPerAnswer;
}

export interface ReadMixSection {
  connections: number;
  urls: number;
  routesWithUrls: number;
  roles: Record<string, number>;
  /** The higher of the two hello-world runs, which every ratio divides by. */
  hello: LoadResult;
  /** Both hello-world runs' requests per second: before the first mix and after the last. */
  hellos: number[];
  /**
   * A bare Fastify route that reads 10 orders with one `pg` query, in the same process as the hello world:
   * what a route that reads once can reach on this machine, so each goal can be read against it.
   */
  oneQuery: { result: LoadResult; ofHello: number; bytes: number; cpu?: CpuPerAnswer };
  mixes: MixRun[];
  routes: RouteRun[];
  /** Each route's own requests before its run is measured. */
  routeWarmupSeconds: number;
}

/** The API as `npm start` runs it, in `processes` processes, on the bench's database and Redis prefix. */
async function startApi(settings: ReadMixSettings, prefix: string, jwtSecret: string, options: { processes: number; keptAnswers: boolean }) {
  const port = await freePort();
  // For a CPU profile of the API under the mix: BENCH_API_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/profiles'.
  const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      ...LOAD_TEST_LIMITS,
      // The URLs' access tokens are signed once, by the first API, and the section runs longer than the
      // default quarter of an hour: every later mix would be answered 401.
      ACCESS_TOKEN_TTL_SECONDS: String(3 * 60 * 60),
      NODE_ENV: 'development',
      DATABASE_URL: settings.databaseUrl,
      ...(settings.redisUrl ? { REDIS_URL: settings.redisUrl } : {}),
      REDIS_PREFIX: prefix,
      JWT_SECRET: jwtSecret,
      PORT: String(port),
      HOST: '127.0.0.1',
      PORTAL_PROCESSES: 'api',
      API_PROCESSES: String(options.processes),
      SERVE_WEB: 'false',
      // Errors only: kept with the rest of its output and shown when the section fails.
      LOG_LEVEL: 'error',
      SMTP_URL: '',
      EVENTSTORE_URL: '',
      ANSWER_CACHE_ENTRIES: options.keptAnswers ? '2000' : '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const started = performance.now();
  while (!output.includes('PartnerHub is running')) {
    if (child.exitCode !== null || performance.now() - started > 120_000) {
      child.kill('SIGKILL');
      throw new Error(`The API did not start: ${output.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    /** The API's first process: with more than one, it started the others. */
    pid: child.pid!,
    /** The last of what the API printed (its error log). */
    output: () => output.slice(-3000),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await once(child, 'exit');
      clearTimeout(timer);
    },
  };
}

/** Partners and distributors open tickets and comment on them, `perSecond` commands a second, until stopped. */
function commandsMeanwhile(baseUrl: string, tokens: { partner: string; distributor: string }, perSecond: number) {
  const counts = { sent: 0, failed: 0, firstFailure: undefined as string | undefined };
  const opened: Array<{ id: string; token: string }> = [];
  let n = 0;
  const send = async () => {
    const token = n % 2 === 0 ? tokens.partner : tokens.distributor;
    const comment = n % 3 === 2 && opened.length > 0;
    n++;
    counts.sent++;
    try {
      if (comment) {
        const ticket = opened[Math.floor(Math.random() * opened.length)];
        const answer = await callApi(baseUrl, ticket.token, 'POST', `/api/tickets/${ticket.id}/comments`, { comment: 'Any news on this one?' });
        if (answer.status !== 201 && answer.status !== 202) throw new Error(`POST /api/tickets/:id/comments answered ${answer.status}`);
      } else {
        const form = new FormData();
        form.append('title', `Read-mix case ${n}`);
        form.append('description', 'A support case opened while the read mix runs.');
        form.append('priority', ['Low', 'Medium', 'High', 'Critical'][n % 4]);
        const answer = await callApi(baseUrl, token, 'POST', '/api/tickets', form);
        if (answer.status !== 201 && answer.status !== 202) throw new Error(`POST /api/tickets answered ${answer.status}`);
        if (answer.status === 201) opened.push({ id: answer.json.data.id, token });
      }
    } catch (error) {
      counts.failed++;
      counts.firstFailure ??= (error as Error).message;
    }
  };
  const timer = setInterval(() => void send(), 1000 / perSecond);
  return {
    counts,
    stop: () => clearInterval(timer),
  };
}

/**
 * Asks for every URL once, 16 at a time, before a newly started API is measured: its code is compiled and
 * optimised as the first API's was by the URL probe, so the variants compare processes, not cold starts.
 */
async function everyUrlOnce(baseUrl: string, targets: ReadTarget[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < targets.length) {
        const { path, headers } = targets[next++];
        await fetch(`${baseUrl}${path}`, { headers }).then(
          (response) => response.arrayBuffer(),
          () => undefined,
        );
      }
    }),
  );
}

export async function runReadMix(settings: ReadMixSettings, log: (line: string) => void): Promise<ReadMixSection> {
  // The demo world, seeded through commands, with the projector running to keep the read models current.
  const seeded = await startBenchPortal(settings, { processes: ['projector'] });
  const jwtSecret = randomBytes(48).toString('base64url');
  const hello = Fastify({ logger: false });
  hello.get('/hello', async () => ({ hello: 'world' }));
  const barePool = new pg.Pool({ connectionString: settings.databaseUrl, max: 10 });
  hello.get('/one-query', async () => (await barePool.query({ name: 'ten-orders', text: 'SELECT * FROM read.orders ORDER BY created_at DESC LIMIT 10' })).rows);
  const loader = await LoadGenerator.start();
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  try {
    const helloUrl = await hello.listen({ port: 0, host: '127.0.0.1' });
    // `cpu` reads what the serving processes have spent, before and after the measured run (not the warm-up).
    const measure = async (
      label: string,
      url: string,
      targets?: ReadTarget[],
      seconds = settings.seconds,
      warmup = settings.warmupSeconds,
      cpu?: () => CpuReading | undefined,
    ) => {
      log(`  ${label}: warm-up ${warmup} s, then ${seconds} s with ${settings.connections} connections`);
      const job = { url, method: 'GET' as const, connections: settings.connections, targets: targets?.map(({ path, headers }) => ({ path, headers })) };
      if (warmup > 0) await loader.run({ ...job, seconds: warmup });
      const before = cpu?.();
      const result = await loader.run({ ...job, seconds });
      return { ...result, cpu: cpu && cpuPerAnswer(before, cpu(), result.responses) };
    };
    // The ceiling is measured before the first mix and after the last, with no API running; the higher
    // of the two divides every figure, so a slow moment of the machine cannot flatter a ratio.
    const hellos: LoadResult[] = [];
    const measureHello = async () => hellos.push(await measure('hello world', `${helloUrl}/hello`));

    api = await startApi(settings, seeded.prefix, jwtSecret, { processes: 1, keptAnswers: false });
    log('  finding the URLs each role reads (every GET route of the OpenAPI document)');
    const workload: ReadWorkload = await readWorkload(api.baseUrl);
    await measureHello();
    const oneQueryBytes = (await (await fetch(`${helloUrl}/one-query`)).arrayBuffer()).byteLength;
    const { cpu: oneQueryCpu, ...oneQuery } = await measure(
      'bare route, one query of 10 orders',
      `${helloUrl}/one-query`,
      undefined,
      settings.seconds,
      settings.warmupSeconds,
      readOwnCpu,
    );
    const roles: Record<string, number> = {};
    for (const target of workload.targets) roles[target.role] = (roles[target.role] ?? 0) + 1;
    log(`  ${workload.targets.length} URLs on ${workload.routes.filter((r) => r.urls).length} of ${workload.routes.length} GET routes`);

    const mixes: MixRun[] = [];
    const mix = async (name: string, variant: Omit<MixRun, 'name' | 'result' | 'ofHello' | 'warmup'>, goal?: number) => {
      const warmupSeconds = settings.mixWarmupSeconds;
      const first = warmupSeconds > 0 ? await measure(`${name}, first ${warmupSeconds} s`, api!.baseUrl, workload.targets, warmupSeconds, 0) : undefined;
      const { cpu, ...result } = await measure(name, api!.baseUrl, workload.targets, settings.seconds, 0, () => readCpu(api!.pid));
      const warmup = first && { seconds: warmupSeconds, requestsPerSecond: first.requestsPerSecond, ofHello: 0 };
      mixes.push({ name, ...variant, result, ofHello: 0, goal, ...(warmup ? { warmup } : {}), ...(cpu ? { cpu } : {}) });
      log(`    ${formatRate(result.requestsPerSecond)}, ${errorsOf(result)} non-2xx`);
      return mixes.at(-1)!;
    };
    await mix('mix', { processes: 1, keptAnswers: false, commandsPerSecond: 0 }, MIX_GOAL);

    const tokens = {
      partner: await signInForBench(api.baseUrl, 'partner@partnerhub.test'),
      distributor: await signInForBench(api.baseUrl, 'distributor@partnerhub.test'),
    };
    const writer = commandsMeanwhile(api.baseUrl, tokens, settings.commandsPerSecond);
    const withCommands = await mix(
      `mix, ${settings.commandsPerSecond} commands/s`,
      { processes: 1, keptAnswers: false, commandsPerSecond: settings.commandsPerSecond },
      MIX_WITH_COMMANDS_GOAL,
    ).finally(() => writer.stop());
    withCommands.commands = { ...writer.counts };

    // Each route alone, on the same single process without kept answers.
    const routes: RouteRun[] = [];
    for (const { route, urls, unmeasured } of workload.routes) {
      const targets = workload.targets.filter((t) => t.route === route);
      if (!targets.length || settings.routeSeconds === 0) {
        routes.push({ route, urls, unmeasured: unmeasured ?? 'BENCH_ROUTE_SECONDS=0' });
        continue;
      }
      if (settings.routeFilter && !route.includes(settings.routeFilter)) {
        routes.push({ route, urls, unmeasured: `not in BENCH_ROUTES=${settings.routeFilter}` });
        continue;
      }
      const { cpu, ...result } = await measure(route, api.baseUrl, targets, settings.routeSeconds, settings.routeWarmupSeconds, () => readCpu(api!.pid));
      routes.push({ route, urls, result, ...(cpu ? { cpu } : {}) });
    }
    await api.stop();

    api = await startApi(settings, seeded.prefix, jwtSecret, { processes: 1, keptAnswers: true });
    await everyUrlOnce(api.baseUrl, workload.targets);
    await mix('mix, kept answers on', { processes: 1, keptAnswers: true, commandsPerSecond: 0 });
    await api.stop();

    api = await startApi(settings, seeded.prefix, jwtSecret, { processes: 2, keptAnswers: false });
    await everyUrlOnce(api.baseUrl, workload.targets);
    await mix('mix, 2 API processes', { processes: 2, keptAnswers: false, commandsPerSecond: 0 });
    await api.stop();
    await measureHello();
    await hello.close();

    const ceiling = hellos.reduce((best, h) => (h.requestsPerSecond > best.requestsPerSecond ? h : best));
    const ofHello = (result: LoadResult) => result.requestsPerSecond / ceiling.requestsPerSecond;
    for (const run of [...mixes, ...routes]) if (run.result) run.ofHello = ofHello(run.result);
    for (const run of mixes) if (run.warmup) run.warmup.ofHello = run.warmup.requestsPerSecond / ceiling.requestsPerSecond;
    routes.sort((a, b) => (a.ofHello ?? Infinity) - (b.ofHello ?? Infinity));
    return {
      connections: settings.connections,
      urls: workload.targets.length,
      routesWithUrls: workload.routes.filter((r) => r.urls).length,
      roles,
      hello: ceiling,
      hellos: hellos.map((h) => h.requestsPerSecond),
      routeWarmupSeconds: settings.routeWarmupSeconds,
      oneQuery: { result: oneQuery, ofHello: ofHello(oneQuery), bytes: oneQueryBytes, ...(oneQueryCpu ? { cpu: oneQueryCpu } : {}) },
      mixes,
      routes,
    };
  } catch (error) {
    const printed = api?.output().trim();
    throw new Error(`${(error as Error).message}${printed ? `\n   the API printed:\n${printed}` : ''}`, { cause: error });
  } finally {
    await api?.stop().catch(() => {});
    await loader.stop();
    await hello.close().catch(() => {});
    await barePool.end().catch(() => {});
    await seeded.stop();
  }
}

const errorsOf = (result: LoadResult) => result.non2xx + result.errors;

/** Microseconds of CPU, or nothing when they were not measured. */
const formatMicros = (micros: number | undefined): string => (micros === undefined ? '' : `${formatCount(Math.round(micros))} µs`);

export function readMixTable(section: ReadMixSection): string {
  const mixRow = (m: MixRun): Cell[] => [
    m.name,
    m.processes,
    m.keptAnswers ? 'on' : 'off',
    formatRate(m.result.requestsPerSecond),
    formatPercent(m.ofHello),
    m.goal === undefined ? '' : `>= ${formatPercent(m.goal)} ${m.ofHello >= m.goal ? 'met' : 'MISSED'}`,
    formatMs(m.result.latency.p50),
    formatMs(m.result.latency.p95),
    formatMs(m.result.latency.p99),
    formatCount(m.result.responses),
    formatCount(errorsOf(m.result)),
    m.warmup ? `${formatRate(m.warmup.requestsPerSecond)} (${formatPercent(m.warmup.ofHello)})` : '',
    formatMicros(m.cpu?.api),
    formatMicros(m.cpu?.postgres),
  ];
  const routeRow = (r: RouteRun): Cell[] =>
    r.result
      ? [
          r.route,
          r.urls,
          formatRate(r.result.requestsPerSecond),
          formatPercent(r.ofHello!),
          r.ofHello! >= ROUTE_GOAL ? 'met' : 'MISSED',
          formatMs(r.result.latency.p50),
          formatMs(r.result.latency.p95),
          formatCount(errorsOf(r.result)),
          formatMicros(r.cpu?.api),
          formatMicros(r.cpu?.postgres),
        ]
      : [r.route, r.urls, '', '', `not measured: ${r.unmeasured}`, '', '', '', '', ''];
  const commands = section.mixes.find((m) => m.commands)?.commands;
  const measured = section.routes.filter((r) => r.result);
  return [
    renderTable(
      `Reads: the realistic mix (${formatCount(section.urls)} URLs on ${section.routesWithUrls} GET routes, five roles, drawn at random)`,
      [
        'variant',
        'API processes',
        'kept answers',
        'req/s',
        'of hello',
        'goal',
        'p50',
        'p95',
        'p99',
        'responses',
        'non-2xx+errors',
        'first seconds (warm-up)',
        'API CPU/answer',
        'Postgres CPU/answer',
      ],
      section.mixes.map(mixRow),
    ),
    ...(section.mixes[0]?.warmup
      ? [
          `   each mix is measured after ${section.mixes[0].warmup.seconds} s of the same requests (the last column: their rate), as on an API that has been serving: a new process's connections plan each statement afresh for its first runs`,
        ]
      : []),
    `   hello world (bare Fastify, one process, ${section.connections} connections): ${section.hellos.map(formatRate).join(' before, ')} after; ratios divide by the higher`,
    `   bare Fastify route with one pg query of 10 orders (${formatCount(section.oneQuery.bytes)} bytes of JSON): ${formatRate(section.oneQuery.result.requestsPerSecond)}, ${formatPercent(section.oneQuery.ofHello)} of hello; the mix is ${formatPercent(section.mixes[0].ofHello / section.oneQuery.ofHello)} of it${section.oneQuery.cpu ? `; it costs ${formatMicros(section.oneQuery.cpu.api)} of Node and ${formatMicros(section.oneQuery.cpu.postgres)} of Postgres CPU per answer` : ''}`,
    ...(section.mixes.some((m) => m.cpu)
      ? [
          "   CPU/answer: CPU time the API's processes and every Postgres process of this machine spent in the measured run, divided by its answers (from /proc; a busy machine moves it far less than a rate)",
        ]
      : []),
    `   URLs per role: ${Object.entries(section.roles)
      .map(([role, n]) => `${role} ${n}`)
      .join(', ')}`,
    ...(commands
      ? [`   commands during the mix: ${commands.sent} sent, ${commands.failed} refused${commands.firstFailure ? ` (first: ${commands.firstFailure})` : ''}`]
      : []),
    '',
    renderTable(
      `Reads: every GET route alone, its own URLs drawn at random after ${section.routeWarmupSeconds} s of them (one API process, no kept answers; goal >= ${formatPercent(ROUTE_GOAL)} of hello), slowest first`,
      ['route', 'URLs', 'req/s', 'of hello', 'goal', 'p50', 'p95', 'non-2xx+errors', 'API CPU/answer', 'Postgres CPU/answer'],
      section.routes.map(routeRow),
    ),
    `   ${measured.filter((r) => r.ofHello! >= ROUTE_GOAL).length} of ${measured.length} measured routes meet the goal; ${section.routes.length - measured.length} routes not measured`,
  ].join('\n');
}

export function runReadMixSection(settings: ReadMixSettings, log: (line: string) => void, results: { errors: Record<string, string> }): Promise<string[]> {
  return runReportedSection(
    'reads',
    'Reads: the realistic mix, 1 and 2 API processes, and every GET route',
    () => runReadMix(settings, log),
    readMixTable,
    log,
    results,
  );
}
