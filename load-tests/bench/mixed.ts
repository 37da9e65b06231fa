/**
 * Section "mixed": the Monday-morning k6 scenario (load-tests/k6/monday-morning.js, every journey in
 * its share) run by the Node k6 runner against the bench portal. First short probes at doubling
 * arrival rates find the highest rate the machine sustains (every journey started on time, under 1%
 * failed requests, all finished within 10 s of the last arrival); then the scenario runs at half that rate and the table shows, per request type,
 * the rate, p50/p95/p99, errors and whether its threshold (reads p95 < 200 ms, commands < 300 ms,
 * sign-in and registration < 800 ms) holds. The VUs are worker threads of the bench process; their
 * requests leave from its main thread, which the portal shares.
 */
import { fileURLToPath } from 'node:url';
import { percentile } from '../runner/metrics';
import { runK6Script, type RunResult } from '../runner/run';
import { runReportedSection, startBenchPortal } from './benchPortal';
import { formatCount, formatMs, formatPercent, renderTable } from './reportTables';

const SCRIPT = fileURLToPath(new URL('../k6/monday-morning.js', import.meta.url));
const BUDGET_MS: Record<string, number> = { read: 200, command: 300, auth: 800 };

export interface MixedSettings {
  databaseUrl: string;
  redisUrl: string | undefined;
  seconds: number;
  probeSeconds: number;
  /** The first probe's rate (journeys per second); each next probe doubles it. */
  startRate: number;
  maxRate: number;
}

interface RequestRow {
  name: string;
  type: string;
  count: number;
  rate: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  held: boolean | undefined;
}

export interface MixedSection {
  probes: Array<{ rate: number; sustained: boolean; started: number; dropped: number; failed: number; reason: string }>;
  highestRate: number;
  rate: number;
  seconds: number;
  iterations: number;
  dropped: number;
  checks: { passes: number; fails: number };
  thresholds: Array<{ key: string; expression: string; ok: boolean }>;
  requests: RequestRow[];
}

const run = (baseUrl: string, rate: number, seconds: number) =>
  runK6Script(SCRIPT, {
    env: { BASE_URL: baseUrl, RATE: String(rate), DURATION: `${seconds}s`, THINK_SECONDS: '0', MAX_VUS: String(Math.max(8, Math.ceil(rate * 6))) },
    log: () => {},
  });

/** Journeys must keep up: started on time, under 1% failed requests, and all done within DRAIN_SECONDS of the last arrival. */
const DRAIN_SECONDS = 10;

function sustained(result: RunResult, seconds: number): { ok: boolean; started: number; dropped: number; failed: number; reason: string } {
  const dropped = result.metrics.values('dropped_iterations').length;
  const started = result.iterations;
  const failures = result.metrics.values('http_req_failed');
  const failed = failures.length ? failures.filter(Boolean).length / failures.length : 0;
  const reason = result.iterationErrors.count
    ? `iteration errors (${result.iterationErrors.first[0]})`
    : dropped > 0.01 * (started + dropped)
      ? `${dropped} journeys not started on time`
      : failed >= 0.01
        ? `${formatPercent(failed)} failed requests`
        : result.seconds > seconds + DRAIN_SECONDS
          ? `journeys still running ${(result.seconds - seconds).toFixed(0)} s after the last arrival`
          : '';
  return { ok: !reason, started, dropped, failed, reason };
}

export async function runMixedBench(settings: MixedSettings, log: (line: string) => void): Promise<MixedSection> {
  const bench = await startBenchPortal(settings);
  try {
    const probes: MixedSection['probes'] = [];
    let highestRate = 0;
    for (let rate = settings.startRate; rate <= settings.maxRate; rate *= 2) {
      const verdict = sustained(await run(bench.baseUrl, rate, settings.probeSeconds), settings.probeSeconds);
      probes.push({ rate, sustained: verdict.ok, started: verdict.started, dropped: verdict.dropped, failed: verdict.failed, reason: verdict.reason });
      log(`  probe ${rate} journeys/s for ${settings.probeSeconds} s: ${verdict.ok ? 'sustained' : `not sustained (${verdict.reason})`}`);
      if (!verdict.ok) break;
      highestRate = rate;
    }
    const rate = Math.max(settings.startRate / 2, highestRate / 2);
    log(`  the Monday-morning mix at ${rate} journeys/s for ${settings.seconds} s`);
    const result = await run(bench.baseUrl, rate, settings.seconds);
    const byName = new Map<string, { type: string; durations: number[]; errors: number }>();
    const durations = result.metrics.samplesOf('http_req_duration');
    for (const sample of durations) {
      const key = sample.tags.name;
      const row = byName.get(key) ?? { type: sample.tags.type ?? '', durations: [], errors: 0 };
      row.durations.push(sample.value);
      if (sample.tags.expected_response === 'false') row.errors++;
      byName.set(key, row);
    }
    const requests = [...byName].map(([name, row]): RequestRow => {
      const sorted = [...row.durations].sort((a, b) => a - b);
      const p95 = percentile(sorted, 95);
      return {
        name,
        type: row.type,
        count: sorted.length,
        rate: sorted.length / settings.seconds,
        p50: percentile(sorted, 50),
        p95,
        p99: percentile(sorted, 99),
        errors: row.errors,
        held: BUDGET_MS[row.type] === undefined ? undefined : p95 < BUDGET_MS[row.type],
      };
    });
    requests.sort((a, b) => a.type.localeCompare(b.type) || b.count - a.count);
    return {
      probes,
      highestRate,
      rate,
      seconds: settings.seconds,
      iterations: result.iterations,
      dropped: result.metrics.values('dropped_iterations').length,
      checks: result.checks,
      thresholds: result.thresholds.map((t) => ({ key: t.key, expression: t.expression, ok: t.ok })),
      requests,
    };
  } finally {
    await bench.stop();
  }
}

export function mixedTable(section: MixedSection): string {
  return [
    renderTable(
      `Monday morning (k6 scenario, Node runner): ${section.rate} journeys/s = half of the highest sustained ${section.highestRate || 'n/a'} journeys/s`,
      ['request', 'type', 'count', 'rate', 'p50', 'p95', 'p99', 'errors', 'p95 threshold'],
      section.requests.map((r) => [
        r.name,
        r.type,
        formatCount(r.count),
        `${r.rate.toFixed(2)}/s`,
        formatMs(r.p50),
        formatMs(r.p95),
        formatMs(r.p99),
        r.errors,
        r.held === undefined ? '' : `${r.held ? 'holds' : 'MISSED'} (< ${BUDGET_MS[r.type]} ms)`,
      ]),
    ),
    `   thresholds of the run: ${section.thresholds.map((t) => `${t.key} ${t.expression} ${t.ok ? 'holds' : 'MISSED'}`).join('; ')}`,
    `   ${formatCount(section.iterations)} journeys in ${section.seconds} s, ${section.dropped} not started on time; checks ${section.checks.passes} passed, ${section.checks.fails} failed`,
    `   probes: ${section.probes.map((p) => `${p.rate}/s ${p.sustained ? 'sustained' : `not sustained (${p.reason})`}`).join('; ')}`,
  ].join('\n');
}

export function runMixedSection(settings: MixedSettings, log: (line: string) => void, results: { errors: Record<string, string> }): Promise<string[]> {
  return runReportedSection(
    'mixed',
    'Mixed: the Monday-morning k6 scenario at half the highest sustained arrival rate',
    () => runMixedBench(settings, log),
    mixedTable,
    log,
    results,
  );
}
