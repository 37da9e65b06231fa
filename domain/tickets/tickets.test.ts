import { describe, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { formatTicketNumber, normalizeTags, serviceLevelDueAt, tickets, TICKET_MESSAGES, type TicketEvent } from './tickets';
import { expect } from 'vitest';

const spec = deciderSpec(tickets);
const NOW = '2026-11-21T10:00:00.000Z';
const ref = { ticketId: 't-1', ticketNumber: 'TCK-2026-000001', organisationId: 'org-1' };
const staff = { actorId: 'support-1', actorRole: 'support' };
const partner = { actorId: 'partner-1', actorRole: 'partner' };

const open = {
  type: 'OpenTicket' as const,
  ticketId: 't-1',
  ticketNumber: 'TCK-2026-000001',
  organisationId: 'org-1',
  companyName: 'Northwind Networks',
  title: '  Switch reboots  ',
  description: 'The HX-M2424 reboots every night.',
  attachments: [],
};

const opened: TicketEvent = {
  type: 'TicketOpened.v1',
  data: {
    ...ref,
    companyName: 'Northwind Networks',
    createdBy: 'partner-1',
    title: 'Switch reboots',
    description: 'The HX-M2424 reboots every night.',
    priority: 'Medium',
    category: 'General',
    tags: [],
    dueAt: '2026-11-24T10:00:00.000Z',
    dueDateGiven: false,
    assignedTo: null,
    initialComment: null,
    attachments: [],
    status: 'Open',
    previousStatus: null,
  },
};

const statusChanged = (
  status: 'Open' | 'In Progress' | 'Resolved' | 'Closed',
  previousStatus: 'Open' | 'In Progress' | 'Resolved' | 'Closed',
): TicketEvent => ({
  type: 'TicketStatusChanged.v1',
  data: { ...ref, status, previousStatus, reason: null, comment: null, resolutionNotes: null, createdBy: 'partner-1' },
});

describe('OpenTicket', () => {
  it('takes the share of the service level the tier’s support priority gives', () => {
    expect(serviceLevelDueAt('High', NOW)).toBe('2026-11-22T10:00:00.000Z');
    expect(serviceLevelDueAt('High', NOW, 'standard')).toBe('2026-11-22T10:00:00.000Z');
    expect(serviceLevelDueAt('High', NOW, 'priority')).toBe('2026-11-21T22:00:00.000Z');
    expect(serviceLevelDueAt('High', NOW, 'premium')).toBe('2026-11-21T16:00:00.000Z');
    expect(serviceLevelDueAt('Critical', NOW, 'premium')).toBe('2026-11-21T11:00:00.000Z');
  });

  it('records the tier’s support priority and shortens the service level by it', () => {
    const gold = { level: 'priority' as const, tierId: 'tier-gold', tierName: 'Gold' };
    spec
      .given([])
      .when({ ...open, support: gold }, partner)
      .then([{ ...opened, data: { ...opened.data, dueAt: '2026-11-22T22:00:00.000Z', support: gold } } as TicketEvent]);
  });

  it('records nothing at the standard support level, and a due date given stays as given', () => {
    spec
      .given([])
      .when({ ...open, support: { level: 'standard', tierId: 'tier-registered', tierName: 'Registered' } }, partner)
      .then([opened]);
    spec
      .given([])
      .when({ ...open, dueDate: '2026-12-01', support: { level: 'premium', tierId: 'tier-platinum', tierName: 'Platinum' } }, partner)
      .then([
        {
          ...opened,
          data: {
            ...opened.data,
            dueAt: '2026-12-01T23:59:59.999Z',
            dueDateGiven: true,
            support: { level: 'premium', tierId: 'tier-platinum', tierName: 'Platinum' },
          },
        } as TicketEvent,
      ]);
  });

  it('opens with the defaults: priority Medium, category General, due by the Medium service level', () => {
    spec.given([]).when(open, partner).then([opened]);
  });

  it('keeps priority, category, trimmed tags, the due date, the assignee, the initial comment and attachments', () => {
    spec
      .given([])
      .when(
        {
          ...open,
          priority: 'Critical',
          category: 'Bug Report',
          tags: ' firmware, ,  poe ,firmware',
          dueDate: '2026-11-30',
          assignee: { id: 'support-1', role: 'support' },
          initialComment: { commentId: 'c-1', comment: '  Started after the 4.2 upgrade. ' },
          attachments: [{ name: 'a.pdf', originalName: 'log.pdf', type: 'pdf' }],
        },
        partner,
      )
      .then([
        {
          ...opened,
          data: {
            ...(opened.data as Extract<TicketEvent, { type: 'TicketOpened.v1' }>['data']),
            priority: 'Critical',
            category: 'Bug Report',
            tags: ['firmware', 'poe'],
            dueAt: '2026-11-30T23:59:59.999Z',
            dueDateGiven: true,
            assignedTo: 'support-1',
            initialComment: { commentId: 'c-1', comment: 'Started after the 4.2 upgrade.', isInternal: false },
            attachments: [{ name: 'a.pdf', originalName: 'log.pdf', type: 'pdf' }],
          },
        } as TicketEvent,
      ]);
  });

  it('gives a Critical ticket 4 hours and a Low one a week', () => {
    const dueOf = (priority: string) =>
      (
        tickets.decide({ ...open, priority }, tickets.initialState(), {
          now: NOW,
          actorId: 'p',
          actorRole: 'partner',
          correlationId: 'c',
          causationId: null,
        })[0].data as { dueAt: string }
      ).dueAt;
    expect(dueOf('Critical')).toBe('2026-11-21T14:00:00.000Z');
    expect(dueOf('High')).toBe('2026-11-22T10:00:00.000Z');
    expect(dueOf('Low')).toBe('2026-11-28T10:00:00.000Z');
  });

  it('is a no-op when the ticket already exists', () => {
    spec.given([opened]).when(open, partner).then([]);
  });

  it('refuses a blank title or description with the spec messages', () => {
    spec
      .given([])
      .when({ ...open, title: '   ' })
      .thenThrows(TICKET_MESSAGES.titleRequired, 'VALIDATION_ERROR');
    spec
      .given([])
      .when({ ...open, description: '' })
      .thenThrows(TICKET_MESSAGES.descriptionRequired, 'VALIDATION_ERROR');
  });

  it('refuses unknown priorities and categories', () => {
    spec
      .given([])
      .when({ ...open, priority: 'Urgent' })
      .thenThrows(TICKET_MESSAGES.invalidPriority);
    spec
      .given([])
      .when({ ...open, category: 'Hardware' })
      .thenThrows(TICKET_MESSAGES.invalidCategory);
  });

  it('refuses a due date in the past or not a date', () => {
    spec
      .given([])
      .when({ ...open, dueDate: '2026-11-20' })
      .thenThrows(TICKET_MESSAGES.dueDateInPast);
    spec
      .given([])
      .when({ ...open, dueDate: '2026-02-30' })
      .thenThrows(TICKET_MESSAGES.invalidDueDate);
    spec
      .given([])
      .when({ ...open, dueDate: 'tomorrow' })
      .thenThrows(TICKET_MESSAGES.invalidDueDate);
  });

  it('refuses an assignee who is not support staff, or one that cannot be found', () => {
    spec
      .given([])
      .when({ ...open, assignee: { id: 'p-2', role: 'partner' } })
      .thenThrows(TICKET_MESSAGES.assigneeNotStaff);
    spec
      .given([])
      .when({ ...open, assignee: null })
      .thenThrows(TICKET_MESSAGES.assigneeRequired);
  });

  it('refuses more than 5 attachments and too many or too long tags', () => {
    const file = { name: 'a.pdf', originalName: 'a.pdf', type: 'pdf' };
    spec
      .given([])
      .when({ ...open, attachments: Array(6).fill(file) })
      .thenThrows(TICKET_MESSAGES.tooManyAttachments);
    spec
      .given([])
      .when({ ...open, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) })
      .thenThrows(TICKET_MESSAGES.tooManyTags);
    spec
      .given([])
      .when({ ...open, tags: ['x'.repeat(41)] })
      .thenThrows(TICKET_MESSAGES.tagTooLong);
  });
});

