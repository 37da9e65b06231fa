import { startSweep, type Sweep } from './sweeps';
import type { Job, Processor } from 'bullmq';
import { DomainError } from '../domain/decider';
import { assignmentReminderAt, assignments, ASSIGNMENT_REMINDERS, type AssignmentEvent, type AssignmentReminder } from '../domain/learning/assignments';
import { enrolments, EXPIRY_REMINDER_DAYS, reminderDueAt, type EnrolmentEvent } from '../domain/learning/enrolments';
import { activeCertifications, courseTitleOf, openAssignments } from '../projections/learning';
import { handleCommand } from '../platform/commands/commandHandler';
import { metadataCausedBy } from '../platform/commands/dispatch';
import type { RecordedEvent } from '../platform/eventstore';
import type { Services } from '../platform/services';
import { notificationJob, SYSTEM_ACTOR } from './notifications';
import { QUEUES, type JobRequest, type Queues } from '../platform/queues';
import type { Reaction, ReactionContext, ReactionTable } from './reactor';

/**
 * Certification expiry and assignment due dates: a delayed job per due step (30 and 7 days before a
 * certification expires, its expiry; a few days before an assignment is due, and once it is overdue),
 * with ids made of the record and the due time, so the same due time always asks for the same job and
 * a renewal or a new due date for new ones. Each step is a command that refuses to act early (the job
 * is retried) and changes nothing the second time: job and sweep may both fire, across restarts, and
 * the person hears of it once (the notification reacts to the step's event).
 */

type EventOf<Type extends (EnrolmentEvent | AssignmentEvent)['type']> = RecordedEvent<Type, Extract<EnrolmentEvent | AssignmentEvent, { type: Type }>['data']>;

export type LearningJobData =
  | { kind: 'expire'; enrolmentId: string; certificationId: string; expiresAt: string }
  | { kind: 'remind-expiry'; enrolmentId: string; certificationId: string; expiresAt: string; daysBefore: number }
  | { kind: 'remind-assignment'; assignmentId: string; dueDate: string; reminder: AssignmentReminder };

const dueAtOf = (data: LearningJobData): string =>
  data.kind === 'expire'
    ? data.expiresAt
    : data.kind === 'remind-expiry'
      ? reminderDueAt(data.expiresAt, data.daysBefore)
      : assignmentReminderAt(data.dueDate, data.reminder);

/** `certification-expire.<id>.<ms>`, `certification-remind-30.<id>.<ms>`, `assignment-overdue.<id>.<ms>`. */
export function learningJobId(data: LearningJobData): string {
  if (data.kind === 'expire') return `certification-expire.${data.certificationId}.${Date.parse(data.expiresAt)}`;
  if (data.kind === 'remind-expiry') return `certification-remind-${data.daysBefore}.${data.certificationId}.${Date.parse(data.expiresAt)}`;
  return `assignment-${data.reminder}.${data.assignmentId}.${Date.parse(`${data.dueDate}T00:00:00Z`)}`;
}

const job = (data: LearningJobData, now: number): JobRequest => ({
  queue: QUEUES.learningDeadlines,
  name: data.kind,
  id: learningJobId(data),
  data,
  delayMs: Math.max(0, Date.parse(dueAtOf(data)) - now),
});

export function certificationJobs(enrolmentId: string, certificationId: string, expiresAt: string, now = Date.now()): JobRequest[] {
  return [
    ...EXPIRY_REMINDER_DAYS.map((daysBefore) => job({ kind: 'remind-expiry', enrolmentId, certificationId, expiresAt, daysBefore }, now)),
    job({ kind: 'expire', enrolmentId, certificationId, expiresAt }, now),
  ];
}

export function assignmentJobs(assignmentId: string, dueDate: string, now = Date.now()): JobRequest[] {
  return ASSIGNMENT_REMINDERS.map((reminder) => job({ kind: 'remind-assignment', assignmentId, dueDate, reminder }, now));
}

export type LearningJobOutcome = 'expired' | 'reminded' | 'unchanged';

/** Conflicts that mean "already done" or "no longer applies"; a step refused as not due yet is retried. */
const DONE_CODES = new Set(['CERTIFICATION_EXPIRED', 'NOT_FOUND', 'NOT_ENROLLED']);

