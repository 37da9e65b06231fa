import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';

/**
 * Support tickets (spec 002 §3–§7): partners and distributors open cases, support staff work them.
 * A ticket's comments, assignment, status changes and its overdue mark all live on the ticket's own
 * stream, so internal notes and public replies are decided in one place.
 */

export const TICKET_STATUSES = ['Open', 'In Progress', 'Resolved', 'Closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_PRIORITIES = ['Low', 'Medium', 'High', 'Critical'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export const TICKET_CATEGORIES = ['General', 'Technical', 'Billing', 'Feature Request', 'Bug Report'] as const;
/** The categories a form offers; RMA tickets are opened from a serial number under warranty only. */
export type TicketCategory = (typeof TICKET_CATEGORIES)[number] | typeof RMA_CATEGORY;
export const RMA_CATEGORY = 'RMA';

/** The unit a return is about, as the warranty look-up found it. */
export interface TicketRmaLink {
  serialNumber: string;
  orderId: string;
  orderNumber: string;
  productName: string;
}

/** Tickets still being worked: these can become overdue. */
export const ACTIVE_TICKET_STATUSES: readonly TicketStatus[] = ['Open', 'In Progress'];

/** Service levels: how long support has for a ticket opened without a due date, by priority. */
export const SERVICE_LEVEL_HOURS: Readonly<Record<TicketPriority, number>> = {
  Critical: 4,
  High: 24,
  Medium: 72,
  Low: 168,
};

/**
 * The programme tier's support priority: the share of the service level's time support takes to
 * answer the organisation's tickets (a Gold partner's High ticket is due in 12 hours, not 24).
 */
export const SUPPORT_LEVELS = ['standard', 'priority', 'premium'] as const;
export type SupportLevel = (typeof SUPPORT_LEVELS)[number];
export const SUPPORT_LEVEL_SHARE: Readonly<Record<SupportLevel, number>> = { standard: 1, priority: 0.5, premium: 0.25 };

/** The organisation's support priority when the ticket is opened, with the tier that gave it. */
export interface TicketSupport {
  level: SupportLevel;
  tierId: string;
  tierName: string;
}

export const MAX_TICKET_ATTACHMENTS = 5;
export const MAX_TICKET_TAGS = 20;
export const MAX_TAG_LENGTH = 40;

export const TICKET_MESSAGES = {
  notFound: 'Ticket not found.',
  titleRequired: 'Title is required',
  descriptionRequired: 'Description is required',
  assigneeRequired: 'Please select a user to assign this ticket to',
  assigneeNotStaff: 'Tickets can only be assigned to support staff or administrators.',
  commentRequired: 'Comment cannot be empty.',
  internalOnlyForStaff: 'Only support staff can add internal notes.',
  invalidStatus: `Status must be one of ${TICKET_STATUSES.join(', ')}.`,
  invalidPriority: `Priority must be one of ${TICKET_PRIORITIES.join(', ')}.`,
  invalidCategory: `Category must be one of ${TICKET_CATEGORIES.join(', ')}.`,
  invalidDueDate: 'Due date must be a date such as 2026-12-31.',
  dueDateInPast: 'The due date cannot be in the past.',
  tooManyAttachments: `A ticket may have at most ${MAX_TICKET_ATTACHMENTS} attachments.`,
  tooManyTags: `A ticket may have at most ${MAX_TICKET_TAGS} tags.`,
  tagTooLong: `Each tag may have at most ${MAX_TAG_LENGTH} characters.`,
  notYetDue: 'The ticket is not due yet.',
  notUnderWarranty: 'This unit is no longer under warranty: open a support case instead of a return.',
  rmaCreated: 'RMA request created successfully',
  created: 'Ticket created successfully',
  updated: 'Ticket updated successfully',
  statusUpdated: 'Ticket status updated successfully',
  commentAdded: 'Comment added successfully',
  assigned: 'Ticket assigned successfully',
  deleted: 'Ticket deleted successfully',
} as const;

/** Support staff: they see every ticket, write internal notes and take assignments. */
export const SUPPORT_STAFF_ROLES = ['support', 'admin', 'administrator'] as const;
export const isSupportStaff = (role: string | null | undefined) => typeof role === 'string' && (SUPPORT_STAFF_ROLES as readonly string[]).includes(role);

export const isTicketStatus = (value: unknown): value is TicketStatus => typeof value === 'string' && (TICKET_STATUSES as readonly string[]).includes(value);
export const isActiveStatus = (status: string) => (ACTIVE_TICKET_STATUSES as readonly string[]).includes(status);

// ---- state, events, commands ----

export interface TicketAttachment {
  /** The stored upload's name (private). */
  name: string;
  originalName: string;
  type: string;
}

export interface TicketCommentData {
  commentId: string;
  comment: string;
  isInternal: boolean;
}

export type TicketState =
  | { status: 'none' }
  | { status: 'deleted'; id: string }
  | {
      status: TicketStatus;
      id: string;
      ticketNumber: string;
      organisationId: string;
      createdBy: string;
      priority: TicketPriority;
      dueAt: string;
      assignedTo: string | null;
      /** The due time the ticket was marked overdue for; null when it is not overdue. */
      overdueFor: string | null;
      /** The stored names of its attachments. */
      attachments: string[];
      /** Not needed to decide; kept so the ticket can be read as it was at any past moment. */
      title: string;
      description: string;
      category: TicketCategory;
      tags: string[];
    };

interface TicketRef {
  ticketId: string;
  ticketNumber: string;
  organisationId: string;
}

export type TicketEvent =
  | {
      type: 'TicketOpened.v1';
      data: TicketRef & {
        companyName: string | null;
        createdBy: string;
        title: string;
        description: string;
        priority: TicketPriority;
        category: TicketCategory;
        tags: string[];
        dueAt: string;
        /** false when the due time comes from the service level of the priority */
        dueDateGiven: boolean;
        /** The tier's support priority that shortened the service level (absent at the standard level). */
        support?: TicketSupport;
        assignedTo: string | null;
        initialComment: TicketCommentData | null;
        attachments: TicketAttachment[];
        /** Set on RMA tickets. */
        rma?: TicketRmaLink | null;
        status: 'Open';
        previousStatus: null;
      };
    }
  | {
      type: 'TicketUpdated.v1';
      data: TicketRef & {
        title?: string;
        description?: string;
        priority?: TicketPriority;
        category?: TicketCategory;
        tags?: string[];
        dueAt?: string;
      };
    }
  | {
      type: 'TicketStatusChanged.v1';
      data: TicketRef & {
        status: TicketStatus;
        previousStatus: TicketStatus;
        /** The comment when it is public: status history shows it to everyone who sees the ticket. */
        reason: string | null;
        comment: TicketCommentData | null;
        resolutionNotes: string | null;
        createdBy: string;
      };
    }
  | { type: 'TicketCommented.v1'; data: TicketRef & TicketCommentData & { authorId: string; createdBy: string } }
  | {
      type: 'TicketAssigned.v1';
      data: TicketRef & { assignedTo: string; previousAssignee: string | null; comment: TicketCommentData | null };
    }
  | { type: 'TicketOverdue.v1'; data: TicketRef & { dueAt: string; assignedTo: string | null } }
  | { type: 'TicketDeleted.v1'; data: TicketRef };

export interface Assignee {
  id: string;
  role: string;
}

export type TicketCommand =
  | {
      type: 'OpenTicket';
      ticketId: string;
      ticketNumber: string;
      organisationId: string;
      companyName: string | null;
      title: string;
      description: string;
      priority?: string | null;
      category?: string | null;
      tags?: string[] | string | null;
      dueDate?: string | null;
      /** Undefined: not chosen. Null: a user was named who cannot be found. */
      assignee?: Assignee | null;
      initialComment?: { commentId: string; comment: string } | null;
      attachments: TicketAttachment[];
      /** A return: the unit, and whether it is under warranty now. */
      rma?: (TicketRmaLink & { underWarranty: boolean }) | null;
      /** Looked up from the organisation's programme tier in force when the ticket is opened; none: standard. */
      support?: TicketSupport | null;
    }
  | {
      type: 'UpdateTicket';
      title?: string;
      description?: string;
      priority?: string;
      category?: string;
      tags?: string[] | string;
      dueDate?: string;
    }
  | {
      type: 'ChangeTicketStatus';
      status: string;
      comment?: { commentId: string; comment: string; isInternal: boolean } | null;
      resolutionNotes?: string | null;
    }
  | { type: 'AddComment'; commentId: string; comment: string; isInternal: boolean }
  | { type: 'AssignTicket'; assignee: Assignee | null; comment?: { commentId: string; comment: string } | null }
  | { type: 'MarkTicketOverdue'; dueAt: string }
  | { type: 'DeleteTicket' };

const invalid = (message: string, field: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);

/** Tags: comma separated or a list; trimmed, blanks and repeats dropped. */
export function normalizeTags(tags: string[] | string | null | undefined): string[] {
  const list = typeof tags === 'string' ? tags.split(',') : (tags ?? []);
  const kept = [...new Set(list.map((tag) => tag.trim()).filter(Boolean))];
  if (kept.length > MAX_TICKET_TAGS) throw invalid(TICKET_MESSAGES.tooManyTags, 'tags');
  if (kept.some((tag) => tag.length > MAX_TAG_LENGTH)) throw invalid(TICKET_MESSAGES.tagTooLong, 'tags');
  return kept;
}

function priorityOf(value: string | null | undefined): TicketPriority {
  if (value === undefined || value === null || value === '') return 'Medium';
  if (!(TICKET_PRIORITIES as readonly string[]).includes(value)) throw invalid(TICKET_MESSAGES.invalidPriority, 'priority');
  return value as TicketPriority;
}

function categoryOf(value: string | null | undefined): TicketCategory {
  if (value === undefined || value === null || value === '') return 'General';
  if (!(TICKET_CATEGORIES as readonly string[]).includes(value)) throw invalid(TICKET_MESSAGES.invalidCategory, 'category');
  return value as TicketCategory;
}

/** A due date (YYYY-MM-DD, due at the end of that day UTC, or a full time); never before today. */
export function dueAtOf(dueDate: string, now: string): string {
  const text = dueDate.trim();
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const at = new Date(dateOnly ? `${text}T23:59:59.999Z` : text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(at.getTime())) throw invalid(TICKET_MESSAGES.invalidDueDate, 'due_date');
  if (dateOnly && text !== at.toISOString().slice(0, 10)) throw invalid(TICKET_MESSAGES.invalidDueDate, 'due_date');
  if (at.getTime() < new Date(now).getTime()) throw invalid(TICKET_MESSAGES.dueDateInPast, 'due_date');
  return at.toISOString();
}

export function serviceLevelDueAt(priority: TicketPriority, openedAt: string, level: SupportLevel = 'standard'): string {
  return new Date(new Date(openedAt).getTime() + Math.round(SERVICE_LEVEL_HOURS[priority] * SUPPORT_LEVEL_SHARE[level] * 3_600_000)).toISOString();
}

function assigneeOf(assignee: Assignee | null | undefined): string | null {
  if (assignee === undefined) return null;
  if (assignee === null) throw invalid(TICKET_MESSAGES.assigneeRequired, 'assigned_to');
  if (!isSupportStaff(assignee.role)) throw invalid(TICKET_MESSAGES.assigneeNotStaff, 'assigned_to');
  return assignee.id;
}

function requiredText(value: string | undefined, message: string, field: string): string {
  const text = value?.trim() ?? '';
  if (!text) throw invalid(message, field);
  return text;
}

function openTicket(command: Extract<TicketCommand, { type: 'OpenTicket' }>, metadata: CommandMetadata): TicketEvent[] {
  const title = requiredText(command.title, TICKET_MESSAGES.titleRequired, 'title');
  const description = requiredText(command.description, TICKET_MESSAGES.descriptionRequired, 'description');
  const priority = priorityOf(command.priority);
  if (command.rma && !command.rma.underWarranty) throw new DomainError('conflict', 'NOT_UNDER_WARRANTY', TICKET_MESSAGES.notUnderWarranty);
  const category = command.rma ? RMA_CATEGORY : categoryOf(command.category);
  const tags = normalizeTags(command.tags);
  const dueGiven = Boolean(command.dueDate?.trim());
  const support = command.support && command.support.level !== 'standard' ? command.support : null;
  const dueAt = dueGiven ? dueAtOf(command.dueDate!, metadata.now) : serviceLevelDueAt(priority, metadata.now, support?.level);
  const assignedTo = assigneeOf(command.assignee);
  if (command.attachments.length > MAX_TICKET_ATTACHMENTS) throw invalid(TICKET_MESSAGES.tooManyAttachments, 'attachments');
  const initial = command.initialComment?.comment.trim();
  return [
    {
      type: 'TicketOpened.v1',
      data: {
        ticketId: command.ticketId,
        ticketNumber: command.ticketNumber,
        organisationId: command.organisationId,
        companyName: command.companyName,
        createdBy: metadata.actorId ?? command.organisationId,
        title,
        description,
        priority,
        category,
        tags,
        dueAt,
        dueDateGiven: dueGiven,
        ...(support ? { support } : {}),
        assignedTo,
        initialComment: initial ? { commentId: command.initialComment!.commentId, comment: initial, isInternal: false } : null,
        attachments: command.attachments,
        ...(command.rma
          ? {
              rma: {
                serialNumber: command.rma.serialNumber,
                orderId: command.rma.orderId,
                orderNumber: command.rma.orderNumber,
                productName: command.rma.productName,
              },
            }
          : {}),
        status: 'Open',
        previousStatus: null,
      },
    },
  ];
}

type LiveTicket = Exclude<TicketState, { status: 'none' } | { status: 'deleted' }>;

function live(state: TicketState): LiveTicket {
  if (state.status === 'none' || state.status === 'deleted') throw new DomainError('not_found', 'NOT_FOUND', TICKET_MESSAGES.notFound);
  return state;
}

const refOf = (ticket: LiveTicket): TicketRef => ({ ticketId: ticket.id, ticketNumber: ticket.ticketNumber, organisationId: ticket.organisationId });

function commentOf(
  comment: { commentId: string; comment: string; isInternal?: boolean } | null | undefined,
  metadata: CommandMetadata,
): TicketCommentData | null {
  const text = comment?.comment.trim();
  if (!comment || !text) return null;
  const isInternal = comment.isInternal ?? false;
  if (isInternal && !isSupportStaff(metadata.actorRole)) throw new DomainError('forbidden', 'INTERNAL_NOTES_FOR_STAFF', TICKET_MESSAGES.internalOnlyForStaff);
  return { commentId: comment.commentId, comment: text, isInternal };
}

function updateTicket(ticket: LiveTicket, command: Extract<TicketCommand, { type: 'UpdateTicket' }>, metadata: CommandMetadata): TicketEvent[] {
  const changes: Omit<Extract<TicketEvent, { type: 'TicketUpdated.v1' }>['data'], keyof TicketRef> = {};
  if (command.title !== undefined) changes.title = requiredText(command.title, TICKET_MESSAGES.titleRequired, 'title');
  if (command.description !== undefined) changes.description = requiredText(command.description, TICKET_MESSAGES.descriptionRequired, 'description');
  if (command.priority !== undefined) changes.priority = priorityOf(command.priority);
  if (command.category !== undefined) changes.category = categoryOf(command.category);
  if (command.tags !== undefined) changes.tags = normalizeTags(command.tags);
  if (command.dueDate !== undefined && command.dueDate.trim()) {
    const dueAt = dueAtOf(command.dueDate, metadata.now);
    if (dueAt !== ticket.dueAt) changes.dueAt = dueAt;
  }
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'TicketUpdated.v1', data: { ...refOf(ticket), ...changes } }];
}

