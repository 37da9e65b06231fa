import { startSweep, type Sweep } from './sweeps';
import type { Job, Processor } from 'bullmq';
import { DomainError, fold } from '../domain/decider';
import { projects, type ProjectCommand, type ProjectEvent } from '../domain/projects/projects';
import { DAY_MS, REMINDER_DAYS_BEFORE, reminderDueAt } from '../domain/projects/registration';
import { liveRegistrations, projectRecipients } from '../projections/projects';
import { activeAdminIds } from '../projections/users';
import { handleCommand } from '../platform/commands/commandHandler';
import { dueFactTime, metadataCausedBy } from '../platform/commands/dispatch';
import { asDomainEvents, type RecordedEvent } from '../platform/eventstore';
import type { Services } from '../platform/services';
import { notificationJob, SYSTEM_ACTOR } from './notifications';
import { QUEUES, type JobRequest, type Queues } from '../platform/queues';
import type { Reaction, ReactionContext, ReactionTable } from './reactor';

type EventOf<Type extends ProjectEvent['type']> = RecordedEvent<Type, Extract<ProjectEvent, { type: Type }>['data']>;

// ---- registration expiry and reminders: delayed jobs keyed by the record and the due time ----

export type DealRegistrationJobData =
  { kind: 'expire'; projectId: string; expiresAt: string } | { kind: 'remind'; projectId: string; expiresAt: string; daysBefore: number; late?: true };

const dueOf = (data: DealRegistrationJobData) => (data.kind === 'expire' ? data.expiresAt : reminderDueAt(data.expiresAt, data.daysBefore));

/** `expire.<project>.<due ms>`, `remind-14.<project>.<due ms>`: the same expiry always asks for the same jobs; a moved expiry asks for new ones. */
export function registrationJobId(data: DealRegistrationJobData): string {
  const kind = data.kind === 'expire' ? 'expire' : `remind-${data.daysBefore}`;
  return `${kind}.${data.projectId}.${Date.parse(dueOf(data))}`;
}

/** The expiry job and the reminders of one registration's current expiry, each delayed until it is due. */
export function registrationJobs(projectId: string, expiresAt: string, now: number = Date.now()): JobRequest[] {
  const jobs: DealRegistrationJobData[] = [
    { kind: 'expire', projectId, expiresAt },
    ...REMINDER_DAYS_BEFORE.map((daysBefore) => ({ kind: 'remind' as const, projectId, expiresAt, daysBefore })),
  ];
  return jobs.map((data) => ({
    queue: QUEUES.projectRegistrations,
    name: data.kind === 'expire' ? 'expire-registration' : `remind-${data.daysBefore}-days`,
    id: registrationJobId(data),
    data,
    delayMs: Math.max(0, Date.parse(dueOf(data)) - now),
  }));
}

export type RegistrationJobOutcome = 'expired' | 'reminded' | 'unchanged' | 'moved' | 'gone';

/**
 * Runs one due step. The command refuses to act early (the job is then retried) and does nothing
 * the second time, so a job and the sweep may both fire; a job whose expiry has since moved (an
 * extension) does nothing, the moved expiry has its own jobs.
 */
export async function runRegistrationStep(
  services: Pick<Services, 'store'>,
  data: DealRegistrationJobData,
  cause: { id: string; correlationId: string },
): Promise<RegistrationJobOutcome> {
  const stream = await services.store.readStream(projects.streamId(data.projectId));
  const state = fold(projects, asDomainEvents<ProjectEvent>(stream));
  if (state.status === 'none' || state.status === 'deleted') return 'gone';
  if (state.expiresAt !== data.expiresAt) return 'moved';
  const command: ProjectCommand =
    data.kind === 'expire'
      ? { type: 'ExpireRegistration' }
      : { type: 'SendExpiryReminder', daysBefore: data.daysBefore, expiresAt: data.expiresAt, ...(data.late ? { late: true as const } : {}) };
  const metadata = metadataCausedBy({ id: cause.id, metadata: { correlationId: cause.correlationId } }, SYSTEM_ACTOR);
  // A registration lapses at its expiry, however late the worker records it.
  if (data.kind === 'expire') metadata.now = dueFactTime(data.expiresAt, stream.at(-1)?.metadata.occurredAt, metadata.now);
  try {
    const result = await handleCommand(services.store, projects, data.projectId, command, metadata, {
      idempotencyKey: `registration:${registrationJobId(data)}`,
    });
    if (!result.events.length) return 'unchanged';
    return data.kind === 'expire' ? 'expired' : 'reminded';
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') return 'gone';
    throw error;
  }
}

