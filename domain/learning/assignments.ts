import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';

/**
 * A course an organisation owner assigns to one of its people (or to itself) with a due date. It is
 * completed when the person passes the course (or finishes every lesson of a course without a quiz):
 * the read model marks that, so the assignment's own stream holds only the owner's acts and the
 * worker's reminders. The member's organisation, the course's status and whether the person already
 * completed it come in with the command.
 */

/** The person is reminded DUE_SOON_DAYS before the due date, and once when it has passed. */
export const ASSIGNMENT_REMINDERS = ['due-soon', 'overdue'] as const;
export type AssignmentReminder = (typeof ASSIGNMENT_REMINDERS)[number];
export const DUE_SOON_DAYS = 3;

export interface LiveAssignment {
  status: 'open' | 'cancelled';
  id: string;
  organisationId: string;
  userId: string;
  courseId: string;
  dueDate: string;
  reminded: AssignmentReminder[];
}

export type AssignmentState = { status: 'none' } | LiveAssignment;

type Common = { assignmentId: string };

export type AssignmentEvent =
  | {
      type: 'CourseAssigned.v1';
      data: Common & {
        organisationId: string;
        userId: string;
        courseId: string;
        dueDate: string;
        note: string | null;
        assignedBy: string | null;
        status: 'open';
        previousStatus: null;
      };
    }
  | { type: 'AssignmentCancelled.v1'; data: Common & { organisationId: string; status: 'cancelled'; previousStatus: 'open' } }
  | { type: 'AssignmentReminderSent.v1'; data: Common & { userId: string; courseId: string; dueDate: string; reminder: AssignmentReminder } };

export type AssignmentCommand =
  | {
      type: 'AssignCourse';
      assignmentId: string;
      /** The owner's organisation (the caller's). */
      actorOrganisationId: string | null;
      /** The assignee's organisation, looked up. */
      memberOrganisationId: string | null;
      userId: string;
      courseId: string;
      courseStatus: string | null;
      dueDate: string;
      note: string | null;
    }
  | { type: 'CancelAssignment'; actorOrganisationId: string | null }
  | { type: 'RemindAssignment'; dueDate: string; reminder: AssignmentReminder };

export const ASSIGNMENT_MESSAGES = {
  assigned: 'Course assigned',
  cancelled: 'Assignment cancelled',
  notFound: 'Assignment not found.',
  notYourMember: 'You can assign courses only to people of your organisation.',
  courseNotOpen: 'Only published courses can be assigned.',
  dueInPast: 'The due date must be today or later.',
  notOpen: 'This assignment is no longer open.',
  notYours: 'This assignment is not your organisation’s.',
  reminderNotDue: 'This reminder is not due yet.',
} as const;

/** The moment a reminder is due: DUE_SOON_DAYS before the due date's start, or the end of the due date (UTC). */
export function assignmentReminderAt(dueDate: string, reminder: AssignmentReminder): string {
  const start = Date.parse(`${dueDate}T00:00:00.000Z`);
  return new Date(reminder === 'due-soon' ? start - DUE_SOON_DAYS * 86_400_000 : start + 86_400_000).toISOString();
}

function existing(state: AssignmentState): LiveAssignment {
  if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', ASSIGNMENT_MESSAGES.notFound);
  return state;
}

export function decide(command: AssignmentCommand, state: AssignmentState, metadata: CommandMetadata): AssignmentEvent[] {
  switch (command.type) {
    case 'AssignCourse': {
      if (state.status !== 'none') return [];
      if (!command.actorOrganisationId || command.memberOrganisationId !== command.actorOrganisationId)
        throw new DomainError('forbidden', 'NOT_YOUR_MEMBER', ASSIGNMENT_MESSAGES.notYourMember);
      if (command.courseStatus !== 'published') throw new DomainError('conflict', 'COURSE_NOT_OPEN', ASSIGNMENT_MESSAGES.courseNotOpen);
      if (command.dueDate < metadata.now.slice(0, 10))
        throw new DomainError('invalid', 'VALIDATION_ERROR', ASSIGNMENT_MESSAGES.dueInPast, [{ field: 'due_date', message: ASSIGNMENT_MESSAGES.dueInPast }]);
      return [
        {
          type: 'CourseAssigned.v1',
          data: {
            assignmentId: command.assignmentId,
            organisationId: command.actorOrganisationId,
            userId: command.userId,
            courseId: command.courseId,
            dueDate: command.dueDate,
            note: command.note?.trim() || null,
            assignedBy: metadata.actorId,
            status: 'open',
            previousStatus: null,
          },
        },
      ];
    }
    case 'CancelAssignment': {
      const assignment = existing(state);
      if (command.actorOrganisationId !== assignment.organisationId) throw new DomainError('forbidden', 'NOT_YOURS', ASSIGNMENT_MESSAGES.notYours);
      if (assignment.status !== 'open') throw new DomainError('conflict', 'ASSIGNMENT_NOT_OPEN', ASSIGNMENT_MESSAGES.notOpen);
      return [
        {
          type: 'AssignmentCancelled.v1',
          data: { assignmentId: assignment.id, organisationId: assignment.organisationId, status: 'cancelled', previousStatus: 'open' },
        },
      ];
    }
    case 'RemindAssignment': {
      const assignment = existing(state);
      if (assignment.status !== 'open' || assignment.dueDate !== command.dueDate || assignment.reminded.includes(command.reminder)) return [];
      if (Date.parse(metadata.now) < Date.parse(assignmentReminderAt(command.dueDate, command.reminder)))
        throw new DomainError('conflict', 'REMINDER_NOT_DUE', ASSIGNMENT_MESSAGES.reminderNotDue);
      return [
        {
          type: 'AssignmentReminderSent.v1',
          data: {
            assignmentId: assignment.id,
            userId: assignment.userId,
            courseId: assignment.courseId,
            dueDate: assignment.dueDate,
            reminder: command.reminder,
          },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

export function evolve(state: AssignmentState, event: AssignmentEvent): AssignmentState {
  if (event.type === 'CourseAssigned.v1') {
    const d = event.data;
    return { status: 'open', id: d.assignmentId, organisationId: d.organisationId, userId: d.userId, courseId: d.courseId, dueDate: d.dueDate, reminded: [] };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'AssignmentCancelled.v1':
      return { ...state, status: 'cancelled' };
    case 'AssignmentReminderSent.v1':
      return { ...state, reminded: [...state.reminded, event.data.reminder] };
    default:
      return assertNever(event);
  }
}

export const assignments: Decider<AssignmentState, AssignmentCommand, AssignmentEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `assignments-${id}`,
};
