import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { PROJECT_MESSAGES, PROJECT_STATUS_TRANSITIONS, projects, type ProjectCommand, type ProjectDetails, type ProjectEvent } from './projects';
import {
  businessDomain,
  compareRegistrations,
  customerKey,
  customerWords,
  DAY_MS,
  emailDomain,
  NEAR_MATCH_SIMILARITY,
  organisationsNamedIn,
  protectionMs,
  registrationKey,
  sameDeal,
  siteKey,
} from './registration';

const spec = deciderSpec(projects);
const id = 'p-1';
const now = '2026-11-21T10:00:00.000Z';
const VALIDITY = 60 * DAY_MS;
const expiresAt = '2027-01-20T10:00:00.000Z';
const admin = { actorRole: 'admin' };
const partner = { actorRole: 'partner' };

const details: ProjectDetails = {
  title: 'Campus network refresh',
  expected_closure_date: '2027-03-31',
  country_region: 'United States',
  sales_person: 'Priya Shah',
  project_stage: 'Qualification',
  progress: 10,
  project_progress_remarks: null,
  end_user_requirements: '48 access switches',
  end_user_customer_name: 'Contoso Ltd',
  end_user_location: 'Seattle',
  end_user_it_head_name: 'Jo Park',
  end_user_contact_number: '+1 206 555 0100',
  end_user_email: 'jo.park@contoso.test',
  partner_company_name: null,
  partner_company_location: null,
  partner_email: null,
  partner_contact_number: null,
  fund_request_id: null,
  value: 125000.5,
};

const register = (overrides: Partial<Extract<ProjectCommand, { type: 'RegisterProject' }>> = {}): ProjectCommand => ({
  type: 'RegisterProject',
  projectId: id,
  organisationId: 'org-1',
  companyName: 'Northwind Networks',
  createdBy: 'user-1',
  details: { ...details, title: '  Campus network refresh ', end_user_email: ' Jo.Park@Contoso.test ' },
  boqFile: null,
  validityMs: VALIDITY,
  conflict: null,
  ...overrides,
});

const registered: ProjectEvent = {
  type: 'ProjectRegistered.v1',
  data: {
    projectId: id,
    organisationId: 'org-1',
    companyName: 'Northwind Networks',
    createdBy: 'user-1',
    details,
    boqFile: null,
    submittedAt: now,
    expiresAt,
    registrationStatus: 'pending',
    conflictWith: null,
    status: 'Planning',
    previousStatus: null,
  },
};
const conflicted: ProjectEvent = { ...registered, data: { ...registered.data, registrationStatus: 'conflict', conflictWith: 'p-0' } } as ProjectEvent;
const base = { projectId: id, organisationId: 'org-1' };
const expired: ProjectEvent = { type: 'ProjectRegistrationExpired.v1', data: { ...base, expiresAt, previousRegistrationStatus: 'pending' } };
const rejected: ProjectEvent = { type: 'ProjectRegistrationRejected.v1', data: { ...base, previousRegistrationStatus: 'pending', reason: 'Duplicate' } };
const extensionRequested: ProjectEvent = { type: 'ProjectExtensionRequested.v1', data: { ...base, reason: 'Customer board meets in February' } };
const milestone = { id: 'm-1', name: 'Site survey', date: '2026-12-15', status: 'pending' as const };
const milestoneAdded: ProjectEvent = { type: 'ProjectMilestoneAdded.v1', data: { projectId: id, milestone } };

describe('registering a project', () => {
  it('registers it in Planning, protected for the validity period, trimming the fields', () => {
    spec.given([]).when(register()).then([registered]);
  });
  it('flags it as a conflict naming the earlier registration', () => {
    spec
      .given([])
      .when(register({ conflict: { projectId: 'p-0' } }))
      .then([conflicted]);
  });
  it('a retried registration changes nothing', () => {
    spec.given([registered]).when(register()).then([]);
  });
  it('needs a title', () => {
    spec
      .given([])
      .when(register({ details: { ...details, title: '   ' } }))
      .thenThrows(PROJECT_MESSAGES.titleRequired, 'VALIDATION_ERROR');
  });
  it('refuses progress outside 0-100 and a negative budget', () => {
    spec
      .given([])
      .when(register({ details: { ...details, progress: 101 } }))
      .thenThrows(PROJECT_MESSAGES.progressRange);
    spec
      .given([])
      .when(register({ details: { ...details, value: -1 } }))
      .thenThrows(PROJECT_MESSAGES.valueRange);
  });
  it('refuses a closure date that is not a date', () => {
    spec
      .given([])
      .when(register({ details: { ...details, expected_closure_date: '2027-02-30' } }))
      .thenThrows(/Expected closure date/);
  });
});