/**
 * Runs one due step. A reminder that is overtaken by a later one (a sweep after the worker was down
 * for weeks) is not sent late; the expiry itself always happens.
 */
export async function runLearningStep(
  services: Pick<Services, 'store'>,
  data: LearningJobData,
  cause: { id: string; correlationId: string },
  now = Date.now(),
): Promise<LearningJobOutcome> {
  const metadata = metadataCausedBy({ id: cause.id, metadata: { correlationId: cause.correlationId } }, SYSTEM_ACTOR);
  const options = { idempotencyKey: `learning:${learningJobId(data)}` };
  try {
    if (data.kind === 'expire') {
      const result = await handleCommand(
        services.store,
        enrolments,
        data.enrolmentId,
        { type: 'ExpireCertification', certificationId: data.certificationId, expiresAt: data.expiresAt },
        metadata,
        options,
      );
      return result.events.length ? 'expired' : 'unchanged';
    }
    if (data.kind === 'remind-expiry') {
      const later = EXPIRY_REMINDER_DAYS.filter((days) => days < data.daysBefore);
      if (now >= Date.parse(data.expiresAt) || later.some((days) => now >= Date.parse(reminderDueAt(data.expiresAt, days)))) return 'unchanged';
      const result = await handleCommand(
        services.store,
        enrolments,
        data.enrolmentId,
        { type: 'RemindCertificationExpiry', certificationId: data.certificationId, expiresAt: data.expiresAt, daysBefore: data.daysBefore },
        metadata,
        options,
      );
      return result.events.length ? 'reminded' : 'unchanged';
    }
    if (data.reminder === 'due-soon' && now >= Date.parse(assignmentReminderAt(data.dueDate, 'overdue'))) return 'unchanged';
    const result = await handleCommand(
      services.store,
      assignments,
      data.assignmentId,
      { type: 'RemindAssignment', dueDate: data.dueDate, reminder: data.reminder },
      metadata,
      options,
    );
    return result.events.length ? 'reminded' : 'unchanged';
  } catch (error) {
    if (error instanceof DomainError && DONE_CODES.has(error.code)) return 'unchanged';
    throw error;
  }
}

export function learningProcessor(services: Pick<Services, 'store'>): Processor<LearningJobData, LearningJobOutcome> {
  return (bullJob: Job<LearningJobData>) =>
    runLearningStep(services, bullJob.data, { id: bullJob.id ?? learningJobId(bullJob.data), correlationId: `job-${bullJob.id}` });
}

/**
 * Redis is not the record of truth: the expiries live in read.certifications and the due dates in
 * read.learning_assignments (only open ones: a completed assignment needs no reminder). The sweep runs
 * every step already due and (re)schedules the rest under their own ids.
 */
export async function sweepLearningDeadlines(
  services: Pick<Services, 'store' | 'pool'>,
  queues: Pick<Queues, 'learning-deadlines'>,
  now = Date.now(),
): Promise<{ ran: number; scheduled: number }> {
  let ran = 0;
  const later: JobRequest[] = [];
  const cause = (id: string) => ({ id: `sweep-${id}`, correlationId: `learning-sweep-${now}` });
  const steps: JobRequest[] = [];
  for (const row of await activeCertifications(services.pool)) steps.push(...certificationJobs(row.enrolment_id, row.id, row.expires_at.toISOString(), now));
  for (const row of await openAssignments(services.pool)) steps.push(...assignmentJobs(row.id, row.due_date, now));
  for (const step of steps) {
    if (step.delayMs) later.push(step);
    else if ((await runLearningStep(services, step.data as LearningJobData, cause(step.id), now)) !== 'unchanged') ran++;
  }
  if (later.length) await queues['learning-deadlines'].addBulk(later.map((j) => ({ name: j.name, data: j.data, opts: { jobId: j.id, delay: j.delayMs } })));
  return { ran, scheduled: later.length };
}

/** The sweep at worker start and every LEARNING_SWEEP_MS. */
export function startLearningSweep(services: Pick<Services, 'store' | 'pool' | 'config'>, queues: Queues, log: (line: string) => void): Sweep {
  return startSweep('learning sweep', services.config.LEARNING_SWEEP_MS, () => sweepLearningDeadlines(services, queues), log);
}

