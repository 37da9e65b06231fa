import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextQuarterStart, programme, programmeTiers, quarterKeyOf } from '../domain/programme/programme';
import { runCommand } from '../platform/commands/dispatch';
import { listTiers } from '../projections/programme';
import { programmeOrganisations, scheduledRunId } from '../commands/programme';
import { startTestPortal, type TestPortal } from '../src/testing/portal';
import { startWorkers } from './index';
import { PROGRAMME_SCHEDULER_ID, QUARTER_START_PATTERN, runQuarterlyEvaluation } from './programme';
import { closeQueues, createQueues, QUEUES } from '../platform/queues';

let t: TestPortal;

beforeAll(async () => {
  // No worker process at first: the test starts (and restarts) one itself.
  t = await startTestPortal({ processes: ['api', 'projector'], env: { JOB_BACKOFF_MS: '100' } });
});
afterAll(() => t?.close());

const services = () => t.portal.services;
const cause = (id: string) => ({ id, correlationId: `test-${id}` });

/** The quarterly evaluations an organisation's standing holds for a quarter. */
async function quarterlyEvaluations(organisationId: string, quarter: string) {
  const events = await services().store.readStream(programme.streamId(organisationId));
  return events.filter(
    (e) =>
      e.type === 'PartnerTierEvaluated.v1' &&
      (e.data as { kind: string; quarter: string }).kind === 'quarterly' &&
      (e.data as { quarter: string }).quarter === quarter,
  );
}

describe('the quarterly evaluation', () => {
  it('evaluates a quarter once: a repeated job, a run racing another and a restarted worker change nothing', async () => {
    const organisations = await programmeOrganisations(services());
    expect(organisations.length).toBeGreaterThanOrEqual(2);
    // The next quarter's first moment: its scheduled run evaluates every organisation once, quarterly.
    const quarterStart = new Date(`${nextQuarterStart(new Date())}T00:05:00.000Z`);
    const quarter = quarterKeyOf(quarterStart);
    const [first, racing] = await Promise.all([
      runQuarterlyEvaluation(services(), quarterStart, cause('a')),
      runQuarterlyEvaluation(services(), quarterStart, cause('b')),
    ]);
    const runs = [first, racing].filter(Boolean);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ kind: 'quarterly', trigger: 'schedule', id: scheduledRunId(quarterStart.toISOString()) });
    for (const organisation of organisations) expect(await quarterlyEvaluations(organisation.id, quarter)).toHaveLength(1);

    // Later in the same quarter (a retry after a crash): the run is recorded, nothing is evaluated again.
    expect(await runQuarterlyEvaluation(services(), new Date(quarterStart.getTime() + 3_600_000), cause('c'))).toBeNull();
    for (const organisation of organisations) expect(await quarterlyEvaluations(organisation.id, quarter)).toHaveLength(1);
  });

  it('is scheduled once at each quarter start, across worker restarts; a job of an evaluated quarter does nothing', async () => {
    const queues = createQueues(services().config);
    try {
      const first = await startWorkers(services(), { log: () => {} });
      await first.stop();
      const second = await startWorkers(services(), { log: () => {} });
      const schedulers = await queues[QUEUES.programmeEvaluations].getJobSchedulers();
      expect(schedulers.filter((s) => s.key === PROGRAMME_SCHEDULER_ID || s.id === PROGRAMME_SCHEDULER_ID)).toHaveLength(1);
      expect(schedulers[0]).toMatchObject({ pattern: QUARTER_START_PATTERN, tz: 'UTC' });

      // The job the scheduler runs, for this quarter: the first evaluates (this quarter was evaluated by
      // the demo data already, so it is an interim run), the second finds its run recorded.
      const quarter = quarterKeyOf(new Date());
      const before = await Promise.all((await programmeOrganisations(services())).map(async (o) => (await quarterlyEvaluations(o.id, quarter)).length));
      const queue = queues[QUEUES.programmeEvaluations];
      const job = await queue.add('evaluate-quarter', { kind: 'quarterly' }, { jobId: 'test-evaluate-1' });
      await vi.waitFor(async () => expect(await job.getState()).toBe('completed'), { timeout: 20_000, interval: 100 });
      const again = await queue.add('evaluate-quarter', { kind: 'quarterly' }, { jobId: 'test-evaluate-2' });
      await vi.waitFor(async () => expect(await again.getState()).toBe('completed'), { timeout: 20_000, interval: 100 });
      expect((await queue.getJob('test-evaluate-2'))?.returnvalue).toBe('already evaluated');
      const after = await Promise.all((await programmeOrganisations(services())).map(async (o) => (await quarterlyEvaluations(o.id, quarter)).length));
      expect(after).toEqual(before);
      expect(after.every((n) => n === 1)).toBe(true);
      await second.stop();
    } finally {
      await closeQueues(queues);
    }
  });

  it('tells the organisation of its promotion, and when its tier is at risk with what is missing', async () => {
    const quarterAfter = (moment: Date) => new Date(`${nextQuarterStart(moment)}T00:05:00.000Z`);
    const promotedAt = quarterAfter(quarterAfter(new Date()));
    const warnedAt = quarterAfter(promotedAt);
    const silver = (await listTiers(services().pool)).find((t) => t.rank === 1)!;
    const asAdmin = (moment: Date) => ({
      now: new Date(moment.getTime() - 86_400_000).toISOString(),
      actorId: null,
      actorRole: 'admin',
      correlationId: 'programme-test',
      causationId: null,
    });
    const setSilver = (requirements: Array<{ kind: 'deals_won'; target: number; window_months: number }>, moment: Date) =>
      runCommand(
        services(),
        programmeTiers,
        silver.id,
        { type: 'UpdateTier', tierId: silver.id, changes: { requirements }, rankTaken: false },
        asAdmin(moment),
      );

    // Silver asks nothing: every organisation below it is promoted at that quarter's evaluation.
    await setSilver([], promotedAt);
    const promoted = (await runQuarterlyEvaluation(services(), promotedAt, cause('promote')))!.results.filter(
      (r) => r.outcome === 'promoted' && r.to_tier?.name === silver.name,
    );
    expect(promoted.length).toBeGreaterThan(0);
    // Then Silver asks what nobody has: the next quarter warns each of them.
    await setSilver([{ kind: 'deals_won', target: 1_000_000, window_months: 12 }], warnedAt);
    const warned = (await runQuarterlyEvaluation(services(), warnedAt, cause('warn')))!.results.filter((r) => r.outcome === 'at_risk');
    expect(warned.map((r) => r.organisation_id).sort()).toEqual(promoted.map((r) => r.organisation_id).sort());

    const workers = await startWorkers(services(), { log: () => {} });
    const notices = async (organisationId: string, kind: string) =>
      (
        await services().pool.query<{ title: string; body: string }>('SELECT title, body FROM read.notifications WHERE user_id = $1 AND kind = $2', [
          organisationId,
          kind,
        ])
      ).rows;
    try {
      for (const result of warned) {
        await vi.waitFor(
          async () => {
            expect((await notices(result.organisation_id, 'programme_promoted')).map((n) => n.title)).toContain(`Welcome to ${silver.name}`);
            const atRisk = await notices(result.organisation_id, 'programme_at_risk');
            expect(atRisk.map((n) => n.title)).toEqual([`Your ${silver.name} tier is at risk`]);
            expect(atRisk[0].body).toContain('more deals won');
          },
          { timeout: 30_000, interval: 200 },
        );
      }
    } finally {
      await workers.stop();
    }
  });
});