describe('protection length from the programme tier', () => {
  it('gives the tier’s days at the standard length, and the standard length without a tier', () => {
    expect(protectionMs(60 * DAY_MS, null)).toBe(60 * DAY_MS);
    expect(protectionMs(60 * DAY_MS, 60)).toBe(60 * DAY_MS);
    expect(protectionMs(60 * DAY_MS, 150)).toBe(150 * DAY_MS);
    expect(protectionMs(60 * DAY_MS, 45)).toBe(45 * DAY_MS);
  });
  it('scales every tier alike when the installation configures another standard length', () => {
    expect(protectionMs(30 * DAY_MS, 150)).toBe(75 * DAY_MS);
    expect(protectionMs(2_400, 90)).toBe(3_600);
  });
  it('records the expiry the tier’s length gives at the time of submission', () => {
    spec
      .given([])
      .when(register({ validityMs: protectionMs(60 * DAY_MS, 150) }))
      .then([{ ...registered, data: { ...registered.data, expiresAt: '2027-04-20T10:00:00.000Z' } } as ProjectEvent]);
  });
});

describe('updating and status', () => {
  it('updates the details', () => {
    spec
      .given([registered])
      .when({ type: 'UpdateProject', details: { ...details, progress: 40 } })
      .then([{ type: 'ProjectUpdated.v1', data: { projectId: id, details: { ...details, progress: 40 } } }]);
  });
  it('an update with a status records both, or neither when the move is refused', () => {
    spec
      .given([registered])
      .when({ type: 'UpdateProject', details: { ...details, progress: 40 }, status: 'On Hold', reason: 'Budget freeze' })
      .then([
        { type: 'ProjectUpdated.v1', data: { projectId: id, details: { ...details, progress: 40 } } },
        { type: 'ProjectStatusChanged.v1', data: { projectId: id, status: 'On Hold', previousStatus: 'Planning', reason: 'Budget freeze', progress: 40 } },
      ]);
    const completed: ProjectEvent = {
      type: 'ProjectStatusChanged.v1',
      data: { projectId: id, status: 'Completed', previousStatus: 'Planning', reason: null, progress: 100 },
    };
    spec
      .given([registered, completed])
      .when({ type: 'UpdateProject', details: { ...details, title: 'Lost' }, status: 'Planning' })
      .thenThrows(PROJECT_MESSAGES.invalidTransition);
  });
  it('an update that changes nothing records nothing', () => {
    spec.given([registered]).when({ type: 'UpdateProject', details }).then([]);
  });
  it('an edit carries only the fields it changes, so two edits of different fields both stand', () => {
    const retitled: ProjectEvent = { type: 'ProjectUpdated.v1', data: { projectId: id, details: { title: 'Campus refresh, phase 2' } } };
    spec
      .given([registered])
      .when({ type: 'UpdateProject', details: { title: ' Campus refresh, phase 2 ' } })
      .then([retitled]);
    // The second edit was made on the page before the first was saved: it sends only the budget.
    const rebudgeted: ProjectEvent = { type: 'ProjectUpdated.v1', data: { projectId: id, details: { value: 99000 } } };
    spec
      .given([registered, retitled])
      .when({ type: 'UpdateProject', details: { value: 99000 } })
      .then([rebudgeted]);
    const state = [registered, retitled, rebudgeted].reduce(projects.evolve, projects.initialState());
    expect(state).toMatchObject({ details: { ...details, title: 'Campus refresh, phase 2', value: 99000 } });
  });
  it('a partial edit is checked against the merged fields and records nothing when nothing changes', () => {
    spec
      .given([registered])
      .when({ type: 'UpdateProject', details: { title: '  ' } })
      .thenThrows(PROJECT_MESSAGES.titleRequired);
    spec
      .given([registered])
      .when({ type: 'UpdateProject', details: { progress: 10 } })
      .then([]);
    spec
      .given([registered])
      .when({ type: 'UpdateProject', details: {}, status: 'In Progress', reason: null })
      .then([{ type: 'ProjectStatusChanged.v1', data: { projectId: id, status: 'In Progress', previousStatus: 'Planning', reason: null, progress: 10 } }]);
  });
  it('still reads edits recorded with every field', () => {
    const { fund_request_id: _absentInOldEvents, ...older } = details;
    const full: ProjectEvent = { type: 'ProjectUpdated.v1', data: { projectId: id, details: { ...older, sales_person: 'Jo Park' } } };
    const state = [registered, full].reduce(projects.evolve, projects.initialState());
    expect(state).toMatchObject({ details: { ...details, sales_person: 'Jo Park' } });
  });
  it('moves along the allowed transitions and completes at 100%', () => {
    spec
      .given([registered])
      .when({ type: 'ChangeProjectStatus', status: 'In Progress', reason: null })
      .then([{ type: 'ProjectStatusChanged.v1', data: { projectId: id, status: 'In Progress', previousStatus: 'Planning', reason: null, progress: 10 } }]);
    spec
      .given([registered])
      .when({ type: 'ChangeProjectStatus', status: 'Completed', reason: 'Won' })
      .then([{ type: 'ProjectStatusChanged.v1', data: { projectId: id, status: 'Completed', previousStatus: 'Planning', reason: 'Won', progress: 100 } }]);
  });
  it('refuses a move out of Completed and unknown statuses', () => {
    const completed: ProjectEvent = {
      type: 'ProjectStatusChanged.v1',
      data: { projectId: id, status: 'Completed', previousStatus: 'Planning', reason: null, progress: 100 },
    };
    spec
      .given([registered, completed])
      .when({ type: 'ChangeProjectStatus', status: 'In Progress', reason: null })
      .thenThrows(PROJECT_MESSAGES.invalidTransition, 'INVALID_STATUS_TRANSITION');
    spec.given([registered]).when({ type: 'ChangeProjectStatus', status: 'Won', reason: null }).thenThrows(PROJECT_MESSAGES.invalidTransition);
    expect(PROJECT_STATUS_TRANSITIONS.Completed).toEqual([]);
  });
  it('the same status again records nothing', () => {
    spec.given([registered]).when({ type: 'ChangeProjectStatus', status: 'Planning', reason: null }).then([]);
  });
  it('deletes once; a deleted project refuses further commands', () => {
    const deleted: ProjectEvent = { type: 'ProjectDeleted.v1', data: base };
    spec.given([registered]).when({ type: 'DeleteProject' }).then([deleted]);
    spec.given([registered, deleted]).when({ type: 'DeleteProject' }).then([]);
    spec.given([registered, deleted]).when({ type: 'UpdateProject', details }).thenThrows(PROJECT_MESSAGES.deletedProject, 'NOT_FOUND');
  });
  it('a project that does not exist is not found', () => {
    spec.given([]).when({ type: 'UpdateProject', details }).thenThrows(PROJECT_MESSAGES.notFound, 'NOT_FOUND');
  });
});

