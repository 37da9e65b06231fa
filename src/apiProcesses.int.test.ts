import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { get } from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './testing/database';
import { freePort } from './testing/freePort';
import { DEMO_PASSWORD } from './seed/identity';

/**
 * `npm start` with API_PROCESSES=2, as a user runs it: one port, two API processes behind it (the
 * projector and workers in the first process), a session that works whichever process answers, an API
 * process that dies replaced without a failed request, and everything gone after SIGTERM.
 */
let db: TestDatabase;
let portal: ChildProcess;
let baseUrl: string;
let output = '';

/** The node processes started by the portal's first process: its API processes (esbuild's helper left out). */
function apiProcessPids(): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(portal.pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .filter((pid) => execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).includes('main.ts'));
  } catch {
    return [];
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 120_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await Promise.resolve(probe()).catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() - started > ms) throw new Error(`${what} did not happen within ${ms} ms. Output:\n${output.slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  // `node --import tsx` rather than the tsx binary, so the portal's first process is this child itself.
  portal = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      API_PROCESSES: '2',
      SERVE_WEB: 'false',
      DEMO_HISTORY_DAYS: '0',
      LOG_LEVEL: 'silent',
      REDIS_PREFIX: `processes-${randomBytes(4).toString('hex')}`,
      NODE_ENV: 'test',
      JWT_SECRET: '',
      SMTP_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  portal.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  portal.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await until('the portal saying it runs in 2 API processes', () => (output.includes('in 2 API processes') ? true : undefined), 240_000);
});

afterAll(async () => {
  if (portal && portal.exitCode === null) {
    portal.kill('SIGKILL');
    for (const pid of apiProcessPids()) process.kill(pid, 'SIGKILL');
  }
  await db?.drop();
});

async function signIn(): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@partnerhub.test', password: DEMO_PASSWORD }),
  });
  const body = (await response.json()) as { accessToken: string };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.accessToken;
}

/** One order-list read on a new connection (a killed process takes its open connections with it). */
const readOnce = (url: string, token: string) =>
  new Promise<number>((resolve, reject) => {
    const request = get(url, { agent: false, headers: { authorization: `Bearer ${token}` }, timeout: 5_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 5 s')));
    request.on('error', reject);
  });

/**
 * Statuses of `count` order-list reads. A connection the cluster handed to a process in the instant it
 * died is lost with it, as with any crash: a client retries that once, as browsers and load balancers do.
 */
const statusesOf = async (token: string, count: number) =>
  Promise.all(
    Array.from({ length: count }, (_, i) => {
      const url = `${baseUrl}/api/orders?page=${1 + (i % 3)}&limit=10`;
      return readOnce(url, token).catch(() => readOnce(url, token));
    }),
  );

describe('API_PROCESSES=2', () => {
  it('serves one port from two API processes, and a session works whichever answers', async () => {
    expect(apiProcessPids()).toHaveLength(2);
    // A development secret is made by the first process and shared: a token signed by one process is good in the other.
    const token = await signIn();
    const statuses = await statusesOf(token, 40);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  it('replaces an API process that dies, and the other answers meanwhile', { timeout: 180_000 }, async () => {
    const [victim, survivor] = apiProcessPids();
    const token = await signIn();
    process.kill(victim, 'SIGKILL');
    expect((await statusesOf(token, 10)).filter((status) => status !== 200)).toEqual([]);
    const replaced = await until('a new API process', () => {
      const pids = apiProcessPids();
      return pids.length === 2 && !pids.includes(victim) ? pids : undefined;
    });
    expect(replaced).toContain(survivor);
    expect(output).toContain(`API process ${victim} ended`);
    expect((await statusesOf(token, 20)).filter((status) => status !== 200)).toEqual([]);
  });

  it('stops every process on SIGTERM', async () => {
    const pids = apiProcessPids();
    portal.kill('SIGTERM');
    const [code] = (await once(portal, 'exit')) as [number | null];
    expect(code).toBe(0);
    const alive = pids.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  });
});
