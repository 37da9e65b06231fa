import { startSweep, type Sweep } from './sweeps';
import type { Job, Processor } from 'bullmq';
import { centsToAmount, formatUsd } from '../domain/money';
import { DomainError, type CommandMetadata } from '../domain/decider';
import type { FundClaimEvent } from '../domain/funds/claims';
import { periodEndPassesAt, type FundEvent } from '../domain/funds/funds';
import { CLAIM_REMINDER_DAYS_BEFORE, deadlinePassesAt, fundRequests, reminderDueAt, type FundRequestEvent } from '../domain/funds/requests';
import { handleCommand } from '../platform/commands/commandHandler';
import { metadataCausedBy } from '../platform/commands/dispatch';
import { closeFundPeriod, fundState, releaseLapsedRequest, requestState } from '../commands/funds';
import { openFunds } from '../projections/funds';
import { closedFundNotice, fundRequestTitle, requestsWithClaimDeadline } from '../projections/fundLookups';
import { activeAdminIds, organisationAndAuthorIds } from '../projections/users';
import type { RecordedEvent } from '../platform/eventstore';
import type { Services } from '../platform/services';
import { notificationJob, SYSTEM_ACTOR } from './notifications';
import { QUEUES, type JobRequest, type Queues } from '../platform/queues';
import type { Reaction, ReactionContext, ReactionTable } from './reactor';

type AnyFundEvent = FundEvent | FundRequestEvent | FundClaimEvent;
type EventOf<Type extends AnyFundEvent['type']> = RecordedEvent<Type, Extract<AnyFundEvent, { type: Type }>['data']>;

// ---- claim deadlines: delayed jobs keyed by the request and the due time, and a sweep for lost jobs ----

type RequestDeadline =
  { kind: 'release'; requestId: string; claimDeadline: string } | { kind: 'remind'; requestId: string; claimDeadline: string; daysBefore: number };
/** A fund period's end: the fund closes and what is left unspent expires. */
type PeriodEnd = { kind: 'close'; fundId: string; periodEnd: string };
export type FundDeadlineJobData = RequestDeadline | PeriodEnd;

const dueOf = (data: FundDeadlineJobData) =>
  data.kind === 'close'
    ? periodEndPassesAt(data.periodEnd)
    : data.kind === 'release'
      ? deadlinePassesAt(data.claimDeadline)
      : reminderDueAt(data.claimDeadline, data.daysBefore);

/** `release.<request>.<due ms>`, `remind-14.<request>.<due ms>`, `close.<fund>.<due ms>`: the same deadline always asks for the same jobs. */
export function fundDeadlineJobId(data: FundDeadlineJobData): string {
  if (data.kind === 'close') return `close.${data.fundId}.${dueOf(data)}`;
  return `${data.kind === 'release' ? 'release' : `remind-${data.daysBefore}`}.${data.requestId}.${dueOf(data)}`;
}

/** The close of a fund's period, delayed until the day after its last day. */
export function fundCloseJob(fundId: string, periodEnd: string, now: number = Date.now()): JobRequest {
  const data: PeriodEnd = { kind: 'close', fundId, periodEnd };
  return { queue: QUEUES.fundDeadlines, name: 'close-fund-period', id: fundDeadlineJobId(data), data, delayMs: Math.max(0, dueOf(data) - now) };
}

/** The release and the reminders of one approved request's claim deadline, each delayed until it is due. */
export function fundDeadlineJobs(requestId: string, claimDeadline: string, now: number = Date.now()): JobRequest[] {
  const jobs: RequestDeadline[] = [
    { kind: 'release', requestId, claimDeadline },
    ...CLAIM_REMINDER_DAYS_BEFORE.map((daysBefore) => ({ kind: 'remind' as const, requestId, claimDeadline, daysBefore })),
  ];
  return jobs.map((data) => ({
    queue: QUEUES.fundDeadlines,
    name: data.kind === 'release' ? 'release-fund-reservation' : `remind-claim-${data.daysBefore}-days`,
    id: fundDeadlineJobId(data),
    data,
    delayMs: Math.max(0, dueOf(data) - now),
  }));
}

export type FundDeadlineOutcome = 'released' | 'reminded' | 'closed' | 'unchanged' | 'gone';

