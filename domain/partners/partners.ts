import { ASSIGNABLE_PERMISSIONS_BY_ROLE, isAdminRole, normalizePermission, normalizePermissions, type Permission } from '../access';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';
import { BUSINESS_TYPES, normalizeQuestionnaire, OTHER, questionnaireProblems, type QuestionnaireAnswers } from './questionnaire';
import {
  APPLICATION_FIELDS,
  isPartnerCategory,
  PARTNER_CATEGORIES,
  REGIONS,
  REJECTION_REASON_MAX,
  tierOfCategory,
  type ApplicationDetails,
  type PartnerCategory,
  type PartnerTier,
} from './application';
import { recordOf } from '../records';

/**
 * A partner application: one per applicant, kept in the stream `partners-<applicant's user id>`, so
 * the partner's id is the id of the account that applied (and of its organisation).
 * Submitted pending; an administrator approves it (with a category and permissions) or rejects it
 * (with a reason). Approval and rejection are final.
 */
export type PartnerStatus = 'pending' | 'approved' | 'rejected';

export type PartnerState =
  | { status: 'none' }
  | {
      status: PartnerStatus;
      id: string;
      userId: string;
      companyName: string;
      companyLogo: string | null;
      category: PartnerCategory | null;
      rejectionReason: string | null;
      /** Not needed to decide; kept so the application can be read as it was at any past moment. */
      details: ApplicationDetails | null;
      answers: QuestionnaireAnswers | null;
      tier: PartnerTier | null;
      /** The permissions the approval gave the partner's account. */
      permissions: Permission[] | null;
    };

// ---- events (past tense); the ones that change the status carry `status` and `previousStatus` ----

export type PartnerEvent =
  | {
      /** The record's creation, by the applicant's first submission (wizard or questionnaire). */
      type: 'PartnerApplicationSubmitted.v1';
      data: { partnerId: string; userId: string; companyName: string; status: 'pending'; previousStatus: null };
    }
  | { type: 'PartnerApplicationDetailsProvided.v1'; data: { partnerId: string; details: ApplicationDetails; companyLogo: string | null } }
  | { type: 'PartnerQuestionnaireAnswered.v1'; data: { partnerId: string; answers: QuestionnaireAnswers } }
  | {
      type: 'PartnerApproved.v1';
      data: {
        partnerId: string;
        userId: string;
        companyName: string;
        category: PartnerCategory;
        tier: PartnerTier;
        permissions: Permission[];
        status: 'approved';
        previousStatus: 'pending';
        reason: null;
      };
    }
  | {
      type: 'PartnerRejected.v1';
      data: { partnerId: string; userId: string; companyName: string; status: 'rejected'; previousStatus: 'pending'; reason: string };
    };

// ---- commands (imperative) ----

export type PartnerCommand =
  | { type: 'SubmitApplication'; partnerId: string; userId: string; details: ApplicationDetails; companyLogo: string | null }
  | { type: 'SubmitQuestionnaire'; partnerId: string; userId: string; answers: QuestionnaireAnswers }
  | { type: 'ApprovePartner'; category: string; permissions: string[] }
  | { type: 'RejectPartner'; reason: string };

/** What a rejected applicant reads when signing in. */
export const rejectedApplicantMessage = (reason: string) => `Your partner application was not approved: ${reason}`;

export const PARTNER_MESSAGES = {
  notFound: 'Partner application not found.',
  onlyOwnApplication: 'You can only submit or change your own partner application.',
  onlyAdmins: 'Only administrators can approve or reject partner applications.',
  alreadyApproved: 'This partner application has already been approved.',
  alreadyRejected: 'This partner application has already been rejected.',
  approvedIsFinal: 'An approved partner cannot be rejected.',
  rejectedIsFinal: 'A rejected partner application cannot be approved.',
  approvedUnchangeable: 'This partner application has already been approved and can no longer be changed.',
  rejectedUnchangeable: 'This partner application was rejected and can no longer be changed.',
  companyNameRequired: 'Company name is required',
  categoryRequired: `Please choose a partner category: ${PARTNER_CATEGORIES.join(', ')}.`,
  permissionsRefused: 'Some of the chosen permissions cannot be given to a partner.',
  reasonRequired: 'Please give a reason for the rejection.',
  reasonTooLong: `The reason must be at most ${REJECTION_REASON_MAX} characters.`,
  invalidEmail: 'Please enter a valid email address',
  invalidRegion: `Region must be one of: ${REGIONS.join(', ')}.`,
  invalidBusinessType: `Business type must be one of: ${BUSINESS_TYPES.join(', ')}.`,
} as const;

type Existing = Exclude<PartnerState, { status: 'none' }>;

const invalid = (field: string, message: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);

/** The applicant acts for themselves: an application is submitted and changed only by its own account. */
function checkApplicant(command: { userId: string; partnerId: string }, state: PartnerState, metadata: CommandMetadata): void {
  if (metadata.actorId !== command.userId || command.partnerId !== command.userId || (state.status !== 'none' && state.userId !== command.userId)) {
    throw new DomainError('forbidden', 'FORBIDDEN', PARTNER_MESSAGES.onlyOwnApplication);
  }
  if (state.status === 'approved') throw new DomainError('conflict', 'CONFLICT', PARTNER_MESSAGES.approvedUnchangeable);
  if (state.status === 'rejected') throw new DomainError('conflict', 'CONFLICT', PARTNER_MESSAGES.rejectedUnchangeable);
}

