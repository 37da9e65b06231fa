import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { DEMO_PASSWORD } from '../../src/seed/identity';
import { startBenchPortal } from './benchPortal';
import type { LoadJob, LoadResult } from './httpLoader';

export interface HttpSettings {
  databaseUrl: string;
  redisUrl: string | undefined;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  loginConnections: number;
}

export interface HttpMeasurement {
  name: string;
  request: string;
  connections: number;
  result: LoadResult;
}

export interface HttpSection {
  loadGenerator: string;
  login: HttpMeasurement;
  list: HttpMeasurement;
  hello: HttpMeasurement;
  /** Requests per second of the user list divided by those of the bare hello-world route. */
  listToHello: number;
}

const ADMIN_EMAIL = 'admin@partnerhub.test';

/** The autocannon child process; one job at a time. */
class LoadGenerator {
  private constructor(private readonly child: ChildProcess) {}

  static async start(): Promise<LoadGenerator> {
    // The child inherits this process's execArgv, i.e. the tsx loader that runs the bench.
    const child = fork(fileURLToPath(new URL('./httpLoader.ts', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`The load generator exited early (code ${code}).`)));
    });
    child.removeAllListeners('exit');
    return new LoadGenerator(child);
  }

  run(job: Omit<LoadJob, 'kind'>): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      this.child.once('message', (message: LoadResult | { kind: 'error'; message: string }) => {
        if (message.kind === 'result') resolve(message);
        else reject(new Error(`Load generator: ${message.message}`));
      });
      this.child.send({ kind: 'load', ...job } satisfies LoadJob);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.send({ kind: 'exit' });
    const timer = setTimeout(() => this.child.kill(), 2000);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * Section 1: the portal (API and projector, demo data seeded) on a random port, a bare Fastify
 * hello-world on another, and autocannon in a child process driving each in turn.
 */
export async function runHttpSection(settings: HttpSettings, log: (line: string) => void): Promise<HttpSection> {
  const bench = await startBenchPortal(settings);
  const { baseUrl } = bench;
  const hello = Fastify({ logger: false });
  hello.get('/hello', async () => ({ hello: 'world' }));
  let loader: LoadGenerator | undefined;
  try {
    const helloUrl = await hello.listen({ port: 0, host: '127.0.0.1' });
    const loginBody = JSON.stringify({ email: ADMIN_EMAIL, password: DEMO_PASSWORD });

    const signIn = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: loginBody });
    const session = (await signIn.json()) as { accessToken?: string };
    if (signIn.status !== 200 || !session.accessToken) throw new Error(`The admin could not sign in (HTTP ${signIn.status}).`);
    const listUrl = `${baseUrl}/api/users?page=1&limit=10`;
    const authorization = `Bearer ${session.accessToken}`;
    const probe = await fetch(listUrl, { headers: { authorization } });
    if (probe.status !== 200) throw new Error(`GET /api/users answered ${probe.status}: ${await probe.text()}`);

    loader = await LoadGenerator.start();
    const measure = async (name: string, request: string, job: Omit<LoadJob, 'kind' | 'seconds'>): Promise<HttpMeasurement> => {
      log(`  ${name}: warm-up ${settings.warmupSeconds} s, then ${settings.seconds} s with ${job.connections} connections`);
      if (settings.warmupSeconds > 0) await loader!.run({ ...job, seconds: settings.warmupSeconds });
      const result = await loader!.run({ ...job, seconds: settings.seconds });
      return { name, request, connections: job.connections, result };
    };

    const json = { 'content-type': 'application/json' };
    const login = await measure('login', 'POST /api/auth/login', { url: `${baseUrl}/api/auth/login`, method: 'POST', headers: json, body: loginBody, connections: settings.loginConnections });
    const list = await measure('user list', 'GET /api/users?page=1&limit=10', { url: listUrl, method: 'GET', headers: { authorization }, connections: settings.connections });
    const helloResult = await measure('hello world', 'GET /hello (bare Fastify)', { url: `${helloUrl}/hello`, method: 'GET', connections: settings.connections });
    return {
      loadGenerator: 'autocannon in a child process (own event loop); portal and hello-world server in the bench process',
      login,
      list,
      hello: helloResult,
      listToHello: list.result.requestsPerSecond / helloResult.result.requestsPerSecond,
    };
  } finally {
    await loader?.stop();
    await hello.close();
    await bench.stop();
  }
}