/**
 * Closes the fund at its period's end. Refused before the end (the job is then retried) and a second
 * time (the fund's decider): a job and a sweep, before or after a restart, close it once.
 */
async function runFundClose(services: Pick<Services, 'store' | 'watcher' | 'pool'>, data: PeriodEnd, metadata: CommandMetadata): Promise<FundDeadlineOutcome> {
  const fund = await fundState(services, data.fundId);
  if (fund.status === 'none') return 'gone';
  if (fund.status === 'closed' || fund.periodEnd !== data.periodEnd) return 'unchanged';
  try {
    await closeFundPeriod(services, data.fundId, 'period_end', metadata);
    return 'closed';
  } catch (error) {
    if (error instanceof DomainError && error.code === 'FUND_CLOSED') return 'unchanged';
    throw error;
  }
}

/**
 * Runs one due step. The commands refuse to act early (the job is then retried) and change nothing
 * the second time, so the job and the sweep may both fire, before or after a restart: the release
 * and each reminder happen once.
 */
export async function runFundDeadlineStep(
  services: Pick<Services, 'store' | 'watcher' | 'pool'>,
  data: FundDeadlineJobData,
  cause: { id: string; correlationId: string },
): Promise<FundDeadlineOutcome> {
  if (data.kind === 'close')
    return runFundClose(services, data, metadataCausedBy({ id: cause.id, metadata: { correlationId: cause.correlationId } }, SYSTEM_ACTOR));
  const request = await requestState(services, data.requestId);
  if (request.status === 'none') return 'gone';
  if (request.claimDeadline !== data.claimDeadline) return 'unchanged';
  const metadata = metadataCausedBy({ id: cause.id, metadata: { correlationId: cause.correlationId } }, SYSTEM_ACTOR);
  try {
    if (data.kind === 'release') return (await releaseLapsedRequest(services, data.requestId, metadata)) === 'released' ? 'released' : 'unchanged';
    const result = await handleCommand(services.store, fundRequests, data.requestId, { type: 'SendClaimReminder', daysBefore: data.daysBefore }, metadata, {
      idempotencyKey: `fund-deadline:${fundDeadlineJobId(data)}`,
    });
    return result.events.length ? 'reminded' : 'unchanged';
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') return 'gone';
    throw error;
  }
}

export function fundDeadlineProcessor(services: Pick<Services, 'store' | 'watcher' | 'pool'>): Processor<FundDeadlineJobData, FundDeadlineOutcome> {
  return (job: Job<FundDeadlineJobData>) =>
    runFundDeadlineStep(services, job.data, { id: job.id ?? fundDeadlineJobId(job.data), correlationId: `job-${job.id}` });
}

/**
 * Redis is not the record of truth: the deadlines live in read.fund_requests. The sweep runs every
 * step already due at once and (re)schedules the rest under the same job ids.
 */
export async function sweepFundDeadlines(
  services: Pick<Services, 'store' | 'watcher' | 'pool'>,
  queues: Pick<Queues, 'fund-deadlines'>,
  now: number = Date.now(),
): Promise<{ ran: number; scheduled: number }> {
  let ran = 0;
  const later: JobRequest[] = [];
  for (const row of await requestsWithClaimDeadline(services.pool)) {
    for (const job of fundDeadlineJobs(row.id, row.claim_deadline, now)) {
      if (job.delayMs) later.push(job);
      else if (
        ['released', 'reminded'].includes(await runFundDeadlineStep(services, job.data as FundDeadlineJobData, { id: job.id, correlationId: `sweep-${now}` }))
      )
        ran++;
    }
  }
  for (const fund of await openFunds(services.pool)) {
    const job = fundCloseJob(fund.id, fund.period_end, now);
    if (job.delayMs) later.push(job);
    else if ((await runFundDeadlineStep(services, job.data as FundDeadlineJobData, { id: job.id, correlationId: `sweep-${now}` })) === 'closed') ran++;
  }
  if (later.length)
    await queues['fund-deadlines'].addBulk(later.map((job) => ({ name: job.name, data: job.data, opts: { jobId: job.id, delay: job.delayMs } })));
  return { ran, scheduled: later.length };
}

