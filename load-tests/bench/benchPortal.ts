import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../platform/config';
import { startPortal, type Portal } from '../../src/portal';
import { DEMO_PASSWORD } from '../../src/seed/identity';
import { LOAD_TEST_LIMITS } from './limits';

export interface BenchPortal {
  portal: Portal;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** This run's Redis prefix, also handy to make names unique. */
  prefix: string;
  /** Stops the portal and removes this run's Redis keys. */
  stop(): Promise<void>;
}

/**
 * A portal (API and projector unless `processes` says otherwise) on the bench database, seeded with
 * the demo data, on a random port, with its own Redis prefix and the protective limits raised
 * (limits.ts). `answerCache: false` makes every read go to the database (AnswerCache turned off).
 */
export async function startBenchPortal(
  settings: { databaseUrl: string; redisUrl?: string },
  options: { processes?: Array<'api' | 'projector'>; answerCache?: boolean } = {},
): Promise<BenchPortal> {
  const prefix = `bench-${randomBytes(4).toString('hex')}`;
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: settings.databaseUrl,
    ...(settings.redisUrl ? { REDIS_URL: settings.redisUrl } : {}),
    REDIS_PREFIX: prefix,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    JWT_SECRET: randomBytes(48).toString('base64url'),
    ...LOAD_TEST_LIMITS,
    // The recent demo records only: the bench's own data sets the scale it measures.
    DEMO_HISTORY_DAYS: '0',
    SMTP_URL: undefined,
    EVENTSTORE_URL: undefined,
    ...(options.answerCache === false ? { ANSWER_CACHE_ENTRIES: '0' } : {}),
  });
  const portal = await startPortal(config, { processes: options.processes ?? ['api', 'projector'], seedWhenEmpty: true, listen: true, app: { logger: false } });
  return {
    portal,
    // A portal without the API (the projector alone, say) has no address.
    baseUrl: portal.url?.replace('0.0.0.0', '127.0.0.1') ?? '',
    prefix,
    async stop() {
      const keys = await portal.services.redis.keys(`${prefix}*`).catch(() => [] as string[]);
      if (keys.length) await portal.services.redis.del(...keys).catch(() => {});
      await portal.stop();
    },
  };
}

/** A demo account's access token. */
export async function signInForBench(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const text = await response.text();
  const body = (response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : {}) as { accessToken?: string };
  if (response.status !== 200 || !body.accessToken) throw new Error(`${email} could not sign in (HTTP ${response.status}: ${text.slice(0, 300)}).`);
  return body.accessToken;
}

/** One API call with a bearer token: JSON or multipart (FormData) body, the answer's status and JSON. */
export async function callApi(baseUrl: string, token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as any) : null };
}

/** Errors and timings of one measured run of commands; more than 100 errors end the run. */
export class CommandMeter {
  errors = 0;
  firstError: string | undefined;

  fail(message: string): void {
    this.errors++;
    this.firstError ??= message;
    if (this.errors > 100) throw new Error(`Too many errors; the first: ${this.firstError}`);
  }

  /** Runs the work and adds its duration (ms) to `latencies`. */
  async timed<T>(latencies: number[], work: () => Promise<T>): Promise<T> {
    const began = performance.now();
    const result = await work();
    latencies.push(performance.now() - began);
    return result;
  }
}

/** Runs one section for `npm run bench`: logs its table, records its result (or why it failed) and returns the table for the report. */
export async function runReportedSection<Section>(
  name: string,
  title: string,
  measure: () => Promise<Section>,
  table: (section: Section) => string,
  log: (line: string) => void,
  results: { errors: Record<string, string> },
): Promise<string[]> {
  log(title);
  try {
    const section = await measure();
    Object.assign(results, { [name]: section });
    const rendered = table(section);
    log(`\n${rendered}\n`);
    return [rendered];
  } catch (error) {
    results.errors[name] = (error as Error).message;
    log(`   ${name} section failed: ${(error as Error).message}\n`);
    return [];
  }
}

/**
 * Reads `path` as `token` until `listed` finds the record just accepted, and answers how long that
 * took from `acceptedAt` (ms); undefined, with `fail` told, when it is not there within 10 s.
 */
export async function untilListed(
  baseUrl: string,
  token: string,
  path: string,
  listed: (data: Record<string, unknown>) => boolean,
  acceptedAt: number,
  fail: (message: string) => void,
  what: string,
): Promise<number | undefined> {
  for (;;) {
    const answer = await callApi(baseUrl, token, 'GET', path);
    if (answer.status === 200 && listed(answer.json.data)) return performance.now() - acceptedAt;
    if (performance.now() - acceptedAt > 10_000) {
      fail(`${what} was not listed within 10 s.`);
      return undefined;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A command bench's two runs: a warm-up whose figures are dropped, then the measured run. */
export async function warmedUp<Measured>(
  settings: { warmupSeconds: number; seconds: number; clients: number },
  run: (seconds: number, record: boolean) => Promise<Measured | undefined>,
  log: (line: string) => void,
): Promise<Measured> {
  if (settings.warmupSeconds > 0) {
    log(`  warm-up ${settings.warmupSeconds} s`);
    await run(settings.warmupSeconds, false);
  }
  log(`  ${settings.seconds} s with ${settings.clients} clients`);
  const measured = await run(settings.seconds, true);
  if (!measured) throw new Error('The measured run recorded nothing.');
  return measured;
}