describe('reviewing a registration', () => {
  it('admins approve or reject (reason required, at most 500 characters)', () => {
    spec
      .given([registered])
      .when({ type: 'ReviewRegistration', decision: 'approved', reason: null }, admin)
      .then([{ type: 'ProjectRegistrationApproved.v1', data: { ...base, previousRegistrationStatus: 'pending', note: null } }]);
    spec.given([registered]).when({ type: 'ReviewRegistration', decision: 'rejected', reason: ' Duplicate ' }, admin).then([rejected]);
    spec.given([registered]).when({ type: 'ReviewRegistration', decision: 'rejected', reason: '  ' }, admin).thenThrows(PROJECT_MESSAGES.reasonRequired);
    spec
      .given([registered])
      .when({ type: 'ReviewRegistration', decision: 'rejected', reason: 'x'.repeat(501) }, admin)
      .thenThrows(PROJECT_MESSAGES.reasonTooLong);
  });
  it('only admins review', () => {
    spec
      .given([registered])
      .when({ type: 'ReviewRegistration', decision: 'approved', reason: null }, partner)
      .thenThrows(PROJECT_MESSAGES.onlyAdminsReview, 'INSUFFICIENT_PERMISSIONS');
  });
  it('approving a conflict needs a note; rejecting it needs a reason', () => {
    spec.given([conflicted]).when({ type: 'ReviewRegistration', decision: 'approved', reason: '' }, admin).thenThrows(PROJECT_MESSAGES.noteRequiredForConflict);
    spec
      .given([conflicted])
      .when({ type: 'ReviewRegistration', decision: 'approved', reason: 'Different sites of the customer' }, admin)
      .then([{ type: 'ProjectRegistrationApproved.v1', data: { ...base, previousRegistrationStatus: 'conflict', note: 'Different sites of the customer' } }]);
  });
  it('a decided or expired registration is not reviewed again', () => {
    spec
      .given([registered, rejected])
      .when({ type: 'ReviewRegistration', decision: 'approved', reason: null }, admin)
      .thenThrows(PROJECT_MESSAGES.alreadyReviewed('rejected'), 'REGISTRATION_DECIDED');
    spec
      .given([registered, expired])
      .when({ type: 'ReviewRegistration', decision: 'approved', reason: null }, admin)
      .thenThrows(/already expired/);
  });
});