/** The sweep at worker start and every FUND_DEADLINE_SWEEP_MS. */
export function startFundDeadlineSweep(services: Pick<Services, 'store' | 'watcher' | 'pool' | 'config'>, queues: Queues, log: (line: string) => void): Sweep {
  return startSweep('fund deadline sweep', services.config.FUND_DEADLINE_SWEEP_MS, () => sweepFundDeadlines(services, queues), log);
}

// ---- notifications ----

const usd = (cents: number) => formatUsd(centsToAmount(cents));

/** The organisation: its account and the user who submitted the request or claim. */
async function organisationRecipients(
  context: ReactionContext,
  event: RecordedEvent,
  organisationId: string,
  submitted: { kind: 'fundRequest' | 'fundClaim'; id: string },
): Promise<string[]> {
  await context.readModelsInclude(event);
  return organisationAndAuthorIds(context.pool, organisationId, submitted, { activeOnly: true });
}

async function admins(context: ReactionContext, event: RecordedEvent): Promise<string[]> {
  await context.readModelsInclude(event);
  return activeAdminIds(context.pool, event.metadata.occurredAt);
}

async function titleOf(context: ReactionContext, requestId: string): Promise<string> {
  return (await fundRequestTitle(context.pool, requestId)) ?? 'your activity';
}

type Ids = { requestId: string; organisationId: string; claimId?: string };

const tellOrganisation =
  (kind: string, title: string, body: (event: RecordedEvent, activity: string) => string): Reaction =>
  async (recorded, context) => {
    const data = recorded.data as Ids;
    const submitted = data.claimId ? { kind: 'fundClaim' as const, id: data.claimId } : { kind: 'fundRequest' as const, id: data.requestId };
    const recipients = await organisationRecipients(context, recorded, data.organisationId, submitted);
    const activity = await titleOf(context, data.requestId);
    return recipients.map((id) => notificationJob(recorded, id, { kind, title, body: body(recorded, activity), link: '/funds' }));
  };

const tellAdmins =
  (kind: string, title: string, body: (event: RecordedEvent, activity: string) => string): Reaction =>
  async (recorded, context) => {
    const data = recorded.data as Ids;
    const activity = await titleOf(context, data.requestId);
    return (await admins(context, recorded)).map((id) => notificationJob(recorded, id, { kind, title, body: body(recorded, activity), link: '/funds' }));
  };

/** A fund's close is (re)scheduled when it is created and when its period changes; a job for an old period end finds the period changed and does nothing. */
const scheduleClose: Reaction = async (recorded) => {
  const { fundId, periodEnd } = (recorded as EventOf<'FundCreated.v1'>).data;
  return [fundCloseJob(fundId, periodEnd)];
};

const scheduleDeadline: Reaction = async (recorded) => {
  const event = recorded as EventOf<'FundRequestApproved.v1'>;
  return fundDeadlineJobs(event.data.requestId, event.data.claimDeadline);
};

const data = <Type extends AnyFundEvent['type']>(event: RecordedEvent, _type: Type) => (event as EventOf<Type>).data;
const company = (event: RecordedEvent) => (event.data as { companyName?: string | null }).companyName ?? 'A partner';

/** The organisation's account is told what expired when a period closed (not what a reservation gave back after it: that request's own notice tells). */
const tellExpired: Reaction = async (recorded, context) => {
  const d = data(recorded, 'FundAllocationExpired.v1');
  if (d.reason !== 'period_closed') return [];
  await context.readModelsInclude(recorded);
  const fund = await closedFundNotice(context.pool, d.fundId, d.organisationId);
  if (!fund?.active) return [];
  return [
    notificationJob(recorded, d.organisationId, {
      kind: 'fund-allocation-expired',
      title: 'Fund period closed',
      body: `${fund.close_reason === 'manual' ? `"${fund.name}" was closed before its end (${fund.period_end})` : `The period of "${fund.name}" ended on ${fund.period_end}`}: ${usd(d.amountCents)} left unspent expired. Approved activities can still be claimed until their claim deadline.`,
      link: '/funds',
    }),
  ];
};

