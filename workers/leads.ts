import { startSweep, type Sweep } from './sweeps';
import type { Job, Processor } from 'bullmq';
import { DomainError } from '../domain/decider';
import { leads, type LeadEvent } from '../domain/leads/leads';
import { handleCommand } from '../platform/commands/commandHandler';
import { metadataCausedBy } from '../platform/commands/dispatch';
import { acceptanceWindowMs, loadLead, passOnTarget } from '../commands/leads';
import { leadCompany, leadsAwaitingAnswer } from '../projections/leadLookups';
import { activeAdminIds, organisationNameOf } from '../projections/users';
import type { RecordedEvent } from '../platform/eventstore';
import type { Services } from '../platform/services';
import { noticeJob, notificationJob, SYSTEM_ACTOR } from './notifications';
import { QUEUES, type JobRequest, type Queues } from '../platform/queues';
import type { Reaction, ReactionContext, ReactionTable } from './reactor';

/**
 * The acceptance window of a lead offered to an organisation: a delayed job at the window's end passes
 * the unanswered lead on (LapseLead), and one earlier reminds the organisation. Job ids name the lead
 * and the due time, so the same window always asks for the same jobs and a new offer for new ones; the
 * command does nothing for a window that is gone, so job and sweep may both fire, across restarts.
 */

type EventOf<Type extends LeadEvent['type']> = RecordedEvent<Type, Extract<LeadEvent, { type: Type }>['data']>;

export type LeadJobData = { kind: 'lapse' | 'remind'; leadId: string; organisationId: string; dueAt: string; cause: { id: string; correlationId: string } };

/** The reminder goes out a quarter of the window before it closes, at most 12 hours before. */
export const reminderDueAt = (dueAt: string, windowMs: number) => new Date(Date.parse(dueAt) - Math.min(windowMs / 4, 12 * 60 * 60 * 1000)).toISOString();

export const leadJobId = (kind: LeadJobData['kind'], leadId: string, dueAt: string) => `lead-${kind}.${leadId}.${Date.parse(dueAt)}`;

export function leadWindowJobs(
  leadId: string,
  organisationId: string,
  dueAt: string,
  windowMs: number,
  cause: LeadJobData['cause'],
  now = Date.now(),
): JobRequest[] {
  const remindAt = reminderDueAt(dueAt, windowMs);
  return [
    {
      queue: QUEUES.leadAcceptance,
      name: 'lapse-lead',
      id: leadJobId('lapse', leadId, dueAt),
      data: { kind: 'lapse', leadId, organisationId, dueAt, cause } satisfies LeadJobData,
      delayMs: Math.max(0, Date.parse(dueAt) - now),
    },
    {
      queue: QUEUES.leadAcceptance,
      name: 'remind-lead',
      id: leadJobId('remind', leadId, dueAt),
      data: { kind: 'remind', leadId, organisationId, dueAt, cause } satisfies LeadJobData,
      delayMs: Math.max(0, Date.parse(remindAt) - now),
    },
  ];
}

export type LeadJobOutcome = 'lapsed' | 'reminded' | 'unchanged';

const hoursLeft = (dueAt: string, now: number) => Math.max(0, Math.round((Date.parse(dueAt) - now) / 36e5));

/**
 * Runs one due step. A lapse passes the lead to the next eligible organisation of its own routing (or
 * back to the queue); the decider refuses it early (the job is retried) and ignores it once the lead
 * was answered or moved on. A reminder is a notification whose id names the window: sent once.
 */
export async function runLeadStep(
  services: Pick<Services, 'store' | 'pool' | 'config' | 'watcher'>,
  data: LeadJobData,
  notifications: { add(job: JobRequest): Promise<unknown> },
): Promise<LeadJobOutcome> {
  const lead = await loadLead(services, data.leadId);
  if (!lead || lead.status !== 'assigned' || lead.dueAt !== data.dueAt || lead.organisationId !== data.organisationId) return 'unchanged';
  if (data.kind === 'remind') {
    if (Date.now() < Date.parse(reminderDueAt(data.dueAt, acceptanceWindowMs(services.config))) - 1000)
      throw new Error('This reminder is not due yet; it will be retried.');
    const position = await services.store.headPosition();
    const cause = {
      eventId: data.cause.id,
      correlationId: data.cause.correlationId,
      position: { commit: String(position?.commit ?? 0n), prepare: String(position?.prepare ?? 0n) },
    };
    const left = hoursLeft(data.dueAt, Date.now());
    await notifications.add(
      noticeJob(cause, `${leadJobId('remind', data.leadId, data.dueAt)}.${data.organisationId}`, data.organisationId, {
        kind: 'lead-expiring',
        title: 'A lead is waiting for your answer',
        body: `The lead from ${lead.details.company} passes to another partner in about ${left} hour${left === 1 ? '' : 's'} unless you accept or decline it.`,
        link: `/leads/${data.leadId}`,
      }),
    );
    return 'reminded';
  }
  const metadata = metadataCausedBy({ id: data.cause.id, metadata: { correlationId: data.cause.correlationId } }, SYSTEM_ACTOR);
  const next = await passOnTarget(services, lead, data.organisationId, metadata.now);
  try {
    const result = await handleCommand(services.store, leads, data.leadId, { type: 'LapseLead', dueAt: data.dueAt, next }, metadata, {
      idempotencyKey: `lead-lapse:${leadJobId('lapse', data.leadId, data.dueAt)}`,
    });
    return result.events.length ? 'lapsed' : 'unchanged';
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') return 'unchanged';
    throw error;
  }
}

