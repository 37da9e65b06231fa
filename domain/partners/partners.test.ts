import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { emptyApplication, type ApplicationDetails } from './application';
import { partners, PARTNER_MESSAGES, type PartnerCommand, type PartnerEvent } from './partners';
import { sampleQuestionnaire } from './sampleQuestionnaire';
import {
  emptyQuestionnaire,
  MANDATORY_FIELDS,
  OTHER_FOLLOW_UPS,
  questionnaireProblems,
  regionOfCountry,
  COUNTRIES,
  INCORPORATION_COUNTRIES,
  TERMS_MESSAGE,
  type QuestionnaireAnswers,
} from './questionnaire';

const spec = deciderSpec(partners);
const id = 'user-7';
const applicant = { actorId: id, actorRole: 'partner' };
const admin = { actorId: 'admin-1', actorRole: 'admin' };

const details = (overrides: Partial<ApplicationDetails> = {}): ApplicationDetails => ({
  ...emptyApplication(),
  company_name: 'Fjord Networks',
  contact_email: 'ops@fjord.test',
  region: 'Europe',
  business_type: 'Private Limited',
  ...overrides,
});

const answers = (overrides: Partial<QuestionnaireAnswers> = {}): QuestionnaireAnswers =>
  sampleQuestionnaire({ company: 'Fjord Networks', email: 'ops@fjord.test' }, overrides);

const submitApplication: PartnerCommand = { type: 'SubmitApplication', partnerId: id, userId: id, details: details(), companyLogo: 'logo-1.png' };
const submitQuestionnaire: PartnerCommand = { type: 'SubmitQuestionnaire', partnerId: id, userId: id, answers: answers() };

const submitted: PartnerEvent = {
  type: 'PartnerApplicationSubmitted.v1',
  data: { partnerId: id, userId: id, companyName: 'Fjord Networks', status: 'pending', previousStatus: null },
};
const detailsProvided = (overrides: Partial<ApplicationDetails> = {}, companyLogo: string | null = 'logo-1.png'): PartnerEvent => ({
  type: 'PartnerApplicationDetailsProvided.v1',
  data: { partnerId: id, details: details(overrides), companyLogo },
});
const answered: PartnerEvent = { type: 'PartnerQuestionnaireAnswered.v1', data: { partnerId: id, answers: answers() } };
const approved: PartnerEvent = {
  type: 'PartnerApproved.v1',
  data: {
    partnerId: id,
    userId: id,
    companyName: 'Fjord Networks',
    category: 'Helix Authorized Distributor',
    tier: 'Authorized',
    permissions: ['Projects.Read', 'Orders.Track'],
    status: 'approved',
    previousStatus: 'pending',
    reason: null,
  },
};
const rejected: PartnerEvent = {
  type: 'PartnerRejected.v1',
  data: { partnerId: id, userId: id, companyName: 'Fjord Networks', status: 'rejected', previousStatus: 'pending', reason: 'Incomplete references' },
};
const approve: PartnerCommand = { type: 'ApprovePartner', category: 'Helix Authorized Distributor', permissions: ['Orders.Track', 'Projects.Read'] };
const reject: PartnerCommand = { type: 'RejectPartner', reason: '  Incomplete references  ' };