describe('expiry and reminders', () => {
  it('expires at expires_at, never early, never twice', () => {
    spec
      .given([registered])
      .when({ type: 'ExpireRegistration' }, { now: '2027-01-20T09:59:59.999Z' })
      .thenThrows(PROJECT_MESSAGES.notDue, 'REGISTRATION_NOT_DUE');
    spec.given([registered]).when({ type: 'ExpireRegistration' }, { now: expiresAt }).then([expired]);
    spec.given([registered, expired]).when({ type: 'ExpireRegistration' }, { now: expiresAt }).then([]);
  });
  it('a rejected registration does not expire', () => {
    spec.given([registered, rejected]).when({ type: 'ExpireRegistration' }, { now: expiresAt }).then([]);
  });
  it('sends each reminder once, when due, for the current expiry only', () => {
    const sent: ProjectEvent = { type: 'ProjectExpiryReminderSent.v1', data: { ...base, daysBefore: 14, expiresAt } };
    spec.given([registered]).when({ type: 'SendExpiryReminder', daysBefore: 14, expiresAt }, { now: '2027-01-06T10:00:00.000Z' }).then([sent]);
    spec.given([registered, sent]).when({ type: 'SendExpiryReminder', daysBefore: 14, expiresAt }, { now: '2027-01-06T10:00:00.000Z' }).then([]);
    spec
      .given([registered])
      .when({ type: 'SendExpiryReminder', daysBefore: 14, expiresAt }, { now: '2027-01-05T10:00:00.000Z' })
      .thenThrows(/not due/, 'REMINDER_NOT_DUE');
    spec.given([registered]).when({ type: 'SendExpiryReminder', daysBefore: 3, expiresAt: '2027-01-01T00:00:00.000Z' }, { now: expiresAt }).then([]);
    spec.given([registered, expired]).when({ type: 'SendExpiryReminder', daysBefore: 3, expiresAt }, { now: expiresAt }).then([]);
  });
});