export function decide(command: TicketCommand, state: TicketState, metadata: CommandMetadata): TicketEvent[] {
  switch (command.type) {
    case 'OpenTicket':
      // Opening the same ticket again (a retried request) changes nothing.
      if (state.status !== 'none') return [];
      return openTicket(command, metadata);
    case 'UpdateTicket':
      return updateTicket(live(state), command, metadata);
    case 'ChangeTicketStatus': {
      const ticket = live(state);
      if (!isTicketStatus(command.status)) throw invalid(TICKET_MESSAGES.invalidStatus, 'status');
      const comment = commentOf(command.comment, metadata);
      const resolutionNotes = command.status === 'Resolved' ? command.resolutionNotes?.trim() || null : null;
      if (command.status === ticket.status && !comment) return [];
      return [
        {
          type: 'TicketStatusChanged.v1',
          data: {
            ...refOf(ticket),
            status: command.status,
            previousStatus: ticket.status,
            reason: comment && !comment.isInternal ? comment.comment : null,
            comment,
            resolutionNotes,
            createdBy: ticket.createdBy,
          },
        },
      ];
    }
    case 'AddComment': {
      const ticket = live(state);
      const comment = commentOf(command, metadata);
      if (!comment) throw invalid(TICKET_MESSAGES.commentRequired, 'comment');
      return [{ type: 'TicketCommented.v1', data: { ...refOf(ticket), ...comment, authorId: metadata.actorId ?? '', createdBy: ticket.createdBy } }];
    }
    case 'AssignTicket': {
      const ticket = live(state);
      const assignedTo = assigneeOf(command.assignee ?? null)!;
      // A note on an assignment is for the support team.
      const comment = command.comment ? commentOf({ ...command.comment, isInternal: isSupportStaff(metadata.actorRole) }, metadata) : null;
      if (assignedTo === ticket.assignedTo && !comment) return [];
      return [{ type: 'TicketAssigned.v1', data: { ...refOf(ticket), assignedTo, previousAssignee: ticket.assignedTo, comment } }];
    }
    case 'MarkTicketOverdue': {
      // Acts once per due time, only while the ticket is worked, and never before its time.
      if (state.status === 'none' || state.status === 'deleted') return [];
      if (!isActiveStatus(state.status) || state.dueAt !== command.dueAt || state.overdueFor === command.dueAt) return [];
      if (new Date(metadata.now).getTime() < new Date(state.dueAt).getTime()) throw new DomainError('conflict', 'NOT_YET_DUE', TICKET_MESSAGES.notYetDue);
      return [{ type: 'TicketOverdue.v1', data: { ...refOf(state), dueAt: state.dueAt, assignedTo: state.assignedTo } }];
    }
    case 'DeleteTicket': {
      if (state.status === 'deleted') return [];
      return [{ type: 'TicketDeleted.v1', data: refOf(live(state)) }];
    }
    default:
      return assertNever(command);
  }
}

