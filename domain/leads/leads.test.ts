import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { contactVisibleTo, LAPSE_REASON, LEAD_MESSAGES, leads, type LeadCommand, type LeadDetails, type LeadEvent, type LeadState } from './leads';
import { fold } from '../decider';

const spec = deciderSpec(leads);
const id = 'lead-1';
const now = '2026-11-21T10:00:00.000Z';
const due = '2026-11-23T10:00:00.000Z';
const admin = { actorId: 'admin-1', actorRole: 'admin' };
const partner = { actorId: 'user-1', actorRole: 'partner' };
const other = { actorId: 'user-2', actorRole: 'partner' };

const details: LeadDetails = {
  company: 'Contoso Ltd',
  contactName: 'Ada Lovelace',
  email: 'ada@contoso.example',
  phone: '+44 20 7946 0000',
  country: 'GB',
  region: 'EMEA',
  productInterest: 'Managed Switches',
  estimatedValue: 120000,
  source: 'web_form',
  notes: null,
};

const created: LeadEvent = {
  type: 'LeadCreated.v1',
  data: { leadId: id, ...details, createdBy: 'admin-1', duplicateOf: null, routing: [], status: 'unassigned', previousStatus: null },
};
const assignedTo = (
  organisationId: string,
  dueAt = due,
  previousStatus: 'unassigned' | 'accepted' = 'unassigned',
  previousOrganisationId: string | null = null,
): LeadEvent => ({
  type: 'LeadAssigned.v1',
  data: {
    leadId: id,
    organisationId,
    ruleId: 'rule-1',
    method: 'round_robin',
    reason: 'Rule "EMEA"',
    dueAt,
    previousOrganisationId,
    status: 'assigned',
    previousStatus,
  },
});
const next = (organisationId: string, dueAt = '2026-11-25T10:00:00.000Z') => ({
  organisationId,
  ruleId: 'rule-1',
  method: 'round_robin' as const,
  reason: 'Rule "EMEA"',
  dueAt,
});
const accepted: LeadEvent = { type: 'LeadAccepted.v1', data: { leadId: id, organisationId: 'org-1', status: 'accepted', previousStatus: 'assigned' } };
const lapsedTo = (passedTo: string | null): LeadEvent => ({
  type: 'LeadLapsed.v1',
  data: { leadId: id, organisationId: 'org-1', dueAt: due, reason: LAPSE_REASON, passedTo, status: 'unassigned', previousStatus: 'assigned' },
});
const declinedTo = (passedTo: string | null): LeadEvent => ({
  type: 'LeadDeclined.v1',
  data: { leadId: id, organisationId: 'org-1', reason: 'Outside our territory', passedTo, status: 'unassigned', previousStatus: 'assigned' },
});
const lapsed = lapsedTo(null);
const declined = declinedTo(null);
const changed = (
  status: 'contacted' | 'qualified' | 'disqualified',
  previousStatus: 'accepted' | 'contacted' | 'qualified',
  reason: string | null = null,
): LeadEvent => ({
  type: 'LeadStatusChanged.v1',
  data: { leadId: id, organisationId: 'org-1', status, previousStatus, reason },
});
const converted = (previousStatus: 'accepted' | 'contacted' | 'qualified' = 'qualified'): LeadEvent => ({
  type: 'LeadConverted.v1',
  data: { leadId: id, organisationId: 'org-1', projectId: 'project-1', status: 'converted', previousStatus },
});

const create = (overrides: Partial<Extract<LeadCommand, { type: 'CreateLead' }>> = {}): LeadCommand => ({
  type: 'CreateLead',
  leadId: id,
  details,
  createdBy: 'admin-1',
  duplicateOf: null,
  routing: [],
  assignment: null,
  ...overrides,
});
const accept = (org: string | null = 'org-1'): LeadCommand => ({ type: 'AcceptLead', actorOrganisationId: org });
const decline = (reason: string | null, nextAssignment: ReturnType<typeof next> | null = null, org = 'org-1'): LeadCommand => ({
  type: 'DeclineLead',
  actorOrganisationId: org,
  reason,
  next: nextAssignment,
});
const lapse = (nextAssignment: ReturnType<typeof next> | null = null, dueAt = due): LeadCommand => ({ type: 'LapseLead', dueAt, next: nextAssignment });
const status = (to: string, reason: string | null = null, org = 'org-1'): LeadCommand => ({
  type: 'ChangeLeadStatus',
  actorOrganisationId: org,
  status: to,
  reason,
});
const convert = (org = 'org-1'): LeadCommand => ({ type: 'ConvertLead', actorOrganisationId: org, projectId: 'project-1' });