function decided(state: PartnerState, metadata: CommandMetadata): Existing {
  if (!isAdminRole(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', PARTNER_MESSAGES.onlyAdmins);
  if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', PARTNER_MESSAGES.notFound);
  return state;
}

function opened(state: PartnerState, command: { partnerId: string; userId: string }, companyName: string): PartnerEvent[] {
  if (state.status !== 'none') return [];
  return [
    {
      type: 'PartnerApplicationSubmitted.v1',
      data: { partnerId: command.partnerId, userId: command.userId, companyName, status: 'pending', previousStatus: null },
    },
  ];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The wizard's company-info fields may be empty (spec 001 §5); what is given must make sense. */
function checkedDetails(details: ApplicationDetails): ApplicationDetails {
  const trimmed: ApplicationDetails = recordOf(APPLICATION_FIELDS, (field) => (details[field] ?? '').trim());
  if (!trimmed.company_name) throw invalid('company_name', PARTNER_MESSAGES.companyNameRequired);
  if (trimmed.contact_email && !EMAIL.test(trimmed.contact_email)) throw invalid('contact_email', PARTNER_MESSAGES.invalidEmail);
  if (trimmed.region && !(REGIONS as readonly string[]).includes(trimmed.region)) throw invalid('region', PARTNER_MESSAGES.invalidRegion);
  if (trimmed.business_type && !(BUSINESS_TYPES as readonly string[]).includes(trimmed.business_type))
    throw invalid('business_type', PARTNER_MESSAGES.invalidBusinessType);
  if (trimmed.category && !isPartnerCategory(trimmed.category)) throw invalid('category', PARTNER_MESSAGES.categoryRequired);
  if (trimmed.business_type !== OTHER) trimmed.business_type_other = '';
  return trimmed;
}

const PARTNER_ASSIGNABLE = new Set<Permission>(ASSIGNABLE_PERMISSIONS_BY_ROLE.partner);

export function decide(command: PartnerCommand, state: PartnerState, metadata: CommandMetadata): PartnerEvent[] {
  switch (command.type) {
    case 'SubmitApplication': {
      checkApplicant(command, state, metadata);
      const details = checkedDetails(command.details);
      const companyLogo = command.companyLogo ?? (state.status === 'none' ? null : state.companyLogo);
      return [
        ...opened(state, command, details.company_name),
        { type: 'PartnerApplicationDetailsProvided.v1', data: { partnerId: command.partnerId, details, companyLogo } },
      ];
    }
    case 'SubmitQuestionnaire': {
      checkApplicant(command, state, metadata);
      const problems = questionnaireProblems(command.answers);
      if (problems.length) throw new DomainError('invalid', 'VALIDATION_ERROR', problems[0].message, problems);
      const answers = normalizeQuestionnaire(command.answers);
      return [...opened(state, command, answers.company_name), { type: 'PartnerQuestionnaireAnswered.v1', data: { partnerId: command.partnerId, answers } }];
    }
    case 'ApprovePartner': {
      const partner = decided(state, metadata);
      if (partner.status === 'approved') throw new DomainError('conflict', 'CONFLICT', PARTNER_MESSAGES.alreadyApproved);
      if (partner.status === 'rejected') throw new DomainError('conflict', 'CONFLICT', PARTNER_MESSAGES.rejectedIsFinal);
      if (!isPartnerCategory(command.category)) throw invalid('category', PARTNER_MESSAGES.categoryRequired);
      if (!command.permissions.every((name) => PARTNER_ASSIGNABLE.has(normalizePermission(name) as Permission))) {
        throw invalid('permissions', PARTNER_MESSAGES.permissionsRefused);
      }
      return [
        {
          type: 'PartnerApproved.v1',
          data: {
            partnerId: partner.id,
            userId: partner.userId,
            companyName: partner.companyName,
            category: command.category,
            tier: tierOfCategory(command.category),
            permissions: normalizePermissions(command.permissions),
            status: 'approved',
            previousStatus: 'pending',
            reason: null,
          },
        },
      ];
    }
    case 'RejectPartner': {
      const partner = decided(state, metadata);
      if (partner.status === 'approved') throw new DomainError('conflict', 'CONFLICT', PARTNER_MESSAGES.approvedIsFinal);
      if (partner.status === 'rejected') throw new DomainError('conflict', 'CONFLICT', PARTNER_MESSAGES.alreadyRejected);
      const reason = command.reason.trim();
      if (!reason) throw invalid('rejection_reason', PARTNER_MESSAGES.reasonRequired);
      if (reason.length > REJECTION_REASON_MAX) throw invalid('rejection_reason', PARTNER_MESSAGES.reasonTooLong);
      return [
        {
          type: 'PartnerRejected.v1',
          data: { partnerId: partner.id, userId: partner.userId, companyName: partner.companyName, status: 'rejected', previousStatus: 'pending', reason },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

export function evolve(state: PartnerState, event: PartnerEvent): PartnerState {
  if (event.type === 'PartnerApplicationSubmitted.v1') {
    const { partnerId, userId, companyName } = event.data;
    return {
      status: 'pending',
      id: partnerId,
      userId,
      companyName,
      companyLogo: null,
      category: null,
      rejectionReason: null,
      details: null,
      answers: null,
      tier: null,
      permissions: null,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'PartnerApplicationDetailsProvided.v1':
      return { ...state, companyName: event.data.details.company_name, companyLogo: event.data.companyLogo, details: event.data.details };
    case 'PartnerQuestionnaireAnswered.v1':
      return { ...state, companyName: event.data.answers.company_name, answers: event.data.answers };
    case 'PartnerApproved.v1':
      return { ...state, status: 'approved', category: event.data.category, tier: event.data.tier, permissions: event.data.permissions };
    case 'PartnerRejected.v1':
      return { ...state, status: 'rejected', rejectionReason: event.data.reason };
    default:
      return assertNever(event);
  }
}

export const partners: Decider<PartnerState, PartnerCommand, PartnerEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `partners-${id}`,
};
