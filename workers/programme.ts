import type { Job, Processor, Queue } from 'bullmq';
import type { EvaluationRun } from '../contracts/programme';
import type { StandingEvent } from '../domain/programme/programme';
import { metadataCausedBy } from '../platform/commands/dispatch';
import { evaluateProgramme, scheduledRunId } from '../commands/programme';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { Services } from '../platform/services';
import { hasTierOverride } from '../projections/programme';
import { activeOrganisationAccountIds } from '../projections/users';
import { notificationJob, SYSTEM_ACTOR } from './notifications';
import type { Reaction, ReactionTable } from './reactor';

/**
 * The programme's quarterly evaluation: a BullMQ job scheduler starts it just after each calendar
 * quarter begins (UTC). The run's id derives from the quarter, and each organisation's standing
 * refuses a second quarterly evaluation of a quarter, so a repeated job, a retry after a crash or a
 * restart evaluates a quarter once.
 */

export const PROGRAMME_SCHEDULER_ID = 'programme-quarterly-evaluation';
/** 00:05 UTC on the first day of January, April, July and October. */
export const QUARTER_START_PATTERN = '5 0 1 1,4,7,10 *';

export type ProgrammeJobData = { kind: 'quarterly' };

/** Evaluates the quarter holding `now` unless its scheduled run is recorded already (then null). */
export async function runQuarterlyEvaluation(
  services: Pick<Services, 'store' | 'watcher' | 'pool'>,
  now: Date,
  cause: { id: string; correlationId: string },
): Promise<EvaluationRun | null> {
  const metadata = { ...metadataCausedBy({ id: cause.id, metadata: { correlationId: cause.correlationId } }, SYSTEM_ACTOR), now: now.toISOString() };
  return evaluateProgramme(services, { runId: scheduledRunId(metadata.now), trigger: 'schedule' }, metadata);
}

export function programmeProcessor(services: Pick<Services, 'store' | 'watcher' | 'pool'>): Processor<ProgrammeJobData, string> {
  return async (job: Job<ProgrammeJobData>) => {
    const run = await runQuarterlyEvaluation(services, new Date(), { id: job.id ?? PROGRAMME_SCHEDULER_ID, correlationId: `job-${job.id}` });
    return run ? `evaluated ${run.quarter}: ${run.results.length} organisations` : 'already evaluated';
  };
}

/** Registers (or keeps) the quarterly scheduler; upserting it again on every start changes nothing. */
export async function scheduleQuarterlyEvaluation(queue: Queue): Promise<void> {
  await queue.upsertJobScheduler(
    PROGRAMME_SCHEDULER_ID,
    { pattern: QUARTER_START_PATTERN, tz: 'UTC' },
    { name: 'evaluate-quarter', data: { kind: 'quarterly' } },
  );
}

// ---- notifications: the organisation's account and its active members hear of promotion, warning and demotion ----

async function organisationMembers(context: Parameters<Reaction>[1], event: RecordedEvent, organisationId: string): Promise<string[]> {
  await context.readModelsInclude(event);
  return activeOrganisationAccountIds(context.pool, organisationId);
}

const LINK = '/partnership-governance';

const tierChanged: Reaction = async (recorded, context) => {
  const { data } = asDomainEvent<Extract<StandingEvent, { type: 'PartnerTierChanged.v1' }>>(recorded);
  if (data.direction === 'initial') return [];
  // Under an override the tier in force does not move: nothing to announce.
  if (await hasTierOverride(context.pool, data.organisationId)) return [];
  const promoted = data.direction === 'promoted';
  const content = promoted
    ? {
        kind: 'programme_promoted',
        title: `Welcome to ${data.toTier.name}`,
        body: `Your organisation has moved up to the ${data.toTier.name} tier of the partner programme.`,
      }
    : {
        kind: 'programme_demoted',
        title: `Your tier is now ${data.toTier.name}`,
        body: `After a quarter's grace your organisation moved from ${data.fromTier?.name ?? 'its tier'} to ${data.toTier.name}. Still missing: ${
          data.missing
            .map((m) => m.sentence)
            .filter(Boolean)
            .join(', ') || 'see the programme page'
        }.`,
      };
  return (await organisationMembers(context, recorded, data.organisationId)).map((id) => notificationJob(recorded, id, { ...content, link: LINK }));
};

const tierAtRisk: Reaction = async (recorded, context) => {
  const { data } = asDomainEvent<Extract<StandingEvent, { type: 'PartnerTierAtRisk.v1' }>>(recorded);
  const missing = data.missing
    .map((m) => m.sentence)
    .filter(Boolean)
    .join(', ');
  const content = {
    kind: 'programme_at_risk',
    title: `Your ${data.tier.name} tier is at risk`,
    body: `Your organisation no longer meets ${data.tier.name}${missing ? ` (${missing})` : ''}. Unless it does by the evaluation on ${data.demotionOn}, it moves down a tier.`,
    link: LINK,
  };
  return (await organisationMembers(context, recorded, data.organisationId)).map((id) => notificationJob(recorded, id, content));
};

export const programmeReactions: ReactionTable = {
  'PartnerTierChanged.v1': [tierChanged],
  'PartnerTierAtRisk.v1': [tierAtRisk],
};