describe('OpenTicket for a return (RMA)', () => {
  const rma = { serialNumber: 'SN-2026-001001-01001', orderId: 'o-1', orderNumber: 'ORD-2026-001001', productName: 'HX-M2424' };
  it('opens an RMA ticket linked to the order and unit', () => {
    const [event] = tickets.decide({ ...open, category: 'General', rma: { ...rma, underWarranty: true } }, tickets.initialState(), {
      now: NOW,
      actorId: 'partner-1',
      actorRole: 'partner',
      correlationId: 'c',
      causationId: null,
    });
    expect(event.data).toMatchObject({ category: 'RMA', rma });
  });
  it('refuses a unit out of warranty', () => {
    spec
      .given([])
      .when({ ...open, rma: { ...rma, underWarranty: false } }, partner)
      .thenThrows(TICKET_MESSAGES.notUnderWarranty, 'NOT_UNDER_WARRANTY');
  });
  it("does not accept 'RMA' as a category chosen in the form", () => {
    spec
      .given([])
      .when({ ...open, category: 'RMA' }, partner)
      .thenThrows(TICKET_MESSAGES.invalidCategory);
  });
});

describe('ChangeTicketStatus', () => {
  it('moves to any status, with a public comment as the reason and resolution notes on Resolved', () => {
    spec
      .given([opened])
      .when(
        {
          type: 'ChangeTicketStatus',
          status: 'Resolved',
          comment: { commentId: 'c-2', comment: 'Fixed in 4.2.1', isInternal: false },
          resolutionNotes: ' Firmware 4.2.1 ',
        },
        staff,
      )
      .then([
        {
          type: 'TicketStatusChanged.v1',
          data: {
            ...ref,
            status: 'Resolved',
            previousStatus: 'Open',
            reason: 'Fixed in 4.2.1',
            comment: { commentId: 'c-2', comment: 'Fixed in 4.2.1', isInternal: false },
            resolutionNotes: 'Firmware 4.2.1',
            createdBy: 'partner-1',
          },
        },
      ]);
    spec
      .given([opened, statusChanged('Closed', 'Open')])
      .when({ type: 'ChangeTicketStatus', status: 'Open' }, staff)
      .then([statusChanged('Open', 'Closed')]);
  });

  it('keeps an internal comment out of the reason, so status history never shows it', () => {
    spec
      .given([opened])
      .when({ type: 'ChangeTicketStatus', status: 'In Progress', comment: { commentId: 'c-3', comment: 'Waiting on R&D', isInternal: true } }, staff)
      .then([
        {
          type: 'TicketStatusChanged.v1',
          data: {
            ...ref,
            status: 'In Progress',
            previousStatus: 'Open',
            reason: null,
            comment: { commentId: 'c-3', comment: 'Waiting on R&D', isInternal: true },
            resolutionNotes: null,
            createdBy: 'partner-1',
          },
        },
      ]);
  });

  it('changes nothing when the status is the same and there is no comment', () => {
    spec.given([opened]).when({ type: 'ChangeTicketStatus', status: 'Open' }, staff).then([]);
  });

  it('refuses unknown statuses, internal notes from partners and unknown tickets', () => {
    spec.given([opened]).when({ type: 'ChangeTicketStatus', status: 'Done' }, staff).thenThrows(TICKET_MESSAGES.invalidStatus);
    spec
      .given([opened])
      .when({ type: 'ChangeTicketStatus', status: 'Closed', comment: { commentId: 'c', comment: 'x', isInternal: true } }, partner)
      .thenThrows(TICKET_MESSAGES.internalOnlyForStaff, 'INTERNAL_NOTES_FOR_STAFF');
    spec.given([]).when({ type: 'ChangeTicketStatus', status: 'Closed' }, staff).thenThrows(TICKET_MESSAGES.notFound, 'NOT_FOUND');
  });
});