export const fundReactions: ReactionTable = {
  'FundCreated.v1': [scheduleClose],
  'FundUpdated.v1': [scheduleClose],
  'FundAllocationExpired.v1': [tellExpired],
  'FundRequestSubmitted.v1': [
    tellAdmins('fund-request-submitted', 'New fund request', (e) => {
      const d = data(e, 'FundRequestSubmitted.v1');
      return `${company(e)} requested ${usd(d.requestedAmountCents)} for "${d.title}" (${d.startDate} to ${d.endDate}). Review it under Funds.`;
    }),
  ],
  'FundRequestResubmitted.v1': [
    tellAdmins(
      'fund-request-resubmitted',
      'Fund request resubmitted',
      (_e, activity) => `The request for "${activity}" was changed and submitted again. Review it under Funds.`,
    ),
  ],
  'FundRequestApproved.v1': [
    scheduleDeadline,
    tellOrganisation('fund-request-approved', 'Fund request approved', (e, activity) => {
      const d = data(e, 'FundRequestApproved.v1');
      return `Your request for "${activity}" was approved: ${usd(d.approvedAmountCents)} is reserved. Claim it with proof of performance by ${d.claimDeadline}.${d.note ? ` Note: ${d.note}` : ''}`;
    }),
  ],
  'FundRequestRejected.v1': [
    tellOrganisation(
      'fund-request-rejected',
      'Fund request rejected',
      (e, activity) => `Your request for "${activity}" was rejected. Reason: ${data(e, 'FundRequestRejected.v1').reason}`,
    ),
  ],
  'FundRequestChangesRequested.v1': [
    tellOrganisation(
      'fund-request-changes',
      'Changes requested',
      (e, activity) => `Your request for "${activity}" needs changes before it can be approved: ${data(e, 'FundRequestChangesRequested.v1').reason}`,
    ),
  ],
  'FundClaimReminderSent.v1': [
    tellOrganisation('fund-claim-reminder', 'Claim deadline approaching', (e, activity) => {
      const d = data(e, 'FundClaimReminderSent.v1');
      return `Claim "${activity}" by ${d.claimDeadline} (${d.daysBefore} days left), or its reserved funds are released.`;
    }),
  ],
  'FundRequestReleased.v1': [
    tellOrganisation('fund-reservation-released', 'Reserved funds released', (e, activity) => {
      const d = data(e, 'FundRequestReleased.v1');
      return `No claim for "${activity}" arrived by ${d.claimDeadline}: the ${usd(d.amountCents)} reserved for it went back to your available balance.`;
    }),
  ],
  'FundClaimSubmitted.v1': [
    tellAdmins(
      'fund-claim-submitted',
      'New fund claim',
      (e, activity) =>
        `${company(e)} claimed ${usd(data(e, 'FundClaimSubmitted.v1').claimedAmountCents)} for "${activity}" with proof of performance. Review it under Funds.`,
    ),
  ],
  'FundClaimProofAdded.v1': [
    tellAdmins('fund-claim-proof-added', 'More proof added', (_e, activity) => `More proof was added to the claim for "${activity}". Review it under Funds.`),
  ],
  'FundClaimApproved.v1': [
    tellOrganisation(
      'fund-claim-approved',
      'Claim approved',
      (e, activity) => `Your claim for "${activity}" was approved: ${usd(data(e, 'FundClaimApproved.v1').paidAmountCents)} will be paid.`,
    ),
  ],
  'FundClaimRejected.v1': [
    tellOrganisation(
      'fund-claim-rejected',
      'Claim rejected',
      (e, activity) => `Your claim for "${activity}" was rejected. Reason: ${data(e, 'FundClaimRejected.v1').reason}`,
    ),
  ],
  'FundClaimMoreProofRequested.v1': [
    tellOrganisation(
      'fund-claim-more-proof',
      'More proof requested',
      (e, activity) => `Your claim for "${activity}" needs more proof: ${data(e, 'FundClaimMoreProofRequested.v1').reason}`,
    ),
  ],
  'FundClaimPaid.v1': [
    tellOrganisation('fund-claim-paid', 'Claim paid', (e, activity) => {
      const d = data(e, 'FundClaimPaid.v1');
      return `${usd(d.amountCents)} for "${activity}" was paid on ${d.paidAt} (reference ${d.reference}).`;
    }),
  ],
};