describe('one extension', () => {
  it('the owner requests one before expiry, with a reason', () => {
    spec.given([registered]).when({ type: 'RequestExtension', reason: ' Customer board meets in February ' }, partner).then([extensionRequested]);
    spec.given([registered]).when({ type: 'RequestExtension', reason: ' ' }, partner).thenThrows(PROJECT_MESSAGES.extensionReasonRequired);
  });
  it('only one', () => {
    spec
      .given([registered, extensionRequested])
      .when({ type: 'RequestExtension', reason: 'Again' }, partner)
      .thenThrows(PROJECT_MESSAGES.extensionAlreadyRequested, 'EXTENSION_ALREADY_REQUESTED');
    const declined: ProjectEvent = { type: 'ProjectExtensionDeclined.v1', data: { ...base, reason: 'No' } };
    spec
      .given([registered, extensionRequested, declined])
      .when({ type: 'RequestExtension', reason: 'Again' }, partner)
      .thenThrows(PROJECT_MESSAGES.extensionAlreadyRequested);
  });
  it('not after expiry, nor for a rejected registration', () => {
    spec
      .given([registered])
      .when({ type: 'RequestExtension', reason: 'Late' }, { now: expiresAt })
      .thenThrows(PROJECT_MESSAGES.extensionAfterExpiry, 'REGISTRATION_EXPIRED');
    spec.given([registered, expired]).when({ type: 'RequestExtension', reason: 'Late' }).thenThrows(PROJECT_MESSAGES.extensionAfterExpiry);
    spec.given([registered, rejected]).when({ type: 'RequestExtension', reason: 'Why' }).thenThrows(PROJECT_MESSAGES.extensionNotLive);
  });
  it('an admin approval moves the expiry by the extension', () => {
    spec
      .given([registered, extensionRequested])
      .when({ type: 'DecideExtension', decision: 'approved', reason: null, extensionMs: 30 * DAY_MS }, admin)
      .then([{ type: 'ProjectExtensionApproved.v1', data: { ...base, previousExpiresAt: expiresAt, expiresAt: '2027-02-19T10:00:00.000Z', note: null } }]);
  });
  it('a decline needs a reason; only admins decide; only a pending request', () => {
    spec
      .given([registered, extensionRequested])
      .when({ type: 'DecideExtension', decision: 'declined', reason: 'Stale deal', extensionMs: 1 }, admin)
      .then([{ type: 'ProjectExtensionDeclined.v1', data: { ...base, reason: 'Stale deal' } }]);
    spec
      .given([registered, extensionRequested])
      .when({ type: 'DecideExtension', decision: 'declined', reason: '', extensionMs: 1 }, admin)
      .thenThrows(PROJECT_MESSAGES.reasonRequired);
    spec
      .given([registered, extensionRequested])
      .when({ type: 'DecideExtension', decision: 'approved', reason: null, extensionMs: 1 }, partner)
      .thenThrows(PROJECT_MESSAGES.onlyAdminsReview);
    spec
      .given([registered])
      .when({ type: 'DecideExtension', decision: 'approved', reason: null, extensionMs: 1 }, admin)
      .thenThrows(PROJECT_MESSAGES.noExtensionRequested, 'NO_EXTENSION_REQUESTED');
    spec
      .given([registered, extensionRequested, expired])
      .when({ type: 'DecideExtension', decision: 'approved', reason: null, extensionMs: 1 }, admin)
      .thenThrows(PROJECT_MESSAGES.extensionDecisionAfterExpiry);
  });
});

describe('milestones', () => {
  const add = (overrides: Partial<{ name: string; date: string; status: string }> = {}): ProjectCommand => ({
    type: 'AddMilestone',
    milestoneId: 'm-1',
    name: ' Site survey ',
    date: '2026-12-15',
    status: 'pending',
    ...overrides,
  });
  it('adds one with a title and a date inside the project', () => {
    spec.given([registered]).when(add()).then([milestoneAdded]);
    spec
      .given([registered])
      .when(add({ date: '2026-11-21' }))
      .then([{ type: 'ProjectMilestoneAdded.v1', data: { projectId: id, milestone: { ...milestone, date: '2026-11-21' } } }]);
    spec
      .given([registered])
      .when(add({ date: '2027-03-31' }))
      .then([{ type: 'ProjectMilestoneAdded.v1', data: { projectId: id, milestone: { ...milestone, date: '2027-03-31' } } }]);
  });
  it('refuses a date before the start or after the expected closure date', () => {
    spec
      .given([registered])
      .when(add({ date: '2026-11-20' }))
      .thenThrows(PROJECT_MESSAGES.milestoneDateOutside, 'MILESTONE_DATE_OUTSIDE_PROJECT');
    spec
      .given([registered])
      .when(add({ date: '2027-04-01' }))
      .thenThrows(PROJECT_MESSAGES.milestoneDateOutside);
  });
  it('needs a title, a date and a known status', () => {
    spec
      .given([registered])
      .when(add({ name: '' }))
      .thenThrows(PROJECT_MESSAGES.milestoneTitleRequired);
    spec
      .given([registered])
      .when(add({ date: '' }))
      .thenThrows(PROJECT_MESSAGES.milestoneDateRequired);
    spec
      .given([registered])
      .when(add({ status: 'done' }))
      .thenThrows(PROJECT_MESSAGES.milestoneStatus);
  });
  it('updates and removes one; an unknown one is not found', () => {
    spec
      .given([registered, milestoneAdded])
      .when({ type: 'UpdateMilestone', milestoneId: 'm-1', name: 'Site survey', date: '2026-12-16', status: 'completed' })
      .then([{ type: 'ProjectMilestoneUpdated.v1', data: { projectId: id, milestone: { ...milestone, date: '2026-12-16', status: 'completed' } } }]);
    spec
      .given([registered, milestoneAdded])
      .when({ type: 'UpdateMilestone', milestoneId: 'm-1', name: 'Site survey', date: '2027-05-01', status: 'completed' })
      .thenThrows(PROJECT_MESSAGES.milestoneDateOutside);
    spec
      .given([registered, milestoneAdded])
      .when({ type: 'RemoveMilestone', milestoneId: 'm-1' })
      .then([{ type: 'ProjectMilestoneRemoved.v1', data: { projectId: id, milestoneId: 'm-1' } }]);
    spec.given([registered]).when({ type: 'RemoveMilestone', milestoneId: 'm-1' }).thenThrows(PROJECT_MESSAGES.milestoneNotFound, 'NOT_FOUND');
    spec
      .given([registered])
      .when({ type: 'UpdateMilestone', milestoneId: 'm-2', name: 'x', date: '2026-12-01', status: 'pending' })
      .thenThrows(PROJECT_MESSAGES.milestoneNotFound);
  });
  it('adding the same milestone again is a no-op', () => {
    spec.given([registered, milestoneAdded]).when(add()).then([]);
  });
});

