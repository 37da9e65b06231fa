import { Queue, Worker, type ConnectionOptions, type DefaultJobOptions, type Processor } from 'bullmq';
import type { Config } from './config';

/** Every queue of the portal. BullMQ queue names may not contain ':'. */
export const QUEUES = {
  notifications: 'notifications',
  partnerApprovals: 'partner-approvals',
  stockReservations: 'stock-reservations',
  ticketDeadlines: 'ticket-deadlines',
  projectRegistrations: 'project-registrations',
  uploads: 'uploads',
  registrationDigests: 'registration-digests',
  team: 'team',
  leadAcceptance: 'lead-acceptance',
  fundDeadlines: 'fund-deadlines',
  learningDeadlines: 'learning-deadlines',
  programmeEvaluations: 'programme-evaluations',
  webhooks: 'webhooks',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
export const QUEUE_NAMES: readonly QueueName[] = Object.values(QUEUES);

export const JOB_ATTEMPTS = 5;
/** Completed jobs are kept a week, so a job id enqueued again by a replay of the log is recognised and ignored. */
export const COMPLETED_JOB_RETENTION_SECONDS = 7 * 24 * 60 * 60;

export type JobConfig = Pick<Config, 'REDIS_URL' | 'REDIS_PREFIX' | 'JOB_BACKOFF_MS'>;

/** How long after Redis returns, at most, the queues and workers are connected again. */
export const REDIS_RECONNECT_MAX_MS = 2000;

/**
 * BullMQ opens (and closes) its own connections; blocking worker connections need maxRetriesPerRequest: null.
 * BullMQ's own reconnection waits up to 20 s between attempts; after an outage the jobs should resume within seconds.
 */
const connection = (config: JobConfig): ConnectionOptions => ({
  url: config.REDIS_URL,
  maxRetriesPerRequest: null,
  retryStrategy: (attempt: number) => Math.min(attempt * 200, REDIS_RECONNECT_MAX_MS),
});

export function defaultJobOptions(config: JobConfig): DefaultJobOptions {
  return {
    attempts: JOB_ATTEMPTS,
    backoff: { type: 'exponential', delay: config.JOB_BACKOFF_MS },
    removeOnComplete: { age: COMPLETED_JOB_RETENTION_SECONDS },
    // A job that gave up stays in the failed set, where admins see it (GET /api/jobs/failed).
    removeOnFail: false,
  };
}

export function createQueue<Data = unknown>(config: JobConfig, name: QueueName): Queue<Data> {
  return new Queue<Data>(name, { connection: connection(config), prefix: config.REDIS_PREFIX, defaultJobOptions: defaultJobOptions(config) });
}

export function createWorker<Data = unknown>(
  config: JobConfig,
  name: QueueName,
  processor: Processor<Data>,
  options: { concurrency?: number } = {},
): Worker<Data> {
  return new Worker<Data>(name, processor, { connection: connection(config), prefix: config.REDIS_PREFIX, concurrency: options.concurrency ?? 5 });
}

/** One Queue per queue name, for producers (the reactor) and readers (the failed-jobs view). */
export type Queues = { [Name in QueueName]: Queue };

export function createQueues(config: JobConfig): Queues {
  return Object.fromEntries(QUEUE_NAMES.map((name) => [name, createQueue(config, name)])) as Queues;
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((queue) => queue.close()));
}

/** A job the reactor asks for. The id is derived from the event, so the same event always asks for the same job. */
export interface JobRequest {
  queue: QueueName;
  name: string;
  id: string;
  data: unknown;
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
}

/**
 * A job id made of the event id, the kind of job and the recipient, e.g.
 * `3f0c…e1.account-activated.9b2a…`. BullMQ refuses ids that are integers or contain ':'.
 */
export function reactionJobId(eventId: string, kind: string, recipientId: string): string {
  const id = [eventId, kind, recipientId].join('.');
  if (id.includes(':')) throw new Error(`A job id may not contain ':' (${id}).`);
  return id;
}
