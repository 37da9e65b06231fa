import { DelayedError, type Job, type Processor, type Queue } from 'bullmq';
import { isActiveStatus, tickets, type TicketEvent } from '../domain/tickets/tickets';
import { ticketAssignee, ticketDueTime, ticketsAwaitingDueTime } from '../projections/tickets';
import { activeSupportIds } from '../projections/users';
import { handleCommand } from '../platform/commands/commandHandler';
import { dueFactTime, metadataCausedBy } from '../platform/commands/dispatch';
import type { RecordedEvent } from '../platform/eventstore';
import type { Services } from '../platform/services';
import { notificationJob, SYSTEM_ACTOR } from './notifications';
import { QUEUES, type JobRequest } from '../platform/queues';
import type { Reaction, ReactionTable } from './reactor';

type EventOf<Type extends TicketEvent['type']> = RecordedEvent<Type, Extract<TicketEvent, { type: Type }>['data']>;

export type TicketDeadlineJobData =
  { kind: 'mark-overdue'; ticketId: string; dueAt: string; cause: { eventId: string; correlationId: string } | null } | { kind: 'sweep' };

/**
 * The job that marks a ticket overdue at its due time: one per ticket and due time (a new due time
 * is a new job), so enqueueing it again while it waits changes nothing. A ticket reopened after its
 * due time gets one more, keyed by the reopening event.
 */
export function overdueJob(ticketId: string, dueAt: string, cause: RecordedEvent | null, options: { reopenedBy?: string } = {}): JobRequest {
  const id = [ticketId, 'overdue', new Date(dueAt).getTime(), ...(options.reopenedBy ? [options.reopenedBy] : [])].join('.');
  return {
    queue: QUEUES.ticketDeadlines,
    name: 'mark-overdue',
    id,
    data: {
      kind: 'mark-overdue',
      ticketId,
      dueAt,
      cause: cause && { eventId: cause.id, correlationId: cause.metadata.correlationId },
    } satisfies TicketDeadlineJobData,
    delayMs: Math.max(0, new Date(dueAt).getTime() - Date.now()),
  };
}

const link = (ticketId: string) => `/supportcenter?tab=cases&ticket=${ticketId}`;

const unique = (ids: Array<string | null | undefined>, except: string | null) => [...new Set(ids.filter((id): id is string => Boolean(id) && id !== except))];

const onOpened: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'TicketOpened.v1'>;
  const d = event.data;
  const jobs = [overdueJob(d.ticketId, d.dueAt, event)];
  await context.readModelsInclude(event);
  for (const recipient of unique(await activeSupportIds(context.pool), d.createdBy)) {
    jobs.push(
      notificationJob(event, recipient, {
        kind: 'ticket-opened',
        title: `New ticket ${d.ticketNumber}: ${d.title}`,
        body: `${d.companyName ?? 'A customer'} opened a ${d.priority} priority ${d.category} ticket: ${d.title}`,
        link: link(d.ticketId),
      }),
    );
  }
  if (d.assignedTo && d.assignedTo !== d.createdBy) {
    jobs.push(
      notificationJob(event, d.assignedTo, {
        kind: 'ticket-assigned',
        title: `Ticket ${d.ticketNumber} is assigned to you`,
        body: `${d.title} (${d.priority} priority) is assigned to you.`,
        link: link(d.ticketId),
      }),
    );
  }
  return jobs;
};

const onAssigned: Reaction = async (recorded) => {
  const event = recorded as EventOf<'TicketAssigned.v1'>;
  const d = event.data;
  if (d.assignedTo === event.metadata.actorId) return [];
  return [
    notificationJob(event, d.assignedTo, {
      kind: 'ticket-assigned',
      title: `Ticket ${d.ticketNumber} is assigned to you`,
      body: `Ticket ${d.ticketNumber} is assigned to you.${d.comment ? ` Note: ${d.comment.comment}` : ''}`,
      link: link(d.ticketId),
    }),
  ];
};

/** Public replies reach the ticket's creator; the creator's replies reach the assignee. Internal notes reach nobody on the customer's side. */
const onCommented: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'TicketCommented.v1'>;
  const d = event.data;
  if (d.isInternal) return [];
  if (d.authorId !== d.createdBy) {
    return [
      notificationJob(event, d.createdBy, { kind: 'ticket-reply', title: `New reply on ticket ${d.ticketNumber}`, body: d.comment, link: link(d.ticketId) }),
    ];
  }
  await context.readModelsInclude(event);
  const assignee = await ticketAssignee(context.pool, d.ticketId);
  return assignee
    ? [
        notificationJob(event, assignee, {
          kind: 'ticket-customer-reply',
          title: `Customer reply on ticket ${d.ticketNumber}`,
          body: d.comment,
          link: link(d.ticketId),
        }),
      ]
    : [];
};