describe('partners', () => {
  describe('when no application exists', () => {
    it('the applicant submits the wizard application: the record opens pending with the details', () =>
      spec.given([]).when(submitApplication, applicant).then([submitted, detailsProvided()]));
    it('the applicant submits the questionnaire: the record opens pending with the answers', () =>
      spec.given([]).when(submitQuestionnaire, applicant).then([submitted, answered]));
    it('keeps an Other follow-up only when Other was chosen, trimmed', () =>
      spec
        .given([])
        .when(
          {
            ...submitQuestionnaire,
            answers: answers({ job_title: 'Other', job_title_other: '  Head of Channel ', business_type_other: 'stale text' }),
          } as PartnerCommand,
          applicant,
        )
        .then([
          submitted,
          { type: 'PartnerQuestionnaireAnswered.v1', data: { partnerId: id, answers: answers({ job_title: 'Other', job_title_other: 'Head of Channel' }) } },
        ]));
    it('refuses a submission for another user', () =>
      spec.given([]).when(submitApplication, { actorId: 'user-8', actorRole: 'partner' }).thenThrows(PARTNER_MESSAGES.onlyOwnApplication, 'FORBIDDEN'));
    it('refuses a submission whose partner id is not the applicant', () =>
      spec
        .given([])
        .when({ ...submitQuestionnaire, partnerId: 'user-8' } as PartnerCommand, applicant)
        .thenThrows(PARTNER_MESSAGES.onlyOwnApplication, 'FORBIDDEN'));
    it('refuses an admin submitting on behalf of an applicant', () =>
      spec.given([]).when(submitQuestionnaire, admin).thenThrows(PARTNER_MESSAGES.onlyOwnApplication, 'FORBIDDEN'));
    it('refuses an application without a company name', () =>
      spec
        .given([])
        .when({ ...submitApplication, details: details({ company_name: '  ' }) } as PartnerCommand, applicant)
        .thenThrows(PARTNER_MESSAGES.companyNameRequired, 'VALIDATION_ERROR'));
    it.each([
      [{ contact_email: 'not-an-address' }, PARTNER_MESSAGES.invalidEmail],
      [{ region: 'Atlantis' }, PARTNER_MESSAGES.invalidRegion],
      [{ business_type: 'Cooperative' }, PARTNER_MESSAGES.invalidBusinessType],
      [{ category: 'Gold Partner' }, PARTNER_MESSAGES.categoryRequired],
    ])('refuses application details %o', (overrides, message) =>
      spec
        .given([])
        .when({ ...submitApplication, details: details(overrides) } as PartnerCommand, applicant)
        .thenThrows(message, 'VALIDATION_ERROR'),
    );
    it('accepts empty company-info fields', () =>
      spec
        .given([])
        .when({ ...submitApplication, details: { ...emptyApplication(), company_name: 'Fjord Networks' }, companyLogo: null } as PartnerCommand, applicant)
        .then([
          submitted,
          {
            type: 'PartnerApplicationDetailsProvided.v1',
            data: { partnerId: id, details: { ...emptyApplication(), company_name: 'Fjord Networks' }, companyLogo: null },
          },
        ]));
    it('refuses an incomplete questionnaire with every problem, the first as the message', () =>
      spec
        .given([])
        .when({ ...submitQuestionnaire, answers: answers({ city: '', agreed_to_terms: false }) } as PartnerCommand, applicant)
        .thenThrows('City is required', 'VALIDATION_ERROR'));
    it.each<PartnerCommand>([approve, reject])('refuses $type', (command) =>
      spec.given([]).when(command, admin).thenThrows(PARTNER_MESSAGES.notFound, 'NOT_FOUND'),
    );
  });

  describe('when pending', () => {
    it('the applicant adds the questionnaire to a wizard application', () =>
      spec.given([submitted, detailsProvided()]).when(submitQuestionnaire, applicant).then([answered]));
    it('the applicant changes the details; a new submission without a logo keeps the earlier logo', () =>
      spec
        .given([submitted, detailsProvided()])
        .when({ ...submitApplication, details: details({ region: 'Asia' }), companyLogo: null } as PartnerCommand, applicant)
        .then([detailsProvided({ region: 'Asia' }, 'logo-1.png')]));
    it('refuses a change by another user', () =>
      spec
        .given([submitted])
        .when({ ...submitQuestionnaire, userId: 'user-8', partnerId: 'user-8' } as PartnerCommand, { actorId: 'user-8' })
        .thenThrows(PARTNER_MESSAGES.onlyOwnApplication));
    it('an admin approves with a category and permissions, normalised', () =>
      spec
        .given([submitted, answered])
        .when({ ...approve, permissions: ['orders.track', 'Projects.Read', 'Projects.Read'] } as PartnerCommand, admin)
        .then([approved]));
    it('an admin approves with no permissions at all', () =>
      spec
        .given([submitted])
        .when({ ...approve, permissions: [] } as PartnerCommand, admin)
        .then([{ ...approved, data: { ...approved.data, permissions: [] } } as PartnerEvent]));
    it.each(['', 'Gold', 'Value Added Distributor'])('refuses the category %j', (category) =>
      spec
        .given([submitted])
        .when({ ...approve, category } as PartnerCommand, admin)
        .thenThrows(PARTNER_MESSAGES.categoryRequired, 'VALIDATION_ERROR'),
    );
    it.each([['Users.Read'], ['Nonsense.Thing']])('refuses permissions %j', (...permissions) =>
      spec
        .given([submitted])
        .when({ ...approve, permissions } as PartnerCommand, admin)
        .thenThrows(PARTNER_MESSAGES.permissionsRefused, 'VALIDATION_ERROR'),
    );
    it.each(['partner', 'distributor', 'support', 'manufacturer', null])('a %s may not approve or reject', (actorRole) => {
      spec.given([submitted]).when(approve, { actorRole }).thenThrows(PARTNER_MESSAGES.onlyAdmins, 'INSUFFICIENT_PERMISSIONS');
      spec.given([submitted]).when(reject, { actorRole }).thenThrows(PARTNER_MESSAGES.onlyAdmins, 'INSUFFICIENT_PERMISSIONS');
    });
    it('an administrator may approve too', () => spec.given([submitted, answered]).when(approve, { actorRole: 'administrator' }).then([approved]));
    it('an admin rejects with the reason trimmed', () => spec.given([submitted, answered]).when(reject, admin).then([rejected]));
    it.each(['', '   \n\t '])('refuses a blank reason %j', (reason) =>
      spec.given([submitted]).when({ type: 'RejectPartner', reason }, admin).thenThrows(PARTNER_MESSAGES.reasonRequired, 'VALIDATION_ERROR'),
    );
    it('accepts 500 characters and refuses 501', () => {
      spec
        .given([submitted])
        .when({ type: 'RejectPartner', reason: `  ${'x'.repeat(500)}  ` }, admin)
        .then([{ ...rejected, data: { ...rejected.data, reason: 'x'.repeat(500) } } as PartnerEvent]);
      spec
        .given([submitted])
        .when({ type: 'RejectPartner', reason: 'x'.repeat(501) }, admin)
        .thenThrows(PARTNER_MESSAGES.reasonTooLong, 'VALIDATION_ERROR');
    });
  });

  describe('when approved', () => {
    it('refuses approving twice', () => spec.given([submitted, approved]).when(approve, admin).thenThrows(PARTNER_MESSAGES.alreadyApproved, 'CONFLICT'));
    it('refuses rejecting', () => spec.given([submitted, approved]).when(reject, admin).thenThrows(PARTNER_MESSAGES.approvedIsFinal, 'CONFLICT'));
    it('refuses a rejection even with a blank reason as a conflict', () =>
      spec.given([submitted, approved]).when({ type: 'RejectPartner', reason: '' }, admin).thenThrows(PARTNER_MESSAGES.approvedIsFinal, 'CONFLICT'));
    it.each<PartnerCommand>([submitApplication, submitQuestionnaire])('the applicant can no longer change it ($type)', (command) =>
      spec.given([submitted, approved]).when(command, applicant).thenThrows(PARTNER_MESSAGES.approvedUnchangeable, 'CONFLICT'),
    );
  });

  describe('when rejected', () => {
    it('refuses approving', () => spec.given([submitted, rejected]).when(approve, admin).thenThrows(PARTNER_MESSAGES.rejectedIsFinal, 'CONFLICT'));
    it('refuses rejecting twice', () => spec.given([submitted, rejected]).when(reject, admin).thenThrows(PARTNER_MESSAGES.alreadyRejected, 'CONFLICT'));
    it.each<PartnerCommand>([submitApplication, submitQuestionnaire])('the applicant can no longer change it ($type)', (command) =>
      spec.given([submitted, rejected]).when(command, applicant).thenThrows(PARTNER_MESSAGES.rejectedUnchangeable, 'CONFLICT'),
    );
  });
});