describe('CreateLead', () => {
  it('creates an unassigned lead with normalised fields', () => {
    spec
      .given([])
      .when(create({ details: { ...details, company: ' Contoso Ltd ', email: ' ADA@Contoso.Example ', country: 'gb', phone: ' ', notes: '' } }), {
        ...admin,
        now,
      })
      .then([{ ...created, data: { ...created.data, phone: null } }]);
  });

  it('assigns it at once when routing found an organisation, with the rule and the reason recorded', () => {
    spec
      .given([])
      .when(create({ assignment: { organisationId: 'org-1', ruleId: 'rule-1', method: 'round_robin', reason: 'Rule "EMEA"', dueAt: due } }), admin)
      .then([created, assignedTo('org-1')]);
  });

  it('flags a duplicate and does not route it', () => {
    const duplicateOf = { type: 'project' as const, id: 'project-9' };
    spec
      .given([])
      .when(create({ duplicateOf, assignment: { organisationId: 'org-1', ruleId: 'rule-1', method: 'round_robin', reason: 'x', dueAt: due } }), admin)
      .then([{ ...created, data: { ...created.data, duplicateOf } } as LeadEvent]);
  });

  it('changes nothing when the same lead is created again (an import sent twice)', () => {
    spec.given([created]).when(create(), admin).then([]);
  });

  it.each([
    [{ company: ' ' }, LEAD_MESSAGES.companyRequired],
    [{ contactName: '' }, LEAD_MESSAGES.contactRequired],
    [{ email: '' }, LEAD_MESSAGES.emailRequired],
    [{ email: 'not-an-address' }, LEAD_MESSAGES.emailInvalid],
    [{ country: 'Germany' }, LEAD_MESSAGES.countryInvalid],
    [{ region: 'Mars' }, LEAD_MESSAGES.regionInvalid],
    [{ productInterest: 'Toasters' }, LEAD_MESSAGES.productInterestInvalid],
    [{ estimatedValue: -1 }, LEAD_MESSAGES.valueInvalid],
    [{ source: 'billboard' }, LEAD_MESSAGES.sourceInvalid],
    [{ notes: 'x'.repeat(2001) }, LEAD_MESSAGES.notesTooLong],
  ])('refuses %o', (overrides, message) => {
    spec
      .given([])
      .when(create({ details: { ...details, ...(overrides as Partial<LeadDetails>) } }), admin)
      .thenThrows(message, 'VALIDATION_ERROR');
  });
});

