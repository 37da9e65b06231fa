/**
 * Every k6 scenario runs for a few seconds against a test portal, so a script that no longer matches
 * the API fails here. Latency thresholds are reported, not asserted (a shared CI box is no place for
 * timing); what is asserted is that each script loads, its setup works, journeys run without
 * exceptions, every check passes and no request fails. A deliberately broken scenario must make the
 * runner (and `npm run load`) exit non-zero.
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
import { EXIT_THRESHOLDS_CROSSED, runK6Script } from '../runner/run';

const here = import.meta.dirname;
const SCENARIOS = readdirSync(here)
  .filter((name) => name.endsWith('.js'))
  .sort();
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
      ]),
    );
  });

  it.each(SCENARIOS)(
    '%s runs: checks pass, no request fails, thresholds reported',
    async (scenario) => {
      const lines: string[] = [];
      const result = await runK6Script(path.join(here, scenario), { env: briefly(), log: (line) => lines.push(line) });
      const report = `${lines.join('\n')}\n${result.summary}`;
      // Timing thresholds are the machine's business here: printed, not asserted.
      console.log(
        `${scenario}: ${result.iterations} iterations, ${result.requests} requests; thresholds ${result.thresholds.map((th) => `${th.ok ? 'held' : 'CROSSED'} ${th.key} ${th.expression}`).join('; ')}`,
      );
      expect([0, EXIT_THRESHOLDS_CROSSED], report).toContain(result.exitCode);
      expect(result.iterationErrors.count, report).toBe(0);
      expect(result.iterations, report).toBeGreaterThan(0);
      expect(result.checks.passes, report).toBeGreaterThan(0);
      expect(result.checks.fails, report).toBe(0);
      expect(result.metrics.values('http_req_failed').filter(Boolean).length, report).toBe(0);
    },
    60_000,
  );
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