export function leadAcceptanceProcessor(
  services: Pick<Services, 'store' | 'pool' | 'config' | 'watcher'>,
  queues: () => Pick<Queues, 'notifications'>,
): Processor<LeadJobData, LeadJobOutcome> {
  const notifications = { add: (job: JobRequest) => queues().notifications.add(job.name, job.data, { jobId: job.id }) };
  return (job: Job<LeadJobData>) => runLeadStep(services, job.data, notifications);
}

/**
 * Redis is not the record of truth: the due times live in read.leads. The sweep lapses every lead
 * whose window already closed and (re)schedules the jobs of the others under their own ids.
 */
export async function sweepLeadWindows(
  services: Pick<Services, 'store' | 'pool' | 'config' | 'watcher'>,
  queues: Pick<Queues, 'lead-acceptance' | 'notifications'>,
  now = Date.now(),
): Promise<{ ran: number; scheduled: number }> {
  let ran = 0;
  const later: JobRequest[] = [];
  const windowMs = acceptanceWindowMs(services.config);
  const notifications = { add: (job: JobRequest) => queues.notifications.add(job.name, job.data, { jobId: job.id }) };
  for (const row of await leadsAwaitingAnswer(services.pool)) {
    const cause = { id: `sweep-${row.id}-${row.due_at.getTime()}`, correlationId: `lead-sweep-${now}` };
    for (const job of leadWindowJobs(row.id, row.organisation_id, row.due_at.toISOString(), windowMs, cause, now)) {
      const data = job.data as LeadJobData;
      if (job.delayMs) later.push(job);
      // A reminder whose moment passed while nobody swept is not sent late; the lapse itself is.
      else if (data.kind === 'lapse' && (await runLeadStep(services, data, notifications)) === 'lapsed') ran++;
    }
  }
  if (later.length)
    await queues['lead-acceptance'].addBulk(later.map((job) => ({ name: job.name, data: job.data, opts: { jobId: job.id, delay: job.delayMs } })));
  return { ran, scheduled: later.length };
}

/** The sweep at worker start and every LEAD_SWEEP_MS. */
export function startLeadSweep(services: Pick<Services, 'store' | 'pool' | 'config' | 'watcher'>, queues: Queues, log: (line: string) => void): Sweep {
  return startSweep('lead sweep', services.config.LEAD_SWEEP_MS, () => sweepLeadWindows(services, queues), log);
}

// ---- reactions ----

async function admins(context: ReactionContext, event: RecordedEvent): Promise<string[]> {
  await context.readModelsInclude(event);
  return activeAdminIds(context.pool, event.metadata.occurredAt);
}

async function companyOf(context: ReactionContext, event: RecordedEvent, leadId: string): Promise<string> {
  await context.readModelsInclude(event);
  return (await leadCompany(context.pool, leadId)) ?? 'a customer';
}

/** A new offer: its window's jobs, and the organisation hears of it (in-app and by e-mail). */
const offered: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'LeadAssigned.v1'>;
  const d = event.data;
  const jobs = leadWindowJobs(d.leadId, d.organisationId, d.dueAt, acceptanceWindowMs(context.config), {
    id: event.id,
    correlationId: event.metadata.correlationId,
  });
  // A window that already closed (demo history, a replayed log) needs its lapse only: no reminder, no news of the offer.
  if (Date.parse(d.dueAt) <= Date.now()) return jobs.filter((job) => (job.data as LeadJobData).kind === 'lapse');
  const company = await companyOf(context, event, d.leadId);
  const hours = hoursLeft(d.dueAt, Date.parse(event.metadata.occurredAt));
  return [
    ...jobs,
    notificationJob(event, d.organisationId, {
      kind: 'lead-assigned',
      title: 'New lead for you',
      body: `A lead from ${company} was assigned to your organisation. Accept or decline it within ${hours} hours, or it passes to another partner.`,
      link: `/leads/${d.leadId}`,
    }),
  ];
};

const lapsed: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'LeadLapsed.v1'>;
  const company = await companyOf(context, event, event.data.leadId);
  const toOrganisation = notificationJob(event, event.data.organisationId, {
    kind: 'lead-lapsed',
    title: 'A lead lapsed',
    body: `The lead from ${company} was not answered in time and has passed on.`,
    link: '/leads',
  });
  if (event.data.passedTo) return [toOrganisation];
  const toAdmins = (await admins(context, event)).map((id) =>
    notificationJob(event, id, {
      kind: 'lead-returned',
      title: 'A lead is back in the queue',
      body: `No eligible organisation answered the lead from ${company} in time; it waits in the unassigned queue.`,
      link: '/lead-management',
    }),
  );
  return [toOrganisation, ...toAdmins];
};

const declined: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'LeadDeclined.v1'>;
  const company = await companyOf(context, event, event.data.leadId);
  const organisation = await organisationNameOf(context.pool, event.data.organisationId);
  const where = event.data.passedTo ? 'It passed on to the next eligible organisation.' : 'It waits in the unassigned queue.';
  return (await admins(context, event)).map((id) =>
    notificationJob(event, id, {
      kind: 'lead-declined',
      title: 'A lead was declined',
      body: `${organisation ?? 'An organisation'} declined the lead from ${company}: ${event.data.reason} ${where}`,
      link: '/lead-management',
    }),
  );
};

const converted: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'LeadConverted.v1'>;
  const company = await companyOf(context, event, event.data.leadId);
  return (await admins(context, event)).map((id) =>
    notificationJob(event, id, {
      kind: 'lead-converted',
      title: 'A lead became a deal',
      body: `The lead from ${company} was converted into a deal registration.`,
      link: `/project/details?id=${event.data.projectId}`,
    }),
  );
};

export const leadReactions: ReactionTable = {
  'LeadAssigned.v1': [offered],
  'LeadLapsed.v1': [lapsed],
  'LeadDeclined.v1': [declined],
  'LeadConverted.v1': [converted],
};