describe('team and orders', () => {
  const added: ProjectEvent = { type: 'ProjectTeamMemberAdded.v1', data: { projectId: id, userId: 'u-2' } };
  it('adds a member once; removing a non-member records nothing', () => {
    spec.given([registered]).when({ type: 'AddTeamMember', userId: 'u-2' }).then([added]);
    spec.given([registered, added]).when({ type: 'AddTeamMember', userId: 'u-2' }).thenThrows(PROJECT_MESSAGES.alreadyMember, 'CONFLICT');
    spec
      .given([registered, added])
      .when({ type: 'RemoveTeamMember', userId: 'u-2' })
      .then([{ type: 'ProjectTeamMemberRemoved.v1', data: { projectId: id, userId: 'u-2' } }]);
    spec.given([registered]).when({ type: 'RemoveTeamMember', userId: 'u-2' }).then([]);
  });
  it('links an order once; unlinking one not linked records nothing', () => {
    const linked: ProjectEvent = { type: 'ProjectOrderLinked.v1', data: { projectId: id, orderId: 'o-1' } };
    spec.given([registered]).when({ type: 'LinkOrder', orderId: 'o-1' }).then([linked]);
    spec.given([registered, linked]).when({ type: 'LinkOrder', orderId: 'o-1' }).thenThrows(PROJECT_MESSAGES.orderAlreadyLinked);
    spec
      .given([registered, linked])
      .when({ type: 'UnlinkOrder', orderId: 'o-1' })
      .then([{ type: 'ProjectOrderUnlinked.v1', data: { projectId: id, orderId: 'o-1' } }]);
    spec.given([registered]).when({ type: 'UnlinkOrder', orderId: 'o-1' }).then([]);
  });
});

