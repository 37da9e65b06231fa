import type { Job, Processor } from 'bullmq';
import { DomainError } from '../domain/decider';
import { users, type UserCommand } from '../domain/identity/users';
import type { PartnerEvent } from '../domain/partners/partners';
import { handleCommand } from '../platform/commands/commandHandler';
import { metadataCausedBy } from '../platform/commands/dispatch';
import type { RecordedEvent } from '../platform/eventstore';
import type { Services } from '../platform/services';
import { activeAdminIds } from '../projections/users';
import { notificationJob } from './notifications';
import { QUEUES, reactionJobId, type JobRequest } from '../platform/queues';
import type { Reaction, ReactionTable } from './reactor';

type EventOf<Type extends PartnerEvent['type']> = RecordedEvent<Type, Extract<PartnerEvent, { type: Type }>['data']>;

// ---- the approval process: an approved application activates the applicant's account with the chosen permissions ----

export const PARTNER_APPROVAL_JOB = 'complete-partner-approval';

export interface PartnerApprovalJobData {
  /** The approval event: its id keys every step, its actor (the approving admin) acts again in each step. */
  approval: { eventId: string; correlationId: string; actorId: string | null; actorRole: string | null };
  userId: string;
  partnerId: string;
  category: string;
  permissions: string[];
}

/** What the process needs to know of the approval event. */
export function approvalProcessData(recorded: RecordedEvent): PartnerApprovalJobData {
  const event = recorded as EventOf<'PartnerApproved.v1'>;
  return {
    approval: { eventId: event.id, correlationId: event.metadata.correlationId, actorId: event.metadata.actorId, actorRole: event.metadata.actorRole },
    userId: event.data.userId,
    partnerId: event.data.partnerId,
    category: event.data.category,
    permissions: event.data.permissions,
  };
}

export function partnerApprovalJob(event: RecordedEvent): JobRequest {
  const data = approvalProcessData(event);
  return { queue: QUEUES.partnerApprovals, name: PARTNER_APPROVAL_JOB, id: reactionJobId(event.id, PARTNER_APPROVAL_JOB, data.userId), data };
}

/**
 * The process's steps, in order, each a command on the applicant's account. Every step's event ids
 * derive from the approval event and the step, so a step run again after a crash (or by a second
 * worker) appends nothing: the store answers already-stored ids as a no-op, and an unchanged
 * account decides no event at all.
 */
export const PARTNER_APPROVAL_STEPS: ReadonlyArray<{ name: string; command: (data: PartnerApprovalJobData) => UserCommand }> = [
  { name: 'grant-permissions', command: (data) => ({ type: 'ChangeUserPermissions', permissions: data.permissions }) },
  { name: 'activate-account', command: (data) => ({ type: 'ActivateUser', reason: `Partner application approved (${data.category})` }) },
];

export type PartnerApprovalOutcome = { steps: Array<{ name: string; appended: number }>; accountGone?: true };

/** Runs the steps (all of them, or the first `upTo`); safe to run any number of times. */
export async function completePartnerApproval(
  services: Pick<Services, 'store'>,
  data: PartnerApprovalJobData,
  options: { upTo?: number } = {},
): Promise<PartnerApprovalOutcome> {
  const { approval } = data;
  const metadata = metadataCausedBy(
    { id: approval.eventId, metadata: { correlationId: approval.correlationId } },
    { id: approval.actorId, role: approval.actorRole },
  );
  const outcome: PartnerApprovalOutcome = { steps: [] };
  for (const step of PARTNER_APPROVAL_STEPS.slice(0, options.upTo ?? PARTNER_APPROVAL_STEPS.length)) {
    try {
      const result = await handleCommand(services.store, users, data.userId, step.command(data), metadata, {
        idempotencyKey: `partner-approval:${approval.eventId}:${step.name}`,
      });
      outcome.steps.push({ name: step.name, appended: result.events.length });
    } catch (error) {
      // The applicant's account was deleted since: there is nothing left to activate.
      if (error instanceof DomainError && error.kind === 'not_found') return { ...outcome, accountGone: true };
      throw error;
    }
  }
  return outcome;
}

// ---- the applicant's account takes the contact person's name from the questionnaire ----

export const NAME_ACCOUNT_HOLDER_JOB = 'name-account-holder';

export interface NameAccountHolderJobData {
  answered: { eventId: string; correlationId: string; actorId: string | null; actorRole: string | null };
  userId: string;
  contactName: string;
}