describe('AssignLead (admin override)', () => {
  it('assigns an unassigned lead', () => {
    spec
      .given([created])
      .when({ type: 'AssignLead', assignment: { organisationId: 'org-2', ruleId: null, method: 'manual', reason: 'Key account', dueAt: due } }, admin)
      .then([
        {
          type: 'LeadAssigned.v1',
          data: {
            leadId: id,
            organisationId: 'org-2',
            ruleId: null,
            method: 'manual',
            reason: 'Key account',
            dueAt: due,
            previousOrganisationId: null,
            status: 'assigned',
            previousStatus: 'unassigned',
          },
        },
      ]);
  });

  it('reassigns an accepted lead to another organisation', () => {
    spec
      .given([created, assignedTo('org-1'), accepted])
      .when({ type: 'AssignLead', assignment: { organisationId: 'org-2', ruleId: null, method: 'manual', reason: 'Reassigned', dueAt: due } }, admin)
      .then([
        {
          type: 'LeadAssigned.v1',
          data: {
            leadId: id,
            organisationId: 'org-2',
            ruleId: null,
            method: 'manual',
            reason: 'Reassigned',
            dueAt: due,
            previousOrganisationId: 'org-1',
            status: 'assigned',
            previousStatus: 'accepted',
          },
        },
      ]);
  });

  it('is for admins only', () => {
    spec
      .given([created])
      .when({ type: 'AssignLead', assignment: { organisationId: 'org-2', ruleId: null, method: 'manual', reason: 'x', dueAt: due } }, partner)
      .thenThrows(LEAD_MESSAGES.onlyAdminsAssign, 'INSUFFICIENT_PERMISSIONS');
  });

  it('refuses the organisation that already holds it, and a converted lead', () => {
    const cmd: LeadCommand = { type: 'AssignLead', assignment: { organisationId: 'org-1', ruleId: null, method: 'manual', reason: 'x', dueAt: due } };
    spec
      .given([created, assignedTo('org-1')])
      .when(cmd, admin)
      .thenThrows(LEAD_MESSAGES.sameOrganisation, 'LEAD_ALREADY_ASSIGNED');
    spec
      .given([created, assignedTo('org-1'), accepted, converted('accepted')])
      .when({ ...cmd, assignment: { ...cmd.assignment, organisationId: 'org-2' } }, admin)
      .thenThrows(/converted/, 'LEAD_CLOSED');
  });
});

describe('AcceptLead', () => {
  it('accepts a lead awaiting the organisation within the window', () => {
    spec
      .given([created, assignedTo('org-1')])
      .when(accept(), { ...partner, now })
      .then([accepted]);
  });

  it('refuses another organisation', () => {
    spec
      .given([created, assignedTo('org-1')])
      .when(accept('org-2'), other)
      .thenThrows(LEAD_MESSAGES.notYours, 'LEAD_NOT_YOURS');
  });

  it('refuses after the window closed, even before the worker passed it on', () => {
    spec
      .given([created, assignedTo('org-1')])
      .when(accept(), { ...partner, now: due })
      .thenThrows(LEAD_MESSAGES.windowClosed, 'ACCEPTANCE_WINDOW_CLOSED');
  });

  it('refuses after the lead lapsed', () => {
    spec
      .given([created, assignedTo('org-1'), lapsed])
      .when(accept(), partner)
      .thenThrows(LEAD_MESSAGES.notYours, 'LEAD_NOT_YOURS');
    spec
      .given([created, assignedTo('org-1'), lapsed, assignedTo('org-2', '2026-11-25T10:00:00.000Z')])
      .when(accept(), partner)
      .thenThrows(LEAD_MESSAGES.notYours, 'LEAD_NOT_YOURS');
  });

  it('refuses a lead already accepted', () => {
    spec
      .given([created, assignedTo('org-1'), accepted])
      .when(accept(), partner)
      .thenThrows(/not awaiting acceptance/, 'LEAD_NOT_AWAITING');
  });
});

describe('DeclineLead', () => {
  it('needs a reason', () => {
    spec
      .given([created, assignedTo('org-1')])
      .when(decline('  '), partner)
      .thenThrows(LEAD_MESSAGES.reasonRequired, 'VALIDATION_ERROR');
    spec
      .given([created, assignedTo('org-1')])
      .when(decline(null), partner)
      .thenThrows(LEAD_MESSAGES.reasonRequired, 'VALIDATION_ERROR');
  });

  it('returns the lead to the queue when nobody else is eligible', () => {
    spec
      .given([created, assignedTo('org-1')])
      .when(decline(' Outside our territory '), { ...partner, now })
      .then([declined]);
  });

  it('passes it on to the next eligible organisation', () => {
    spec
      .given([created, assignedTo('org-1')])
      .when(decline('Outside our territory', next('org-2')), { ...partner, now })
      .then([declinedTo('org-2'), assignedTo('org-2', '2026-11-25T10:00:00.000Z', 'unassigned', 'org-1')]);
  });

  it('refuses another organisation', () => {
    spec
      .given([created, assignedTo('org-1')])
      .when(decline('x', null, 'org-2'), other)
      .thenThrows(LEAD_MESSAGES.notYours);
  });
});