describe('conflict detection: the same deal', () => {
  it('same customer spelled differently', () => {
    expect(customerKey('Contoso, Ltd.')).toBe(customerKey('  contoso ltd '));
    expect(sameDeal(registrationKey('Contoso, Ltd.', null), registrationKey('CONTOSO LTD', 'it@contoso.test'))).toBe(true);
    expect(sameDeal(registrationKey('Café Müller', null), registrationKey('cafe muller', null))).toBe(true);
  });
  it('legal forms do not tell customers apart', () => {
    expect(customerWords('Greenfield General Hospital Inc.')).toBe('greenfield general hospital');
    for (const name of [
      'Greenfield General Hospital, Inc.',
      'GREENFIELD GENERAL HOSPITAL LLC',
      'Greenfield  General Hospital Ltd',
      'Greenfield General Hospital GmbH',
      'Greenfield General Hospital S.A.',
      'Greenfield General Hospital B.V.',
      'Greenfield General Hospital plc',
      'Greenfield General Hospital Corp.',
      'Greenfield General Hospital & Co. KG',
      'Grèenfield General Hospital Co',
    ]) {
      expect(customerKey(name), name).toBe(customerKey('Greenfield General Hospital'));
    }
    // A legal form alone is still a name, and a legal word inside a name stays.
    expect(customerKey('Inc')).toBe('inc');
    expect(customerKey('Limited Editions Ltd')).toBe('limitededitions');
  });
  it('the Greenfield case: two partners, the same hospital with and without "Inc.", the same domain', () => {
    const first = registrationKey('Greenfield General Hospital', 'it@greenfield-hospital.test');
    const second = registrationKey('Greenfield General Hospital Inc.', 'procurement@greenfield-hospital.test');
    expect(compareRegistrations(second, first)).toBe('same');
  });
  it('the same organisation e-mail domain is the same deal on its own', () => {
    expect(emailDomain('Jo@Contoso.TEST')).toBe('contoso.test');
    expect(sameDeal(registrationKey('Contoso', 'a@contoso.test'), registrationKey('contoso', 'b@CONTOSO.test'))).toBe(true);
    expect(sameDeal(registrationKey('Contoso', 'a@contoso.test'), registrationKey('Fabrikam Retail', 'a@contoso.test'))).toBe(true);
  });
  it('public mail domains match nothing', () => {
    expect(businessDomain('jo@gmail.com')).toBeNull();
    expect(businessDomain('jo@Outlook.com')).toBeNull();
    expect(businessDomain('jo@contoso.test')).toBe('contoso.test');
    expect(compareRegistrations(registrationKey('Contoso', 'a@gmail.com'), registrationKey('Fabrikam', 'b@gmail.com'))).toBeNull();
    expect(compareRegistrations(registrationKey('Contoso', 'a@yahoo.com'), registrationKey('Contoso', 'b@hotmail.com'))).toBe('same');
  });
  it('the same site address is the same deal on its own; a city alone is not an address', () => {
    expect(siteKey('12 Harbour Road, Leeds')).toBe(siteKey('12 harbour road  leeds'));
    expect(compareRegistrations(registrationKey('Contoso', null, '12 Harbour Road, Leeds'), registrationKey('Fabrikam', null, '12, Harbour Road LEEDS'))).toBe(
      'same',
    );
    expect(siteKey('Leeds')).toBeNull();
    expect(compareRegistrations(registrationKey('Contoso', null, 'Leeds'), registrationKey('Fabrikam', null, 'Leeds'))).toBeNull();
  });
  it('the same name under two different organisation domains, or a similar name, is a possible conflict', () => {
    expect(compareRegistrations(registrationKey('Contoso', 'a@contoso.test'), registrationKey('contoso', 'b@contoso-group.test'))).toBe('possible');
    expect(sameDeal(registrationKey('Contoso', 'a@contoso.test'), registrationKey('contoso', 'b@contoso-group.test'))).toBe(false);
    expect(
      compareRegistrations(registrationKey('Greenfield Hospital', null), registrationKey('Greenfield General Hospital', null), NEAR_MATCH_SIMILARITY),
    ).toBe('possible');
    expect(compareRegistrations(registrationKey('Greenfield Hospital', null), registrationKey('Fabrikam', null), 0.1)).toBeNull();
  });
  it('a different customer, or none, is not a conflict', () => {
    expect(sameDeal(registrationKey('Contoso', 'a@contoso.test'), registrationKey('Fabrikam', 'a@fabrikam.test'))).toBe(false);
    expect(sameDeal(registrationKey('', null), registrationKey('', null))).toBe(false);
  });
  it("names the organisations a rejection reason mentions, other than the registering one's", () => {
    const names = ['Northwind Traders', 'Contoso Ltd', 'Fabrikam'];
    expect(organisationsNamedIn('Northwind Traders registered this hospital first.', names, 'Contoso Ltd')).toEqual(['Northwind Traders']);
    expect(organisationsNamedIn('Contoso: the quote is missing.', names, 'Contoso Ltd')).toEqual([]);
    expect(organisationsNamedIn('Already registered by another partner.', names, 'Contoso Ltd')).toEqual([]);
  });
});