export function dealRegistrationProcessor(services: Pick<Services, 'store'>): Processor<DealRegistrationJobData, RegistrationJobOutcome> {
  return (job: Job<DealRegistrationJobData>) =>
    runRegistrationStep(services, job.data, { id: job.id ?? registrationJobId(job.data), correlationId: `job-${job.id}` });
}

/** Job states in which the job will still run by itself. */
const PENDING_JOB_STATES = new Set(['delayed', 'waiting', 'waiting-children', 'prioritized', 'active']);

/** How long the sweep waits for Redis before it acts as if the jobs were lost (they cannot run while Redis is away). */
const SWEEP_REDIS_TIMEOUT_MS = 1000;

/** The answer, or `undefined` when Redis did not answer in time (or failed). */
async function withinTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Redis is not the record of truth: the due times live in read.projects. The sweep (re)schedules the
 * steps not due yet (jobs scheduled again keep their ids, so nothing runs twice) and runs every step
 * that is due and whose job will not run any more: lost with a restarted Redis, given up, or
 * unreachable while Redis is away. Due steps run in the order they fell due, so a reminder that was
 * missed goes out (late, and saying so) before the expiry that followed it; the commands do nothing the
 * second time, so a job that does turn up later changes nothing.
 */
export async function sweepDealRegistrations(
  services: Pick<Services, 'store' | 'pool'>,
  queues: Pick<Queues, 'project-registrations'>,
  now: number = Date.now(),
): Promise<{ ran: number; scheduled: number }> {
  const queue = queues['project-registrations'];
  const later: JobRequest[] = [];
  const due: JobRequest[] = [];
  for (const row of await liveRegistrations(services.pool)) {
    for (const job of registrationJobs(row.id, row.expires_at.toISOString(), now)) {
      const data = job.data as DealRegistrationJobData;
      if (data.kind === 'remind' && row.reminders_sent.includes(`${data.daysBefore}@${data.expiresAt}`)) continue;
      (job.delayMs ? later : due).push(job);
    }
  }
  let ran = 0;
  for (const job of due.sort((a, b) => Date.parse(dueOf(a.data as DealRegistrationJobData)) - Date.parse(dueOf(b.data as DealRegistrationJobData)))) {
    const state = await withinTimeout(queue.getJobState(job.id), SWEEP_REDIS_TIMEOUT_MS);
    if (state !== undefined && PENDING_JOB_STATES.has(state)) continue;
    const data = job.data as DealRegistrationJobData;
    const step: DealRegistrationJobData = data.kind === 'remind' ? { ...data, late: true } : data;
    if ((await runRegistrationStep(services, step, { id: job.id, correlationId: `sweep-${now}` })) !== 'unchanged') ran++;
  }
  if (later.length) {
    const added = await withinTimeout(
      queue.addBulk(later.map((job) => ({ name: job.name, data: job.data, opts: { jobId: job.id, delay: job.delayMs } }))).then(() => true),
      SWEEP_REDIS_TIMEOUT_MS * 5,
    );
    if (!added) throw new Error(`Redis did not take the ${later.length} registration jobs not due yet; the next sweep schedules them again.`);
  }
  return { ran, scheduled: later.length };
}

/** The sweep at worker start and every DEAL_REGISTRATION_SWEEP_MS. */
export function startDealRegistrationSweep(services: Pick<Services, 'store' | 'pool' | 'config'>, queues: Queues, log: (line: string) => void): Sweep {
  return startSweep('registration sweep', services.config.DEAL_REGISTRATION_SWEEP_MS, () => sweepDealRegistrations(services, queues), log);
}

// ---- reactions ----

const scheduleRegistration: Reaction = async (recorded) => {
  const event = recorded as EventOf<'ProjectRegistered.v1'>;
  return registrationJobs(event.data.projectId, event.data.expiresAt);
};

const scheduleExtendedExpiry: Reaction = async (recorded) => {
  const event = recorded as EventOf<'ProjectExtensionApproved.v1'>;
  return registrationJobs(event.data.projectId, event.data.expiresAt);
};

/** The owning organisation: its account and the user who registered the project. */
async function organisationRecipients(
  context: ReactionContext,
  event: RecordedEvent,
  organisationId: string,
  projectId: string,
): Promise<Array<{ id: string; title: string }>> {
  await context.readModelsInclude(event);
  return projectRecipients(context.pool, organisationId, projectId);
}

