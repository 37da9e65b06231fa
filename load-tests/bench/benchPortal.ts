import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config';
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
 * A portal (API and projector) on the bench database, seeded with the demo data, on a random port,
 * with its own Redis prefix and the protective limits raised (limits.ts).
 */
export async function startBenchPortal(settings: { databaseUrl: string; redisUrl?: string }): Promise<BenchPortal> {
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
    SMTP_URL: undefined,
    EVENTSTORE_URL: undefined,
  });
  const portal = await startPortal(config, { processes: ['api', 'projector'], seedWhenEmpty: true, listen: true, app: { logger: false } });
  return {
    portal,
    baseUrl: portal.url!.replace('0.0.0.0', '127.0.0.1'),
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
  const response = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: DEMO_PASSWORD }) });
  const body = (await response.json()) as { accessToken?: string };
  if (response.status !== 200 || !body.accessToken) throw new Error(`${email} could not sign in (HTTP ${response.status}).`);
  return body.accessToken;
}

/** One API call with a bearer token: JSON or multipart (FormData) body, the answer's status and JSON. */
export async function callApi(baseUrl: string, token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as any) : null };
}
