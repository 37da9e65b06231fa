import Fastify from 'fastify';
import { DEMO_PASSWORD } from '../../src/seed/identity';
import { callApi, signInForBench, startBenchPortal, type BenchPortal } from './benchPortal';
import type { LoadJob, LoadResult } from './httpLoader';
import { LoadGenerator } from './loadGenerator';

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

/** An authenticated read with its goal: a share of the bare hello-world's requests per second. */
export interface HttpRead extends HttpMeasurement {
  goal: number;
  /** Requests per second of this read divided by those of the bare hello-world route. */
  ofHello: number;
}

export interface HttpSection {
  loadGenerator: string;
  login: HttpMeasurement;
  /** The user list, the order list and one order, as the demo admin. */
  reads: HttpRead[];
  /** The same reads from an API process whose answer cache is off: every request reads the database. */
  uncachedReads: HttpRead[];
  hello: HttpMeasurement;
}

/** Goals of the authenticated reads, as shares of the hello-world's requests per second. */
export const READ_GOALS = { list: 0.2, one: 0.3 } as const;

const ADMIN_EMAIL = 'admin@partnerhub.test';
/** Orders placed before the reads, so the order list has a full first page. */
const ORDERS = 12;

/** A product with ample stock, and `count` orders of it by the demo partner. */
async function placeOrders(baseUrl: string, adminToken: string, count: number): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    name: 'BX-1 Bench Switch',
    price: '149.00',
    category: 'Managed Switches',
    stock_quantity: '100000',
    moq: '1',
    description: 'A product for the load test.',
  })) {
    form.append(name, value);
  }
  const product = await callApi(baseUrl, adminToken, 'POST', '/api/products', form);
  if (product.status !== 201) throw new Error(`Adding a bench product answered ${product.status}: ${JSON.stringify(product.json)}`);
  const partner = await signInForBench(baseUrl, 'partner@partnerhub.test');
  const delivery = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const shipping_address = {
    firstName: 'Bench',
    lastName: 'Buyer',
    email: 'bench@example.test',
    phone: '+1 206 555 0100',
    addressLine1: '1 Load Street',
    city: 'Seattle',
    state: 'WA',
    zipCode: '98101',
    country: 'United States',
  };
  for (let i = 0; i < count; i++) {
    const placed = await callApi(baseUrl, partner, 'POST', '/api/orders', {
      estimated_delivery: delivery,
      items: [{ product_id: product.json.data.id, quantity: 1 + (i % 5) }],
      shipping_address,
    });
    if (placed.status !== 201) throw new Error(`POST /api/orders answered ${placed.status}: ${JSON.stringify(placed.json)}`);
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
  let uncached: BenchPortal | undefined;
  try {
    const helloUrl = await hello.listen({ port: 0, host: '127.0.0.1' });
    const loginBody = JSON.stringify({ email: ADMIN_EMAIL, password: DEMO_PASSWORD });

    const signIn = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: loginBody });
    const session = (await signIn.json()) as { accessToken?: string };
    if (signIn.status !== 200 || !session.accessToken) throw new Error(`The admin could not sign in (HTTP ${signIn.status}).`);
    const authorization = `Bearer ${session.accessToken}`;
    const probe = async (path: string) => {
      const response = await fetch(`${baseUrl}${path}`, { headers: { authorization } });
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as { data?: { orders?: Array<{ id: string }> } };
    };
    await probe('/api/users?page=1&limit=10');
    await placeOrders(baseUrl, session.accessToken, ORDERS);
    const orderId = (await probe('/api/orders')).data?.orders?.[0]?.id;
    if (!orderId) throw new Error('GET /api/orders listed no order.');
    const readPaths: Array<{ name: string; path: string; goal: number }> = [
      { name: 'user list', path: '/api/users?page=1&limit=10', goal: READ_GOALS.list },
      { name: 'order list', path: '/api/orders', goal: READ_GOALS.list },
      { name: 'one order', path: `/api/orders/${orderId}`, goal: READ_GOALS.one },
    ];
    for (const { path } of readPaths) await probe(path);

    loader = await LoadGenerator.start();
    const measure = async (name: string, request: string, job: Omit<LoadJob, 'kind' | 'seconds'>): Promise<HttpMeasurement> => {
      log(`  ${name}: warm-up ${settings.warmupSeconds} s, then ${settings.seconds} s with ${job.connections} connections`);
      if (settings.warmupSeconds > 0) await loader!.run({ ...job, seconds: settings.warmupSeconds });
      const result = await loader!.run({ ...job, seconds: settings.seconds });
      return { name, request, connections: job.connections, result };
    };

    const json = { 'content-type': 'application/json' };
    const login = await measure('login', 'POST /api/auth/login', {
      url: `${baseUrl}/api/auth/login`,
      method: 'POST',
      headers: json,
      body: loginBody,
      connections: settings.loginConnections,
    });
    /** The three reads against the portal at `url`, as the admin signed in there. */
    const measureReads = async (url: string, bearer: string, variant = '') => {
      const measured: HttpMeasurement[] = [];
      for (const read of readPaths) {
        const request = `GET ${read.path.replace(orderId, ':id')}${variant ? ` (${variant})` : ''}`;
        measured.push(
          await measure(`${read.name}${variant ? `, ${variant}` : ''}`, request, {
            url: `${url}${read.path}`,
            method: 'GET',
            headers: { authorization: bearer },
            connections: settings.connections,
          }),
        );
      }
      return measured;
    };
    const reads = await measureReads(baseUrl, authorization);
    // A second API process on the same database, without kept answers, shows what a read costs when
    // the read models have just changed.
    uncached = await startBenchPortal(settings, { processes: ['api'], answerCache: false });
    const uncachedReads = await measureReads(uncached.baseUrl, `Bearer ${await signInForBench(uncached.baseUrl, ADMIN_EMAIL)}`, 'no kept answers');
    const helloResult = await measure('hello world', 'GET /hello (bare Fastify)', {
      url: `${helloUrl}/hello`,
      method: 'GET',
      connections: settings.connections,
    });
    const ofHello = (measured: HttpMeasurement[]) =>
      measured.map((read, index) => ({ ...read, goal: readPaths[index].goal, ofHello: read.result.requestsPerSecond / helloResult.result.requestsPerSecond }));
    return {
      loadGenerator: 'autocannon in a child process (own event loop); portal and hello-world server in the bench process',
      login,
      reads: ofHello(reads),
      uncachedReads: ofHello(uncachedReads),
      hello: helloResult,
    };
  } finally {
    await loader?.stop();
    await hello.close();
    await uncached?.stop();
    await bench.stop();
  }
}
