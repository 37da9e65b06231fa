import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CommandMetadata } from '../domain/decider';
import { SERVICE_LEVEL_HOURS, tickets } from '../domain/tickets/tickets';
import { supportDashboardFigures } from '../projections/tickets';
import { runCommand } from '../platform/commands/dispatch';
import { openTicket } from '../commands/tickets';
import { demoUserId } from '../src/seed/identity';
import { startTestPortal, type TestPortal } from '../src/testing/portal';
import { startWorkers, type Workers } from '.';
import { createQueue, QUEUES } from '../platform/queues';
import { overdueJob } from './tickets';

let t: TestPortal;
let workers: Workers | undefined;
const log: string[] = [];
const partnerId = demoUserId('partner@partnerhub.test');
const supportId = demoUserId('support@partnerhub.test');

const start = async () => {
  workers = await startWorkers(t.portal.services, { log: (line) => log.push(line) });
};
const stop = async () => {
  await workers?.stop();
  workers = undefined;
};

beforeAll(async () => {
  // The API and projector only: the test starts and stops the worker itself.
  t = await startTestPortal({ processes: ['api', 'projector'], env: { JOB_BACKOFF_MS: '50' } });
  await start();
});
afterAll(async () => {
  await stop();
  await t?.close();
});

const CRITICAL_MS = SERVICE_LEVEL_HOURS.Critical * 3_600_000;
const as = (actorId: string, actorRole: string, now = new Date()): CommandMetadata => ({
  now: now.toISOString(),
  actorId,
  actorRole,
  correlationId: randomUUID(),
  causationId: null,
});

/** A Critical ticket opened so long ago that it is due `dueInMs` from now (negative: already past). */
async function criticalTicketDueIn(dueInMs: number) {
  const ticketId = randomUUID();
  const openedAt = new Date(Date.now() - CRITICAL_MS + dueInMs);
  await openTicket(
    t.portal.services,
    {
      ticketId,
      organisationId: partnerId,
      companyName: 'Northwind Networks',
      title: 'Core switch down',
      description: 'All VLANs dark.',
      priority: 'Critical',
      attachments: [],
    },
    as(partnerId, 'partner', openedAt),
  );
  const { rows } = await t.db.pool.query<{ due_at: Date }>('SELECT due_at FROM read.tickets WHERE id = $1', [ticketId]);
  return { ticketId, dueAt: rows[0].due_at.toISOString() };
}

const overdueEvents = async (ticketId: string) =>
  (await t.portal.services.store.readStream(tickets.streamId(ticketId))).filter((e) => e.type === 'TicketOverdue.v1');
const overdueAt = async (ticketId: string) =>
  (await t.db.pool.query<{ overdue_at: Date | null }>('SELECT overdue_at FROM read.tickets WHERE id = $1', [ticketId])).rows[0]?.overdue_at ?? null;

async function jobOf(ticketId: string, dueAt: string) {
  const queue = createQueue(t.portal.services.config, QUEUES.ticketDeadlines);
  try {
    const job = await queue.getJob(overdueJob(ticketId, dueAt, null).id);
    return job ? { state: await job.getState(), returnvalue: job.returnvalue as string | undefined } : undefined;
  } finally {
    await queue.close();
  }
}

describe('tickets past their due time', () => {
  it('are marked overdue once, by a delayed job at the due time, and support staff are told', async () => {
    const { ticketId, dueAt } = await criticalTicketDueIn(3_000);
    expect(await overdueAt(ticketId)).toBeNull();
    // The reactor schedules it as a delayed job.
    await vi.waitFor(async () => expect((await jobOf(ticketId, dueAt))?.state).toBe('delayed'), { timeout: 2_500, interval: 50 });
    await vi.waitFor(async () => expect(await overdueAt(ticketId)).not.toBeNull(), { timeout: 20_000, interval: 100 });
    expect((await overdueAt(ticketId))!.getTime()).toBeGreaterThanOrEqual(Date.parse(dueAt));
    expect(await overdueEvents(ticketId)).toHaveLength(1);
    await vi.waitFor(
      async () => {
        const { rows } = await t.db.pool.query('SELECT 1 FROM read.notifications WHERE user_id = $1 AND kind = $2 AND link LIKE $3', [
          supportId,
          'ticket-overdue',
          `%${ticketId}`,
        ]);
        expect(rows).toHaveLength(1);
      },
      { timeout: 20_000, interval: 100 },
    );
  });

  it('are not marked when resolved before the due time', async () => {
    const { ticketId, dueAt } = await criticalTicketDueIn(1_500);
    await runCommand(t.portal.services, tickets, ticketId, { type: 'ChangeTicketStatus', status: 'Resolved', comment: null }, as(supportId, 'support'));
    await vi.waitFor(async () => expect((await jobOf(ticketId, dueAt))?.state).toBe('completed'), { timeout: 20_000, interval: 100 });
    expect((await jobOf(ticketId, dueAt))?.returnvalue).toBe('nothing to do');
    expect(await overdueEvents(ticketId)).toHaveLength(0);
    expect(await overdueAt(ticketId)).toBeNull();
  });

  it('are marked once when the due time passed while the worker was stopped, and not again across restarts', async () => {
    await stop();
    const { ticketId, dueAt } = await criticalTicketDueIn(-60_000);
    await start();
    await vi.waitFor(async () => expect(await overdueAt(ticketId)).not.toBeNull(), { timeout: 20_000, interval: 100 });
    await stop();
    await start(); // the sweep at start and the reactor run again
    // The same job delivered again (a retry, a second sweep) does nothing.
    const queue = createQueue(t.portal.services.config, QUEUES.ticketDeadlines);
    const again = await queue.add('mark-overdue', { kind: 'mark-overdue', ticketId, dueAt, cause: null }, { jobId: `${ticketId}.again` });
    await vi.waitFor(async () => expect(await again.getState()).toBe('completed'), { timeout: 20_000, interval: 100 });
    expect((await queue.getJob(`${ticketId}.again`))?.returnvalue).toBe('nothing to do');
    await queue.close();
    expect(await overdueEvents(ticketId)).toHaveLength(1);
  });

  it("feed the support dashboard's overdue figure, seeded old tickets included", async () => {
    // Three demo tickets are past their service level and still open.
    await vi.waitFor(async () => expect((await supportDashboardFigures(t.db.pool)).urgentTickets.overdue).toBeGreaterThanOrEqual(4), {
      timeout: 20_000,
      interval: 200,
    });
    const { rows } = await t.db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM read.tickets WHERE overdue_at IS NOT NULL AND status IN ('Open', 'In Progress')`,
    );
    expect((await supportDashboardFigures(t.db.pool)).urgentTickets.overdue).toBe(Number(rows[0].n));
    expect(log.filter((line) => /ticket/.test(line) && !/will retry/.test(line))).toEqual([]);
  });
});