describe('AddComment', () => {
  it('adds a trimmed public reply or an internal note', () => {
    spec
      .given([opened])
      .when({ type: 'AddComment', commentId: 'c-4', comment: ' Any update? ', isInternal: false }, partner)
      .then([
        {
          type: 'TicketCommented.v1',
          data: { ...ref, commentId: 'c-4', comment: 'Any update?', isInternal: false, authorId: 'partner-1', createdBy: 'partner-1' },
        },
      ]);
    spec
      .given([opened])
      .when({ type: 'AddComment', commentId: 'c-5', comment: 'Known issue HX-311', isInternal: true }, staff)
      .then([
        {
          type: 'TicketCommented.v1',
          data: { ...ref, commentId: 'c-5', comment: 'Known issue HX-311', isInternal: true, authorId: 'support-1', createdBy: 'partner-1' },
        },
      ]);
  });

  it('refuses an empty comment, an internal note from a partner and a deleted ticket', () => {
    spec.given([opened]).when({ type: 'AddComment', commentId: 'c', comment: '  ', isInternal: false }, partner).thenThrows(TICKET_MESSAGES.commentRequired);
    spec.given([opened]).when({ type: 'AddComment', commentId: 'c', comment: 'x', isInternal: true }, partner).thenThrows(TICKET_MESSAGES.internalOnlyForStaff);
    spec
      .given([opened, { type: 'TicketDeleted.v1', data: ref }])
      .when({ type: 'AddComment', commentId: 'c', comment: 'x', isInternal: false }, staff)
      .thenThrows(TICKET_MESSAGES.notFound);
  });
});