async function admins(context: ReactionContext, event: RecordedEvent): Promise<string[]> {
  await context.readModelsInclude(event);
  return activeAdminIds(context.pool, event.metadata.occurredAt);
}

const day = (iso: string) => iso.slice(0, 10);
const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ');
const link = (projectId: string) => `/project/details?id=${projectId}`;

const tellOrganisation =
  (kind: string, title: string, body: (event: RecordedEvent, projectTitle: string) => string): Reaction =>
  async (recorded, context) => {
    const data = recorded.data as { projectId: string; organisationId: string };
    const recipients = await organisationRecipients(context, recorded, data.organisationId, data.projectId);
    return recipients.map((r) => notificationJob(recorded, r.id, { kind, title, body: body(recorded, r.title), link: link(data.projectId) }));
  };

const tellAdmins =
  (kind: string, title: string, body: (event: RecordedEvent) => string, when: (event: RecordedEvent) => boolean = () => true): Reaction =>
  async (recorded, context) => {
    if (!when(recorded)) return [];
    const data = recorded.data as { projectId: string };
    return (await admins(context, recorded)).map((id) => notificationJob(recorded, id, { kind, title, body: body(recorded), link: link(data.projectId) }));
  };

const registered = (e: RecordedEvent) => e as EventOf<'ProjectRegistered.v1'>;

export const projectReactions: ReactionTable = {
  'ProjectRegistered.v1': [
    scheduleRegistration,
    tellAdmins(
      'registration-conflict',
      'Deal registration conflict to review',
      (e) =>
        `${registered(e).data.companyName ?? 'A partner'} registered "${registered(e).data.details.title}" for a customer another partner already holds. Review it under Deal Registrations.`,
      (e) => registered(e).data.registrationStatus === 'conflict',
    ),
    tellAdmins(
      'registration-submitted',
      'New deal registration',
      (e) => `${registered(e).data.companyName ?? 'A partner'} registered "${registered(e).data.details.title}".`,
      (e) => registered(e).data.registrationStatus !== 'conflict',
    ),
  ],
  'ProjectExtensionApproved.v1': [
    scheduleExtendedExpiry,
    tellOrganisation(
      'registration-extension-approved',
      'Deal registration extended',
      (e, title) => `The extension of "${title}" was approved: it is protected until ${day((e as EventOf<'ProjectExtensionApproved.v1'>).data.expiresAt)}.`,
    ),
  ],
  'ProjectExtensionRequested.v1': [
    tellAdmins(
      'registration-extension-requested',
      'Extension requested',
      (e) => `An extension was requested: ${(e as EventOf<'ProjectExtensionRequested.v1'>).data.reason}`,
    ),
  ],
  'ProjectExtensionDeclined.v1': [
    tellOrganisation(
      'registration-extension-declined',
      'Extension declined',
      (e, title) => `The extension of "${title}" was declined: ${(e as EventOf<'ProjectExtensionDeclined.v1'>).data.reason}`,
    ),
  ],
  'ProjectRegistrationApproved.v1': [
    tellOrganisation('registration-approved', 'Deal registration approved', (_e, title) => `Your registration of "${title}" was approved.`),
  ],
  'ProjectRegistrationRejected.v1': [
    tellOrganisation(
      'registration-rejected',
      'Deal registration rejected',
      (e, title) => `Your registration of "${title}" was rejected: ${(e as EventOf<'ProjectRegistrationRejected.v1'>).data.reason}`,
    ),
  ],
  'ProjectRegistrationExpired.v1': [
    tellOrganisation(
      'registration-expired',
      'Deal registration expired',
      (_e, title) => `The registration of "${title}" has expired and no longer protects the deal.`,
    ),
  ],
  'ProjectExpiryReminderSent.v1': [
    tellOrganisation('registration-expiring', 'Deal registration expiring soon', (e, title) => {
      const d = (e as EventOf<'ProjectExpiryReminderSent.v1'>).data;
      // Counted from when the reminder went out: a late one (its job was lost) says how long is really left, and that it is late.
      const left = Math.max(0, Math.ceil((Date.parse(d.expiresAt) - Date.parse(e.metadata.occurredAt)) / DAY_MS));
      const late = d.late ? ` This reminder is late: it was due on ${minute(reminderDueAt(d.expiresAt, d.daysBefore))} UTC.` : '';
      return `The registration of "${title}" expires in ${left} day${left === 1 ? '' : 's'}, on ${day(d.expiresAt)}. Request an extension before then if the deal needs more time.${late}`;
    }),
  ],
};