// ---- reactions ----

async function courseTitle(context: ReactionContext, event: RecordedEvent, courseId: string): Promise<string> {
  await context.readModelsInclude(event);
  return (await courseTitleOf(context.pool, courseId)) ?? 'a course';
}

const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A certification granted or renewed: its reminders and expiry, and the person hears of it. */
const certified: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'CertificationGranted.v1'> | EventOf<'CertificationRenewed.v1'>;
  const d = event.data;
  const jobs = certificationJobs(d.enrolmentId, d.certificationId, d.expiresAt);
  // Demo history and replays: a certification already past its expiry needs only the expiry step.
  if (Date.parse(d.expiresAt) <= Date.now()) return jobs.filter((j) => (j.data as LearningJobData).kind === 'expire');
  const title = await courseTitle(context, event, d.courseId);
  const renewed = event.type === 'CertificationRenewed.v1';
  return [
    ...jobs,
    notificationJob(event, d.userId, {
      kind: renewed ? 'certification-renewed' : 'certification-granted',
      title: renewed ? 'Certification renewed' : 'You are certified',
      body: `${renewed ? 'Your certification in' : 'You passed and are now certified in'} "${title}". It is valid until ${longDate(d.expiresAt)}.`,
      link: `/learning/certifications/${d.certificationId}`,
    }),
  ];
};

const reminded: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'CertificationExpiryReminderSent.v1'>;
  const d = event.data;
  const title = await courseTitle(context, event, d.courseId);
  return [
    notificationJob(event, d.userId, {
      kind: 'certification-expiring',
      title: `Certification expires in ${d.daysBefore} days`,
      body: `Your certification in "${title}" expires on ${longDate(d.expiresAt)}. Pass the course again to renew it.`,
      link: `/learning/courses/${d.courseId}`,
    }),
  ];
};

const expired: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'CertificationExpired.v1'>;
  const d = event.data;
  const title = await courseTitle(context, event, d.courseId);
  return [
    notificationJob(event, d.userId, {
      kind: 'certification-expired',
      title: 'Certification expired',
      body: `Your certification in "${title}" expired on ${longDate(d.expiresAt)}. Pass the course again to renew it.`,
      link: `/learning/courses/${d.courseId}`,
    }),
  ];
};

/** A course assigned: its reminders, and the person hears of it. */
const assigned: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'CourseAssigned.v1'>;
  const d = event.data;
  const jobs = assignmentJobs(d.assignmentId, d.dueDate);
  if (Date.parse(assignmentReminderAt(d.dueDate, 'overdue')) <= Date.now()) return jobs;
  const title = await courseTitle(context, event, d.courseId);
  return [
    ...jobs,
    notificationJob(event, d.userId, {
      kind: 'course-assigned',
      title: 'A course was assigned to you',
      body: `Complete "${title}" by ${longDate(`${d.dueDate}T00:00:00Z`)}.`,
      link: `/learning/courses/${d.courseId}`,
    }),
  ];
};

const assignmentReminded: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'AssignmentReminderSent.v1'>;
  const d = event.data;
  const title = await courseTitle(context, event, d.courseId);
  const overdue = d.reminder === 'overdue';
  return [
    notificationJob(event, d.userId, {
      kind: overdue ? 'course-assignment-overdue' : 'course-assignment-due',
      title: overdue ? 'An assigned course is overdue' : 'An assigned course is due soon',
      body: overdue ? `"${title}" was due on ${longDate(`${d.dueDate}T00:00:00Z`)}.` : `Complete "${title}" by ${longDate(`${d.dueDate}T00:00:00Z`)}.`,
      link: `/learning/courses/${d.courseId}`,
    }),
  ];
};

export const learningReactions: ReactionTable = {
  'CertificationGranted.v1': [certified],
  'CertificationRenewed.v1': [certified],
  'CertificationExpiryReminderSent.v1': [reminded],
  'CertificationExpired.v1': [expired],
  'CourseAssigned.v1': [assigned],
  'AssignmentReminderSent.v1': [assignmentReminded],
};
