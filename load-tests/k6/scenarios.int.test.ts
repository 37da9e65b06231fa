/**
 * Every k6 scenario runs for a few seconds against a test portal, so a script that no longer matches
 * the API fails here. Latency thresholds are reported, not asserted (a shared CI box is no place for
 * timing); what is asserted is that each script loads, its setup works, journeys run without
 * exceptions, every check passes and no request fails; and that the read mix requests many distinct
 * addresses across many routes. A deliberately broken scenario must make the runner (and `npm run load`)
 * exit non-zero.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from '../../src/testing/portal';
import { LOAD_TEST_LIMITS } from '../bench/limits';
import { EXIT_THRESHOLDS_CROSSED, runK6Script, type RunResult } from '../runner/run';

const here = import.meta.dirname;
const SCENARIOS = readdirSync(here)
  .filter((name) => name.endsWith('.js'))
  .sort();
const READ_MIX = 'read-mix.js';
const uploadDir = path.join(os.tmpdir(), `partnerhub-k6-uploads-${Date.now()}`);

let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal({ listen: true, processes: ['api', 'projector'], env: { ...LOAD_TEST_LIMITS, UPLOAD_DIR: uploadDir } });
});
afterAll(async () => {
  await t?.close();
  await rm(uploadDir, { recursive: true, force: true });
});

// A short, light run (other test files share the machine): a journey a second for three seconds, few VUs, no think time.
const briefly = () => ({
  BASE_URL: t.url,
  DURATION: '3s',
  RATE: '1',
  VUS: '1',
  MAX_VUS: '3',
  THINK_SECONDS: '0',
  LIST_VUS: '2',
  LOGIN_RATE: '1',
  RAMP: '1s',
  RAMP_DOWN: '1s',
});

/** Runs a scenario briefly (plus `env`), prints its counts and thresholds, and answers its result and a report for failed expectations. */
async function runBriefly(scenario: string, env: Record<string, string> = {}): Promise<{ result: RunResult; report: string }> {
  const lines: string[] = [];
  const result = await runK6Script(path.join(here, scenario), { env: { ...briefly(), ...env }, log: (line) => lines.push(line) });
  // Timing thresholds are the machine's business here: printed, not asserted.
  console.log(
    `${scenario}: ${result.iterations} iterations, ${result.requests} requests; thresholds ${result.thresholds.map((th) => `${th.ok ? 'held' : 'CROSSED'} ${th.key} ${th.expression}`).join('; ')}`,
  );
  return { result, report: `${lines.join('\n')}\n${result.summary}` };
}

/** The script loaded, its setup worked, iterations ran without exceptions, every check passed and no request failed. */
function expectCleanRun({ result, report }: { result: RunResult; report: string }) {
  expect([0, EXIT_THRESHOLDS_CROSSED], report).toContain(result.exitCode);
  expect(result.iterationErrors.count, report).toBe(0);
  expect(result.iterations, report).toBeGreaterThan(0);
  const failed = result.metrics.samplesOf('http_req_failed').filter((sample) => sample.value);
  expect(
    failed.map(({ tags }) => `${tags.status} ${tags.method} ${tags.url}`),
    report,
  ).toEqual([]);
  expect(result.checks.passes, report).toBeGreaterThan(0);
  expect(result.checks.fails, report).toBe(0);
}

describe('k6 scenarios against a test portal', () => {
  it('finds the scenarios', () => {
    expect(SCENARIOS).toEqual(
      expect.arrayContaining([
        'catalogue-and-orders.js',
        'order-queue.js',
        'partner-onboarding.js',
        'deal-registration.js',
        'rebates.js',
        'tickets.js',
        'monday-morning.js',
        'login-and-list.js',
        READ_MIX,
      ]),
    );
  });

  it.each(SCENARIOS.filter((scenario) => scenario !== READ_MIX))(
    '%s runs: checks pass, no request fails, thresholds reported',
    async (scenario) => {
      expectCleanRun(await runBriefly(scenario));
    },
    60_000,
  );

  it(`${READ_MIX} reads many distinct addresses across many routes while tickets change, and every answer is 200`, async () => {
    // A screen is one or a few reads, so the mix needs more arrivals than a journey a second to show its spread.
    const run = await runBriefly(READ_MIX, { RATE: '30', DURATION: '6s', VUS: '4', MAX_VUS: '10', WRITE_RATE: '2', SESSIONS: '2' });
    expectCleanRun(run);
    const requests = run.result.metrics.samplesOf('http_reqs');
    const reads = requests.filter(({ tags }) => tags.scenario === 'reads' && tags.type === 'read');
    const addresses = new Set(reads.map(({ tags }) => tags.url));
    const routes = new Set(reads.map(({ tags }) => tags.name));
    console.log(`${READ_MIX}: ${reads.length} reads, ${addresses.size} distinct addresses, ${routes.size} routes`);
    expect(addresses.size, run.report).toBeGreaterThanOrEqual(100);
    expect(routes.size, run.report).toBeGreaterThanOrEqual(15);
    // Requests are named by route template, never by address: no name holds an id or a query.
    expect([...routes].filter((name) => /\?|[0-9a-f]{8}-[0-9a-f]{4}-/.test(name))).toEqual([]);
    expect(requests.filter(({ tags }) => tags.scenario === 'writes' && tags.type === 'command').length, run.report).toBeGreaterThan(0);
  }, 90_000);
});

describe('a broken scenario', () => {
  const broken = path.join(here, '../runner/fixtures/broken-check.js');

  it('crosses its checks threshold: exit 99 and the summary says so', async () => {
    const result = await runK6Script(broken, { env: { BASE_URL: t.url, DURATION: '1s' }, log: () => {} });
    expect(result.exitCode).toBe(EXIT_THRESHOLDS_CROSSED);
    expect(result.checks.fails).toBeGreaterThan(0);
    expect(result.summary).toContain("thresholds on metrics 'checks' have been crossed");
  });

  it('makes `npm run load` exit non-zero', async () => {
    // Asynchronously: the portal under test shares this process's event loop.
    const cli = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(here, '../runner/cli.ts'), broken, '-e', `BASE_URL=${t.url}`, '-e', 'DURATION=1s'],
      {
        env: { ...process.env, LOAD_RUNNER: 'node' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    ).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(cli.code, cli.stdout).toBe(EXIT_THRESHOLDS_CROSSED);
    expect(cli.stdout).toContain('✗ health: answers 418 (it never does)');
  }, 60_000);

  it('a script that does not load exits 107', async () => {
    const result = await runK6Script(path.join(here, '../runner/fixtures/missing.js'), { log: () => {} });
    expect(result.exitCode).toBe(107);
  });
});