const onStatusChanged: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'TicketStatusChanged.v1'>;
  const d = event.data;
  const jobs: JobRequest[] = [];
  if (d.createdBy !== event.metadata.actorId && d.status !== d.previousStatus) {
    // Only the public comment (the reason) is told; an internal one stays with support.
    jobs.push(
      notificationJob(event, d.createdBy, {
        kind: 'ticket-status-changed',
        title: `Ticket ${d.ticketNumber}: ${d.status}`,
        body: `Your ticket ${d.ticketNumber} is now ${d.status}.${d.reason ? ` ${d.reason}` : ''}`,
        link: link(d.ticketId),
      }),
    );
  } else if (d.createdBy !== event.metadata.actorId && d.reason) {
    jobs.push(
      notificationJob(event, d.createdBy, { kind: 'ticket-reply', title: `New reply on ticket ${d.ticketNumber}`, body: d.reason, link: link(d.ticketId) }),
    );
  }
  if (isActiveStatus(d.status) && !isActiveStatus(d.previousStatus)) {
    await context.readModelsInclude(event);
    const ticket = await ticketDueTime(context.pool, d.ticketId);
    if (ticket) jobs.push(overdueJob(d.ticketId, ticket.due_at.toISOString(), event, { reopenedBy: event.id }));
  }
  return jobs;
};

const onUpdated: Reaction = async (recorded) => {
  const event = recorded as EventOf<'TicketUpdated.v1'>;
  return event.data.dueAt ? [overdueJob(event.data.ticketId, event.data.dueAt, event)] : [];
};

const onOverdue: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'TicketOverdue.v1'>;
  const d = event.data;
  await context.readModelsInclude(event);
  return unique([d.assignedTo, ...(await activeSupportIds(context.pool))], null).map((recipient) =>
    notificationJob(event, recipient, {
      kind: 'ticket-overdue',
      title: `Ticket ${d.ticketNumber} is overdue`,
      body: `Ticket ${d.ticketNumber} was due ${d.dueAt.slice(0, 16).replace('T', ' ')} UTC and is still open.`,
      link: link(d.ticketId),
    }),
  );
};

export const ticketReactions: ReactionTable = {
  'TicketOpened.v1': [onOpened],
  'TicketAssigned.v1': [onAssigned],
  'TicketCommented.v1': [onCommented],
  'TicketStatusChanged.v1': [onStatusChanged],
  'TicketUpdated.v1': [onUpdated],
  'TicketOverdue.v1': [onOverdue],
};

/** Schedules the overdue job of every open ticket not yet marked (a no-op for jobs already waiting). */
export async function sweepTicketDeadlines(services: Pick<Services, 'pool'>, queue: Queue): Promise<number> {
  const due = await ticketsAwaitingDueTime(services.pool);
  const jobs = due.map((ticket) => overdueJob(ticket.id, ticket.due_at.toISOString(), null));
  if (jobs.length) await queue.addBulk(jobs.map((job) => ({ name: job.name, data: job.data, opts: { jobId: job.id, delay: job.delayMs } })));
  return jobs.length;
}

/** At worker start and every TICKET_SWEEP_INTERVAL_MS: the sweep catches tickets whose job was lost. */
export async function scheduleTicketSweeps(services: Pick<Services, 'pool' | 'config'>, queue: Queue): Promise<void> {
  await sweepTicketDeadlines(services, queue);
  await queue.upsertJobScheduler(
    'ticket-deadline-sweep',
    { every: services.config.TICKET_SWEEP_INTERVAL_MS },
    { name: 'sweep', data: { kind: 'sweep' } satisfies TicketDeadlineJobData },
  );
}

export function ticketDeadlineProcessor(
  services: Pick<Services, 'store' | 'pool' | 'watcher' | 'config'>,
  queue: () => Queue,
): Processor<TicketDeadlineJobData, string> {
  return async (job: Job<TicketDeadlineJobData>, token?: string) => {
    const data = job.data;
    if (data.kind === 'sweep') return `scheduled ${await sweepTicketDeadlines(services, queue())}`;
    const dueMs = new Date(data.dueAt).getTime();
    if (Date.now() < dueMs) {
      // Woken early (a clock ahead, a promoted job): back to sleep until the due time.
      await job.moveToDelayed(dueMs, token);
      throw new DelayedError();
    }
    const metadata = data.cause
      ? metadataCausedBy({ id: data.cause.eventId, metadata: { correlationId: data.cause.correlationId } }, SYSTEM_ACTOR)
      : { now: new Date().toISOString(), actorId: null, actorRole: SYSTEM_ACTOR.role, correlationId: `ticket-deadline-${data.ticketId}`, causationId: null };
    // Overdue from its due time, however late the worker records it.
    const last = (await services.store.readStream(tickets.streamId(data.ticketId))).at(-1);
    metadata.now = dueFactTime(data.dueAt, last?.metadata.occurredAt, metadata.now);
    const result = await handleCommand(services.store, tickets, data.ticketId, { type: 'MarkTicketOverdue', dueAt: data.dueAt }, metadata);
    return result.events.length ? 'marked overdue' : 'nothing to do';
  };
}