describe('AssignTicket', () => {
  it('assigns to support staff, with the note kept internal', () => {
    spec
      .given([opened])
      .when({ type: 'AssignTicket', assignee: { id: 'support-2', role: 'support' }, comment: { commentId: 'c-6', comment: 'Jordan knows PoE' } }, staff)
      .then([
        {
          type: 'TicketAssigned.v1',
          data: { ...ref, assignedTo: 'support-2', previousAssignee: null, comment: { commentId: 'c-6', comment: 'Jordan knows PoE', isInternal: true } },
        },
      ]);
  });

  it('changes nothing when assigned to the same person again', () => {
    const assigned: TicketEvent = { type: 'TicketAssigned.v1', data: { ...ref, assignedTo: 'support-2', previousAssignee: null, comment: null } };
    spec
      .given([opened, assigned])
      .when({ type: 'AssignTicket', assignee: { id: 'support-2', role: 'support' } }, staff)
      .then([]);
  });

  it("refuses without an assignee ('Please select a user to assign this ticket to') or with one who is not staff", () => {
    spec.given([opened]).when({ type: 'AssignTicket', assignee: null }, staff).thenThrows(TICKET_MESSAGES.assigneeRequired, 'VALIDATION_ERROR');
    spec
      .given([opened])
      .when({ type: 'AssignTicket', assignee: { id: 'd-1', role: 'distributor' } }, staff)
      .thenThrows(TICKET_MESSAGES.assigneeNotStaff);
  });
});

