import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadCounts } from '../../platform/readReplicas';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';
import { startStreamingReplica, streamingReplicaUnavailable, type StreamingReplica } from '../testing/streamingReplica';

/**
 * Reads through a real streaming replica: a primary and its replica started for this file, the portal's
 * commands on the primary and its reads (READ_DATABASE_URL) on the replica. What a command answered 201
 * for is in the very next read, whether the replica keeps up, applies commits late or stops.
 */

const unavailable = streamingReplicaUnavailable();
if (unavailable) console.warn(`The read replica tests are skipped: ${unavailable}.`);

/** Long enough that a busy machine's replay never sends a read to the primary; the late replica applies commits well within it. */
const REPLICA_WAIT_MS = 4_000;

let replication: StreamingReplica | undefined;
let t: TestPortal | undefined;
let partner: Session;

beforeAll(async () => {
  if (unavailable) return;
  replication = await startStreamingReplica();
  t = await startTestPortal({
    processes: ['api', 'projector'],
    postgres: { serverUrl: replication.primaryUrl, replicaServerUrls: [replication.replicaUrl] },
    env: { REPLICA_WAIT_MS: String(REPLICA_WAIT_MS) },
  });
  partner = await login(t.app, 'partner@partnerhub.test');
});

afterAll(async () => {
  try {
    await t?.close();
  } finally {
    await replication?.close();
  }
});

const call = () => as(t!.app, partner);
const counts = () => t!.portal.readRouter.counts();
const primaryReads = (c: ReadCounts) => Object.values(c.primary).reduce((sum, n) => sum + n, 0);
const since = (before: ReadCounts) => {
  const now = counts();
  return {
    replica: now.replica - before.replica,
    primary: primaryReads(now) - primaryReads(before),
    fallbacks: Object.fromEntries(Object.entries(now.primary).map(([reason, n]) => [reason, n - before.primary[reason as keyof ReadCounts['primary']]])),
  };
};

/** A multipart body as a browser sends it. */
async function multipart(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

async function openTicket(title: string): Promise<string> {
  const response = await call()({
    method: 'POST',
    url: '/api/tickets',
    ...(await multipart({ title, description: 'Opened to read it back through a replica.' })),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.id;
}

/** The ticket's own page and the list searched for its title, as the partner reads them next. */
async function readBack(id: string, title: string): Promise<void> {
  const single = await call()({ method: 'GET', url: `/api/tickets/${id}` });
  expect(single.statusCode, single.body).toBe(200);
  expect(single.json().data.title).toBe(title);
  const list = await call()({ method: 'GET', url: `/api/tickets?search=${encodeURIComponent(title)}` });
  expect(list.statusCode, list.body).toBe(200);
  expect(list.json().data.tickets.map((ticket: { id: string }) => ticket.id)).toContain(id);
}

describe.skipIf(unavailable)('reads from a streaming replica', () => {
  it('shows what a command answered 201 for in the next list and record read, and the replica serves those reads', async () => {
    const before = counts();
    for (let i = 0; i < 12; i++) {
      const title = `Replica read ${i} ${randomUUID().slice(0, 8)}`;
      await readBack(await openTicket(title), title);
    }
    const served = since(before);
    // Each round reads the ticket, its comments, the list and its statistics.
    expect(served.replica + served.primary).toBe(12 * 4);
    expect(served.replica, JSON.stringify(served)).toBeGreaterThanOrEqual(12 * 4 - 2);
  });

  it('sends the reads of a dashboard, written together on one connection, to the replica too', async () => {
    const before = counts();
    const dashboard = await call()({ method: 'GET', url: '/api/dashboard/stats' });
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    const served = since(before);
    // A dozen figures and KPI counts, every one of them answered by the replica.
    expect(served.replica, JSON.stringify(served)).toBeGreaterThanOrEqual(10);
    expect(served.primary, JSON.stringify(served)).toBe(0);
    expect(dashboard.json().data.data.openTickets.count).toBeGreaterThan(0);
  });

  it('waits for a replica that applies commits late instead of answering without the new record', async () => {
    const replicaDatabase = new pg.Client({ connectionString: t!.portal.services.config.READ_DATABASE_URL![0] });
    await replicaDatabase.connect();
    await replication!.delayReplica(1_000);
    try {
      const before = counts();
      let notYetOnReplica = 0;
      for (let i = 0; i < 4; i++) {
        const title = `Late replica ${i} ${randomUUID().slice(0, 8)}`;
        const id = await openTicket(title);
        // Straight after the 201 the replica itself does not show the ticket yet; the API's reads wait until it does.
        const { rowCount } = await replicaDatabase.query('SELECT 1 FROM read.tickets WHERE id = $1', [id]);
        if (rowCount === 0) notYetOnReplica += 1;
        await readBack(id, title);
      }
      expect(notYetOnReplica).toBeGreaterThan(0);
      const served = since(before);
      expect(served.replica, JSON.stringify(served)).toBeGreaterThan(0);
    } finally {
      await replication!.delayReplica(0);
      await replicaDatabase.end();
    }
  });

  it('sends every read to the primary, with no error answer, while the replica is down, and returns to it when it is back', async () => {
    const id = await openTicket(`Before the replica stops ${randomUUID().slice(0, 8)}`);
    await replication!.stopReplica();
    const before = counts();
    for (let i = 0; i < 5; i++) {
      for (const url of [`/api/tickets/${id}`, '/api/tickets?page=1&limit=10', '/api/tickets/statistics', '/api/dashboard/stats']) {
        const response = await call()({ method: 'GET', url });
        expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      }
    }
    const title = `While the replica is down ${randomUUID().slice(0, 8)}`;
    await readBack(await openTicket(title), title);
    const whileDown = since(before);
    expect(whileDown.replica).toBe(0);
    expect(whileDown.fallbacks.failed + whileDown.fallbacks.unavailable, JSON.stringify(whileDown)).toBe(whileDown.primary);
    expect(whileDown.primary).toBeGreaterThan(0);

    await replication!.startReplica();
    const back = counts();
    const deadline = Date.now() + 30_000;
    while (since(back).replica === 0) {
      if (Date.now() > deadline) throw new Error(`no read reached the restarted replica: ${JSON.stringify(since(back))}`);
      const response = await call()({ method: 'GET', url: `/api/tickets/${id}` });
      expect(response.statusCode, response.body).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
});