describe('LapseLead (the worker)', () => {
  it('passes the unanswered lead on to the next eligible organisation', () => {
    spec
      .given([created, assignedTo('org-1')])
      .when(lapse(next('org-2')), { actorRole: null, actorId: null, now: due })
      .then([lapsedTo('org-2'), assignedTo('org-2', '2026-11-25T10:00:00.000Z', 'unassigned', 'org-1')]);
  });

  it('returns it to the unassigned queue after the last one', () => {
    spec
      .given([created, assignedTo('org-1')])
      .when(lapse(null), { actorRole: null, actorId: null, now: due })
      .then([lapsed]);
  });

  it('refuses to act before the window closes', () => {
    spec
      .given([created, assignedTo('org-1')])
      .when(lapse(null), { actorRole: null, actorId: null, now })
      .thenThrows(LEAD_MESSAGES.lapseNotDue, 'LAPSE_NOT_DUE');
  });

  it('changes nothing a second time (job and sweep both fire), after an answer, or for a window that moved', () => {
    const at = { actorRole: null, actorId: null, now: '2026-11-30T10:00:00.000Z' };
    spec
      .given([created, assignedTo('org-1'), lapsed, assignedTo('org-2', '2026-11-25T10:00:00.000Z')])
      .when(lapse(next('org-3')), at)
      .then([]);
    spec
      .given([created, assignedTo('org-1'), lapsed])
      .when(lapse(null), at)
      .then([]);
    spec
      .given([created, assignedTo('org-1'), accepted])
      .when(lapse(null), at)
      .then([]);
    spec
      .given([created, assignedTo('org-1'), declined])
      .when(lapse(null), at)
      .then([]);
  });

  it('remembers who passed the lead by', () => {
    const state = fold(leads, [
      created,
      assignedTo('org-1'),
      lapsed,
      assignedTo('org-2', '2026-11-25T10:00:00.000Z'),
      { ...declined, data: { ...declined.data, organisationId: 'org-2' } } as LeadEvent,
    ]) as Extract<LeadState, { id: string }>;
    expect(state.passedBy).toEqual(['org-1', 'org-2']);
    expect(state.status).toBe('unassigned');
  });
});

describe('working the lead', () => {
  const acceptedLead = [created, assignedTo('org-1'), accepted];

  it('moves accepted → contacted → qualified', () => {
    spec
      .given(acceptedLead)
      .when(status('contacted'), partner)
      .then([changed('contacted', 'accepted')]);
    spec
      .given([...acceptedLead, changed('contacted', 'accepted')])
      .when(status('qualified'), partner)
      .then([changed('qualified', 'contacted')]);
  });

  it('disqualifies with a reason, never without one', () => {
    spec
      .given(acceptedLead)
      .when(status('disqualified', 'No budget this year'), partner)
      .then([changed('disqualified', 'accepted', 'No budget this year')]);
    spec.given(acceptedLead).when(status('disqualified', ''), partner).thenThrows(LEAD_MESSAGES.reasonRequired, 'VALIDATION_ERROR');
  });

  it('refuses to go back or to work a lead not accepted', () => {
    spec
      .given([...acceptedLead, changed('contacted', 'accepted'), changed('qualified', 'contacted')])
      .when(status('contacted'), partner)
      .thenThrows(LEAD_MESSAGES.invalidTransition, 'INVALID_STATUS_TRANSITION');
    spec
      .given([created, assignedTo('org-1')])
      .when(status('contacted'), partner)
      .thenThrows(LEAD_MESSAGES.notAccepted, 'LEAD_NOT_ACCEPTED');
    spec
      .given([...acceptedLead, changed('disqualified', 'accepted', 'x')])
      .when(status('qualified'), partner)
      .thenThrows(LEAD_MESSAGES.invalidTransition);
  });

  it('refuses another organisation', () => {
    spec
      .given(acceptedLead)
      .when(status('contacted', null, 'org-2'), other)
      .thenThrows(LEAD_MESSAGES.notYours, 'LEAD_NOT_YOURS');
  });
});