describe('UpdateTicket', () => {
  it('records the changed fields; a new due date clears the overdue mark', () => {
    const overdue: TicketEvent = { type: 'TicketOverdue.v1', data: { ...ref, dueAt: '2026-11-24T10:00:00.000Z', assignedTo: null } };
    spec
      .given([opened, overdue])
      .when({ type: 'UpdateTicket', title: 'Switch reboots nightly', priority: 'High', tags: 'a, b', dueDate: '2026-12-01' }, staff)
      .then([
        { type: 'TicketUpdated.v1', data: { ...ref, title: 'Switch reboots nightly', priority: 'High', tags: ['a', 'b'], dueAt: '2026-12-01T23:59:59.999Z' } },
      ]);
    const state = [opened, overdue, { type: 'TicketUpdated.v1', data: { ...ref, dueAt: '2026-12-01T23:59:59.999Z' } } as TicketEvent].reduce(
      tickets.evolve,
      tickets.initialState(),
    );
    expect(state).toMatchObject({ overdueFor: null, dueAt: '2026-12-01T23:59:59.999Z' });
  });

  it('changes nothing when nothing is sent and refuses a blank title', () => {
    spec.given([opened]).when({ type: 'UpdateTicket' }, staff).then([]);
    spec.given([opened]).when({ type: 'UpdateTicket', title: ' ' }, staff).thenThrows(TICKET_MESSAGES.titleRequired);
    spec.given([]).when({ type: 'UpdateTicket', title: 'x' }, staff).thenThrows(TICKET_MESSAGES.notFound);
  });
});

describe('MarkTicketOverdue', () => {
  const due = '2026-11-24T10:00:00.000Z';
  const overdue: TicketEvent = { type: 'TicketOverdue.v1', data: { ...ref, dueAt: due, assignedTo: null } };
  const after = { now: '2026-11-24T10:00:01.000Z', actorId: null, actorRole: 'system' };

  it('marks an open ticket overdue once its due time has passed', () => {
    spec.given([opened]).when({ type: 'MarkTicketOverdue', dueAt: due }, after).then([overdue]);
  });

  it('refuses to act early', () => {
    spec
      .given([opened])
      .when({ type: 'MarkTicketOverdue', dueAt: due }, { now: '2026-11-24T09:59:59.000Z' })
      .thenThrows(TICKET_MESSAGES.notYetDue, 'NOT_YET_DUE');
  });

  it('acts only once, not for a resolved or deleted ticket, and not for a due time that has changed', () => {
    spec.given([opened, overdue]).when({ type: 'MarkTicketOverdue', dueAt: due }, after).then([]);
    spec
      .given([opened, statusChanged('Resolved', 'Open')])
      .when({ type: 'MarkTicketOverdue', dueAt: due }, after)
      .then([]);
    spec
      .given([opened, { type: 'TicketDeleted.v1', data: ref }])
      .when({ type: 'MarkTicketOverdue', dueAt: due }, after)
      .then([]);
    spec.given([opened]).when({ type: 'MarkTicketOverdue', dueAt: '2026-11-23T10:00:00.000Z' }, after).then([]);
    spec.given([]).when({ type: 'MarkTicketOverdue', dueAt: due }, after).then([]);
  });

  it('works an In Progress ticket too', () => {
    spec
      .given([opened, statusChanged('In Progress', 'Open')])
      .when({ type: 'MarkTicketOverdue', dueAt: due }, after)
      .then([overdue]);
  });
});

describe('DeleteTicket', () => {
  it('records the deletion once', () => {
    spec
      .given([opened])
      .when({ type: 'DeleteTicket' }, { actorRole: 'admin' })
      .then([{ type: 'TicketDeleted.v1', data: ref }]);
    spec
      .given([opened, { type: 'TicketDeleted.v1', data: ref }])
      .when({ type: 'DeleteTicket' })
      .then([]);
  });

  it('refuses an unknown ticket', () => {
    spec.given([]).when({ type: 'DeleteTicket' }).thenThrows(TICKET_MESSAGES.notFound, 'NOT_FOUND');
  });
});

describe('ticket numbers and tags', () => {
  it('formats numbers people can say on the phone', () => {
    expect(formatTicketNumber('2026-03-01T00:00:00Z', 123)).toBe('TCK-2026-000123');
  });
  it('trims tags and drops blanks', () => {
    expect(normalizeTags(' a ,, b ,a')).toEqual(['a', 'b']);
    expect(normalizeTags(null)).toEqual([]);
  });
});