describe('the questionnaire rules', () => {
  it('a complete answer set has no problems', () => expect(questionnaireProblems(answers())).toEqual([]));

  it("gives every mandatory field's message, in form order, and the terms message last", () => {
    const problems = questionnaireProblems({ ...emptyQuestionnaire() });
    expect(problems.map((p) => p.message)).toEqual([...MANDATORY_FIELDS.map(([, message]) => message), TERMS_MESSAGE]);
    expect(problems.map((p) => p.field)).toEqual([...MANDATORY_FIELDS.map(([field]) => field), 'agreed_to_terms']);
  });

  it.each(OTHER_FOLLOW_UPS.map((f) => [f.field, f.other, f.message] as const))('Other for %s needs %s: "%s"', (field, other, message) => {
    const chosen = field === 'target_markets' ? ['Europe', 'Other'] : 'Other';
    expect(questionnaireProblems(answers({ [field]: chosen }))).toEqual([{ field: other, message }]);
    expect(questionnaireProblems(answers({ [field]: chosen, [other]: 'Something specific' }))).toEqual([]);
  });

  it('refuses values outside the enumerations and a malformed e-mail or website', () => {
    expect(questionnaireProblems(answers({ employees_range: '1-10' }))[0].field).toBe('employees_range');
    expect(questionnaireProblems(answers({ target_markets: ['Mars'] }))[0].field).toBe('target_markets');
    expect(questionnaireProblems(answers({ contact_email: 'ops@' }))).toEqual([{ field: 'contact_email', message: 'Please enter a valid email address' }]);
    expect(questionnaireProblems(answers({ website: 'not a site' }))).toEqual([{ field: 'website', message: 'Please enter a valid website address' }]);
    expect(questionnaireProblems(answers({ website: 'fjord.test', key_products: '', tax_id: '' }))).toEqual([]);
  });

  it('offers 45 countries from United States to Ethiopia and 15 countries of incorporation to Switzerland, each plus Other', () => {
    expect(COUNTRIES).toHaveLength(46);
    expect([COUNTRIES[0], COUNTRIES[44], COUNTRIES[45]]).toEqual(['United States', 'Ethiopia', 'Other']);
    expect(INCORPORATION_COUNTRIES).toHaveLength(16);
    expect([INCORPORATION_COUNTRIES[0], INCORPORATION_COUNTRIES[14]]).toEqual(['United States', 'Switzerland']);
    expect(regionOfCountry('Kenya')).toBe('Africa');
    expect(regionOfCountry('Other')).toBeNull();
  });
});