/**
 * A partner registers with its company name only, so its account is first named after the company;
 * the questionnaire's contact person then names the account, in User Management, greetings and history.
 */
export function nameAccountHolderJob(recorded: RecordedEvent): JobRequest | null {
  const event = recorded as EventOf<'PartnerQuestionnaireAnswered.v1'>;
  const contactName = event.data.answers.contact_name?.trim();
  if (!contactName) return null;
  // The applicant's partner record and account share one id.
  const data: NameAccountHolderJobData = {
    answered: { eventId: event.id, correlationId: event.metadata.correlationId, actorId: event.metadata.actorId, actorRole: event.metadata.actorRole },
    userId: event.data.partnerId,
    contactName,
  };
  return { queue: QUEUES.partnerApprovals, name: NAME_ACCOUNT_HOLDER_JOB, id: reactionJobId(event.id, NAME_ACCOUNT_HOLDER_JOB, data.userId), data };
}

/** Renames the account once per questionnaire answer; a deleted account is left alone. */
export async function nameAccountHolder(services: Pick<Services, 'store'>, data: NameAccountHolderJobData): Promise<{ appended: number; accountGone?: true }> {
  const { answered } = data;
  const metadata = metadataCausedBy(
    { id: answered.eventId, metadata: { correlationId: answered.correlationId } },
    { id: answered.actorId, role: answered.actorRole },
  );
  try {
    const result = await handleCommand(services.store, users, data.userId, { type: 'RenameUser', fullName: data.contactName }, metadata, {
      idempotencyKey: `partner-contact-name:${answered.eventId}`,
    });
    return { appended: result.events.length };
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') return { appended: 0, accountGone: true };
    throw error;
  }
}

type PartnerProcessJobData = PartnerApprovalJobData | NameAccountHolderJobData;

/** The partner-approvals queue: the approval process and the account's naming. */
export function partnerApprovalProcessor(services: Pick<Services, 'store'>): Processor<PartnerProcessJobData, unknown> {
  return (job: Job<PartnerProcessJobData>) =>
    job.name === NAME_ACCOUNT_HOLDER_JOB
      ? nameAccountHolder(services, job.data as NameAccountHolderJobData)
      : completePartnerApproval(services, job.data as PartnerApprovalJobData);
}

// ---- notifications ----

/** Every active admin hears of a new application (only admins who existed when it arrived, so a replay tells no one new). */
const notifyAdminsOfApplication: Reaction = async (recorded, context) => {
  const event = recorded as EventOf<'PartnerApplicationSubmitted.v1'>;
  await context.readModelsInclude(event);
  const admins = await activeAdminIds(context.pool, event.metadata.occurredAt);
  return admins.map((admin) =>
    notificationJob(event, admin, {
      kind: 'partner-application',
      title: 'New partner application',
      body: `${event.data.companyName} submitted a partner application. Review it under Partner Approvals.`,
      link: '/adminpanel',
    }),
  );
};

const completeApproval: Reaction = async (recorded) => [partnerApprovalJob(recorded)];

const nameAccountAfterQuestionnaire: Reaction = async (recorded) => {
  const job = nameAccountHolderJob(recorded);
  return job ? [job] : [];
};

const notifyApplicantOfApproval: Reaction = async (recorded) => {
  const event = recorded as EventOf<'PartnerApproved.v1'>;
  return [
    notificationJob(event, event.data.userId, {
      kind: 'partner-approved',
      title: 'Your partner application was approved',
      body: `Welcome to PartnerHub! ${event.data.companyName} is now a ${event.data.category}. You can sign in to the partner portal.`,
      link: '/partnerdashboard',
    }),
  ];
};

const notifyApplicantOfRejection: Reaction = async (recorded) => {
  const event = recorded as EventOf<'PartnerRejected.v1'>;
  return [
    notificationJob(event, event.data.userId, {
      kind: 'partner-rejected',
      title: 'Your partner application was not approved',
      body: `Your partner application for ${event.data.companyName} was not approved. Reason: ${event.data.reason}`,
      link: null,
    }),
  ];
};

export const partnerReactions: ReactionTable = {
  'PartnerApplicationSubmitted.v1': [notifyAdminsOfApplication],
  'PartnerQuestionnaireAnswered.v1': [nameAccountAfterQuestionnaire],
  'PartnerApproved.v1': [completeApproval, notifyApplicantOfApproval],
  'PartnerRejected.v1': [notifyApplicantOfRejection],
};