describe('ConvertLead', () => {
  const qualified = [created, assignedTo('org-1'), accepted, changed('contacted', 'accepted'), changed('qualified', 'contacted')];

  it('converts a qualified lead, linking the deal registration', () => {
    spec
      .given(qualified)
      .when(convert(), partner)
      .then([converted('qualified')]);
  });

  it('converts straight from accepted', () => {
    spec
      .given([created, assignedTo('org-1'), accepted])
      .when(convert(), partner)
      .then([converted('accepted')]);
  });

  it('refuses a second conversion', () => {
    spec
      .given([...qualified, converted('qualified')])
      .when(convert(), partner)
      .thenThrows(LEAD_MESSAGES.alreadyConverted, 'LEAD_CONVERTED');
    spec
      .given([...qualified, converted('qualified')])
      .when(convert(), admin)
      .thenThrows(LEAD_MESSAGES.alreadyConverted, 'LEAD_CONVERTED');
  });

  it('refuses a lead not accepted, disqualified, or of another organisation', () => {
    spec
      .given([created, assignedTo('org-1')])
      .when(convert(), partner)
      .thenThrows(LEAD_MESSAGES.notAccepted, 'LEAD_NOT_ACCEPTED');
    spec
      .given([created, assignedTo('org-1'), accepted, changed('disqualified', 'accepted', 'x')])
      .when(convert(), partner)
      .thenThrows(/disqualified/, 'LEAD_CLOSED');
    spec.given(qualified).when(convert('org-2'), other).thenThrows(LEAD_MESSAGES.notYours, 'LEAD_NOT_YOURS');
  });

  it('closes the lead: no update afterwards', () => {
    spec
      .given([...qualified, converted('qualified')])
      .when({ type: 'UpdateLead', details: { ...details, notes: 'later' } }, admin)
      .thenThrows(/converted/, 'LEAD_CLOSED');
  });
});

describe('UpdateLead', () => {
  it('records changed fields and nothing when nothing changed', () => {
    spec
      .given([created])
      .when({ type: 'UpdateLead', details: { ...details, phone: '+44 1' } }, admin)
      .then([{ type: 'LeadUpdated.v1', data: { leadId: id, details: { ...details, phone: '+44 1' } } }]);
    spec.given([created]).when({ type: 'UpdateLead', details }, admin).then([]);
  });

  it('refuses an unknown lead', () => {
    spec.given([]).when({ type: 'UpdateLead', details }, admin).thenThrows(LEAD_MESSAGES.notFound, 'NOT_FOUND');
  });
});

describe('privacy of contact details', () => {
  const viewer = (organisationId: string | null, seesAll = false) => ({ organisationId, seesAll });
  const lead = (events: LeadEvent[]) => fold(leads, events) as Extract<LeadState, { id: string }>;

  it('hides them from the organisation awaiting its answer', () => {
    expect(contactVisibleTo(lead([created, assignedTo('org-1')]), viewer('org-1'))).toBe(false);
  });

  it('shows them once the organisation accepted, through conversion', () => {
    expect(contactVisibleTo(lead([created, assignedTo('org-1'), accepted]), viewer('org-1'))).toBe(true);
    expect(contactVisibleTo(lead([created, assignedTo('org-1'), accepted, converted('accepted')]), viewer('org-1'))).toBe(true);
    expect(contactVisibleTo(lead([created, assignedTo('org-1'), accepted]), viewer('org-2'))).toBe(false);
  });

  it('hides them again from an organisation that declined or let the lead lapse', () => {
    expect(contactVisibleTo(lead([created, assignedTo('org-1'), declined]), viewer('org-1'))).toBe(false);
    expect(contactVisibleTo(lead([created, assignedTo('org-1'), lapsed, assignedTo('org-2', '2026-11-25T10:00:00.000Z')]), viewer('org-1'))).toBe(false);
  });

  it('hides them from an organisation whose accepted lead an admin reassigned', () => {
    expect(contactVisibleTo(lead([created, assignedTo('org-1'), accepted, assignedTo('org-2', due, 'accepted', 'org-1')]), viewer('org-1'))).toBe(false);
  });

  it('shows them to those who see all leads', () => {
    expect(contactVisibleTo(lead([created]), viewer(null, true))).toBe(true);
  });
});