export function evolve(state: TicketState, event: TicketEvent): TicketState {
  if (event.type === 'TicketOpened.v1') {
    const d = event.data;
    return {
      status: 'Open',
      id: d.ticketId,
      ticketNumber: d.ticketNumber,
      organisationId: d.organisationId,
      createdBy: d.createdBy,
      priority: d.priority,
      dueAt: d.dueAt,
      assignedTo: d.assignedTo,
      overdueFor: null,
      attachments: d.attachments.map((a) => a.name),
      title: d.title,
      description: d.description,
      category: d.category,
      tags: d.tags,
    };
  }
  if (state.status === 'none' || state.status === 'deleted') return state;
  switch (event.type) {
    case 'TicketUpdated.v1':
      return {
        ...state,
        priority: event.data.priority ?? state.priority,
        dueAt: event.data.dueAt ?? state.dueAt,
        title: event.data.title ?? state.title,
        description: event.data.description ?? state.description,
        category: event.data.category ?? state.category,
        tags: event.data.tags ?? state.tags,
        overdueFor: event.data.dueAt ? null : state.overdueFor,
      };
    case 'TicketStatusChanged.v1':
      return { ...state, status: event.data.status };
    case 'TicketCommented.v1':
      return state;
    case 'TicketAssigned.v1':
      return { ...state, assignedTo: event.data.assignedTo };
    case 'TicketOverdue.v1':
      return { ...state, overdueFor: event.data.dueAt };
    case 'TicketDeleted.v1':
      return { status: 'deleted', id: state.id };
    default:
      return assertNever(event);
  }
}

export const tickets: Decider<TicketState, TicketCommand, TicketEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `tickets-${id}`,
};

/** TCK-2026-000123: the year the ticket was opened and a number no other ticket has. */
export function formatTicketNumber(openedAt: string | Date, sequence: number | bigint): string {
  return `TCK-${new Date(openedAt).getUTCFullYear()}-${String(sequence).padStart(6, '0')}`;
}
export const TICKET_NUMBER_PATTERN = /^TCK-\d{4}-\d{6,}$/;
