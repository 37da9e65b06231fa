import { isAdminRole } from '../access';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';
import { dollarsText, isRealDate, MAX_FUND_CENTS } from './funds';

/**
 * MDF activity requests (pre-approval): pending → approved | rejected | changes_requested;
 * changes_requested → pending (the partner edits and resubmits); approved → claimed (a claim
 * arrived) | released (the claim deadline passed with no claim). The money an approval reserves is
 * held on the fund's stream; this stream decides what the request itself may do.
 */

export const FUND_REQUEST_STATUSES = ['pending', 'changes_requested', 'approved', 'rejected', 'claimed', 'released'] as const;
export type FundRequestStatus = (typeof FUND_REQUEST_STATUSES)[number];
export const FUND_REQUEST_DECISIONS = ['approved', 'rejected', 'changes_requested'] as const;
export type FundRequestDecision = (typeof FUND_REQUEST_DECISIONS)[number];

export const ACTIVITY_TYPES = ['event', 'trade_show', 'digital_campaign', 'webinar', 'content_syndication', 'print', 'other'] as const;
export const isActivityType = (value: string) => (ACTIVITY_TYPES as readonly string[]).includes(value);

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 4000;
export const NOTE_MAX = 1000;
/** The claim deadline's default: days after the activity's end (README: FUND_CLAIM_WINDOW_DAYS). */
export const DEFAULT_CLAIM_WINDOW_DAYS = 60;
const DAY_MS = 86_400_000;

export const FUND_REQUEST_MESSAGES = {
  notFound: 'Fund request not found.',
  onlyAdminsReview: 'Only administrators can review fund requests.',
  activityTypeUnknown: `Activity type must be one of: ${ACTIVITY_TYPES.join(', ')}.`,
  titleRequired: 'Title is required.',
  titleTooLong: `The title must be at most ${TITLE_MAX} characters.`,
  descriptionRequired: 'Description is required.',
  descriptionTooLong: `The description must be at most ${DESCRIPTION_MAX} characters.`,
  datesInvalid: 'Start and end dates are dates (YYYY-MM-DD), the end not before the start.',
  outsidePeriod: 'The activity must start within the fund’s period.',
  plannedCostInvalid: 'Planned cost must be greater than 0.',
  requestedInvalid: 'Requested amount must be greater than 0.',
  requestedAbovePlanned: 'The requested amount cannot be more than the planned cost.',
  requestedAboveAvailable: (available: string) => `The requested amount is more than your available balance (${available}).`,
  expectedLeadsInvalid: 'Expected leads must be a whole number of at least 0.',
  fundClosed: 'This fund is not open for requests.',
  approvedAmountRequired: 'Please enter the amount to approve.',
  approvedAboveRequested: 'The approved amount cannot be more than the requested amount.',
  reasonRequired: 'Please give a reason.',
  noteTooLong: `The note must be at most ${NOTE_MAX} characters.`,
  cannotReview: (status: string) => `A request that is ${status.replace('_', ' ')} cannot be reviewed.`,
  notYours: 'You can only change your own organisation’s requests.',
  onlyWhenChangesRequested: 'A request can be edited only while changes are requested.',
  notApproved: 'Only an approved request can be claimed.',
  alreadyClaimed: 'This request has already been claimed.',
  released: 'The claim deadline passed and the reservation was released.',
  deadlineNotReached: 'The claim deadline has not passed yet.',
  submitted: 'Fund request submitted.',
  reviewed: (decision: string) => `Fund request ${decision.replace('_', ' ')}.`,
} as const;

export interface FundAttachment {
  file: string;
  name: string;
  type: string;
  size: number;
}

export interface ActivityPlan {
  activityType: string;
  title: string;
  description: string;
  startDate: string;
  endDate: string;
  plannedCostCents: number;
  requestedAmountCents: number;
  expectedLeads: number;
}

type Existing = ActivityPlan & {
  status: FundRequestStatus;
  id: string;
  fundId: string;
  organisationId: string;
  attachments: string[];
  approvedAmountCents: number | null;
  claimDeadline: string | null;
  claimId: string | null;
  /** `<days before>@<deadline>` of each claim reminder sent. */
  remindersSent: string[];
};

export type FundRequestState = { status: 'none' } | Existing;

type Ids = { requestId: string; fundId: string; organisationId: string };

export type FundRequestEvent =
  | {
      type: 'FundRequestSubmitted.v1';
      data: Ids &
        ActivityPlan & {
          companyName: string | null;
          submittedBy: string;
          submittedAt: string;
          attachments: FundAttachment[];
          status: 'pending';
          previousStatus: null;
        };
    }
  | {
      type: 'FundRequestResubmitted.v1';
      data: Ids & ActivityPlan & { attachments: FundAttachment[]; status: 'pending'; previousStatus: 'changes_requested'; reason: null };
    }
  | {
      type: 'FundRequestApproved.v1';
      data: Ids & {
        approvedAmountCents: number;
        claimDeadline: string;
        note: string | null;
        status: 'approved';
        previousStatus: 'pending';
        reason: string | null;
      };
    }
  | { type: 'FundRequestRejected.v1'; data: Ids & { status: 'rejected'; previousStatus: 'pending'; reason: string } }
  | { type: 'FundRequestChangesRequested.v1'; data: Ids & { status: 'changes_requested'; previousStatus: 'pending'; reason: string } }
  | { type: 'FundRequestClaimed.v1'; data: Ids & { claimId: string; status: 'claimed'; previousStatus: 'approved'; reason: null } }
  | {
      type: 'FundRequestReleased.v1';
      data: Ids & { amountCents: number; claimDeadline: string; status: 'released'; previousStatus: 'approved'; reason: string };
    }
  | { type: 'FundClaimReminderSent.v1'; data: Ids & { title: string; daysBefore: number; claimDeadline: string } };

/** What the fund shows for the organisation when the request is made: the balance, and whether it is open with the activity in its period. */
export interface FundContext {
  availableCents: number;
  open: boolean;
  periodStart: string;
  periodEnd: string;
}

export type FundRequestCommand =
  | (ActivityPlan & {
      type: 'SubmitFundRequest';
      requestId: string;
      fundId: string;
      organisationId: string;
      companyName: string | null;
      submittedBy: string;
      attachments: FundAttachment[];
      fund: FundContext;
    })
  | (ActivityPlan & { type: 'ResubmitFundRequest'; actorOrganisationId: string; attachments: FundAttachment[]; fund: FundContext })
  | { type: 'ReviewFundRequest'; decision: string; approvedAmountCents: number | null; note: string | null; claimWindowDays: number }
  | { type: 'MarkFundRequestClaimed'; claimId: string }
  | { type: 'ReleaseFundRequest' }
  | { type: 'SendClaimReminder'; daysBefore: number };

// ---- helpers ----

const invalid = (field: string, message: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);

/** The last day a claim is accepted: the activity's end plus the window. */
export const claimDeadlineOf = (endDate: string, windowDays: number) =>
  new Date(Date.parse(`${endDate}T00:00:00.000Z`) + windowDays * DAY_MS).toISOString().slice(0, 10);
/** A deadline day has passed once the day after it has begun (UTC). */
export const deadlinePassed = (deadline: string, now: string) => now.slice(0, 10) > deadline;
/** The moment the deadline passes: the start (UTC) of the day after it. */
export const deadlinePassesAt = (deadline: string) => Date.parse(`${deadline}T00:00:00.000Z`) + DAY_MS;
/** Claim reminders go this many days before the deadline passes. */
export const CLAIM_REMINDER_DAYS_BEFORE = [14, 3] as const;
export const reminderDueAt = (deadline: string, daysBefore: number) => deadlinePassesAt(deadline) - daysBefore * DAY_MS;

function checkedPlan(command: ActivityPlan, fund: FundContext): ActivityPlan {
  const plan: ActivityPlan = {
    activityType: command.activityType.trim(),
    title: command.title.trim(),
    description: command.description.trim(),
    startDate: command.startDate.trim(),
    endDate: command.endDate.trim(),
    plannedCostCents: command.plannedCostCents,
    requestedAmountCents: command.requestedAmountCents,
    expectedLeads: command.expectedLeads,
  };
  if (!isActivityType(plan.activityType)) throw invalid('activity_type', FUND_REQUEST_MESSAGES.activityTypeUnknown);
  if (!plan.title) throw invalid('title', FUND_REQUEST_MESSAGES.titleRequired);
  if (plan.title.length > TITLE_MAX) throw invalid('title', FUND_REQUEST_MESSAGES.titleTooLong);
  if (!plan.description) throw invalid('description', FUND_REQUEST_MESSAGES.descriptionRequired);
  if (plan.description.length > DESCRIPTION_MAX) throw invalid('description', FUND_REQUEST_MESSAGES.descriptionTooLong);
  if (!isRealDate(plan.startDate) || !isRealDate(plan.endDate) || plan.endDate < plan.startDate) throw invalid('end_date', FUND_REQUEST_MESSAGES.datesInvalid);
  if (plan.startDate < fund.periodStart || plan.startDate > fund.periodEnd) throw invalid('start_date', FUND_REQUEST_MESSAGES.outsidePeriod);
  if (!Number.isInteger(plan.plannedCostCents) || plan.plannedCostCents <= 0 || plan.plannedCostCents > MAX_FUND_CENTS)
    throw invalid('planned_cost', FUND_REQUEST_MESSAGES.plannedCostInvalid);
  if (!Number.isInteger(plan.requestedAmountCents) || plan.requestedAmountCents <= 0) throw invalid('requested_amount', FUND_REQUEST_MESSAGES.requestedInvalid);
  if (plan.requestedAmountCents > plan.plannedCostCents) throw invalid('requested_amount', FUND_REQUEST_MESSAGES.requestedAbovePlanned);
  if (!Number.isInteger(plan.expectedLeads) || plan.expectedLeads < 0) throw invalid('expected_leads', FUND_REQUEST_MESSAGES.expectedLeadsInvalid);
  if (!fund.open) throw new DomainError('conflict', 'FUND_CLOSED', FUND_REQUEST_MESSAGES.fundClosed);
  if (plan.requestedAmountCents > fund.availableCents) {
    const message = FUND_REQUEST_MESSAGES.requestedAboveAvailable(dollarsText(Math.max(0, fund.availableCents)));
    throw new DomainError('conflict', 'INSUFFICIENT_FUNDS', message, [{ field: 'requested_amount', message }]);
  }
  return plan;
}

function existing(state: FundRequestState): Existing {
  if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', FUND_REQUEST_MESSAGES.notFound);
  return state;
}

const idsOf = (request: Existing): Ids => ({ requestId: request.id, fundId: request.fundId, organisationId: request.organisationId });

// ---- the commands ----

function submit(command: Extract<FundRequestCommand, { type: 'SubmitFundRequest' }>, state: FundRequestState, metadata: CommandMetadata): FundRequestEvent[] {
  if (state.status !== 'none') return []; // a retried submission
  const plan = checkedPlan(command, command.fund);
  return [
    {
      type: 'FundRequestSubmitted.v1',
      data: {
        requestId: command.requestId,
        fundId: command.fundId,
        organisationId: command.organisationId,
        companyName: command.companyName,
        submittedBy: command.submittedBy,
        submittedAt: metadata.now,
        ...plan,
        attachments: command.attachments,
        status: 'pending',
        previousStatus: null,
      },
    },
  ];
}

function resubmit(command: Extract<FundRequestCommand, { type: 'ResubmitFundRequest' }>, state: FundRequestState): FundRequestEvent[] {
  const request = existing(state);
  if (command.actorOrganisationId !== request.organisationId) throw new DomainError('not_found', 'NOT_FOUND', FUND_REQUEST_MESSAGES.notFound);
  if (request.status !== 'changes_requested') throw new DomainError('conflict', 'INVALID_STATUS_TRANSITION', FUND_REQUEST_MESSAGES.onlyWhenChangesRequested);
  const plan = checkedPlan(command, command.fund);
  return [
    {
      type: 'FundRequestResubmitted.v1',
      data: { ...idsOf(request), ...plan, attachments: command.attachments, status: 'pending', previousStatus: 'changes_requested', reason: null },
    },
  ];
}

function review(command: Extract<FundRequestCommand, { type: 'ReviewFundRequest' }>, state: FundRequestState, metadata: CommandMetadata): FundRequestEvent[] {
  if (!isAdminRole(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', FUND_REQUEST_MESSAGES.onlyAdminsReview);
  const request = existing(state);
  if (request.status !== 'pending') throw new DomainError('conflict', 'INVALID_STATUS_TRANSITION', FUND_REQUEST_MESSAGES.cannotReview(request.status));
  const note = command.note?.trim() || null;
  if (note && note.length > NOTE_MAX) throw invalid('note', FUND_REQUEST_MESSAGES.noteTooLong);
  const decision = command.decision as FundRequestDecision;
  switch (decision) {
    case 'approved': {
      const amount = command.approvedAmountCents;
      if (amount === null || !Number.isInteger(amount) || amount <= 0) throw invalid('approved_amount', FUND_REQUEST_MESSAGES.approvedAmountRequired);
      if (amount > request.requestedAmountCents) throw invalid('approved_amount', FUND_REQUEST_MESSAGES.approvedAboveRequested);
      return [
        {
          type: 'FundRequestApproved.v1',
          data: {
            ...idsOf(request),
            approvedAmountCents: amount,
            claimDeadline: claimDeadlineOf(request.endDate, command.claimWindowDays),
            note,
            status: 'approved',
            previousStatus: 'pending',
            reason: note,
          },
        },
      ];
    }
    case 'rejected':
      if (!note) throw invalid('note', FUND_REQUEST_MESSAGES.reasonRequired);
      return [{ type: 'FundRequestRejected.v1', data: { ...idsOf(request), status: 'rejected', previousStatus: 'pending', reason: note } }];
    case 'changes_requested':
      if (!note) throw invalid('note', FUND_REQUEST_MESSAGES.reasonRequired);
      return [{ type: 'FundRequestChangesRequested.v1', data: { ...idsOf(request), status: 'changes_requested', previousStatus: 'pending', reason: note } }];
    default:
      throw invalid('decision', `Decision must be one of: ${FUND_REQUEST_DECISIONS.join(', ')}.`);
  }
}

function markClaimed(
  command: Extract<FundRequestCommand, { type: 'MarkFundRequestClaimed' }>,
  state: FundRequestState,
  metadata: CommandMetadata,
): FundRequestEvent[] {
  const request = existing(state);
  if (request.status === 'claimed') {
    if (request.claimId === command.claimId) return [];
    throw new DomainError('conflict', 'ALREADY_CLAIMED', FUND_REQUEST_MESSAGES.alreadyClaimed);
  }
  if (request.status === 'released') throw new DomainError('conflict', 'CLAIM_DEADLINE_PASSED', FUND_REQUEST_MESSAGES.released);
  if (request.status !== 'approved' || !request.claimDeadline) throw new DomainError('conflict', 'NOT_APPROVED', FUND_REQUEST_MESSAGES.notApproved);
  if (deadlinePassed(request.claimDeadline, metadata.now)) throw new DomainError('conflict', 'CLAIM_DEADLINE_PASSED', FUND_REQUEST_MESSAGES.released);
  return [
    { type: 'FundRequestClaimed.v1', data: { ...idsOf(request), claimId: command.claimId, status: 'claimed', previousStatus: 'approved', reason: null } },
  ];
}

/** The deadline's step: releases an approved, unclaimed request once its deadline has passed; anything else is left as it is (exactly once, however often it runs). */
function release(state: FundRequestState, metadata: CommandMetadata): FundRequestEvent[] {
  const request = existing(state);
  if (request.status !== 'approved' || !request.claimDeadline) return [];
  if (!deadlinePassed(request.claimDeadline, metadata.now)) throw new DomainError('conflict', 'DEADLINE_NOT_REACHED', FUND_REQUEST_MESSAGES.deadlineNotReached);
  return [
    {
      type: 'FundRequestReleased.v1',
      data: {
        ...idsOf(request),
        amountCents: request.approvedAmountCents ?? 0,
        claimDeadline: request.claimDeadline,
        status: 'released',
        previousStatus: 'approved',
        reason: `No claim by ${request.claimDeadline}`,
      },
    },
  ];
}

/** A reminder that the claim deadline nears: once per reminder and deadline, only while the request waits for its claim, never early. */
function remind(command: Extract<FundRequestCommand, { type: 'SendClaimReminder' }>, state: FundRequestState, metadata: CommandMetadata): FundRequestEvent[] {
  const request = existing(state);
  if (request.status !== 'approved' || !request.claimDeadline) return [];
  const key = `${command.daysBefore}@${request.claimDeadline}`;
  if (request.remindersSent.includes(key)) return [];
  if (Date.parse(metadata.now) < reminderDueAt(request.claimDeadline, command.daysBefore))
    throw new DomainError('conflict', 'REMINDER_NOT_DUE', 'The reminder is not due yet.');
  return [
    {
      type: 'FundClaimReminderSent.v1',
      data: { ...idsOf(request), title: request.title, daysBefore: command.daysBefore, claimDeadline: request.claimDeadline },
    },
  ];
}

export function decide(command: FundRequestCommand, state: FundRequestState, metadata: CommandMetadata): FundRequestEvent[] {
  switch (command.type) {
    case 'SubmitFundRequest':
      return submit(command, state, metadata);
    case 'ResubmitFundRequest':
      return resubmit(command, state);
    case 'ReviewFundRequest':
      return review(command, state, metadata);
    case 'MarkFundRequestClaimed':
      return markClaimed(command, state, metadata);
    case 'ReleaseFundRequest':
      return release(state, metadata);
    case 'SendClaimReminder':
      return remind(command, state, metadata);
    default:
      return assertNever(command);
  }
}

const planOf = (d: ActivityPlan): ActivityPlan => ({
  activityType: d.activityType,
  title: d.title,
  description: d.description,
  startDate: d.startDate,
  endDate: d.endDate,
  plannedCostCents: d.plannedCostCents,
  requestedAmountCents: d.requestedAmountCents,
  expectedLeads: d.expectedLeads,
});

export function evolve(state: FundRequestState, event: FundRequestEvent): FundRequestState {
  if (event.type === 'FundRequestSubmitted.v1') {
    const d = event.data;
    return {
      status: 'pending',
      id: d.requestId,
      fundId: d.fundId,
      organisationId: d.organisationId,
      ...planOf(d),
      attachments: d.attachments.map((a) => a.file),
      approvedAmountCents: null,
      claimDeadline: null,
      claimId: null,
      remindersSent: [],
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'FundRequestResubmitted.v1':
      return { ...state, ...planOf(event.data), status: 'pending', attachments: event.data.attachments.map((a) => a.file) };
    case 'FundRequestApproved.v1':
      return { ...state, status: 'approved', approvedAmountCents: event.data.approvedAmountCents, claimDeadline: event.data.claimDeadline };
    case 'FundRequestRejected.v1':
    case 'FundRequestChangesRequested.v1':
    case 'FundRequestReleased.v1':
      return { ...state, status: event.data.status };
    case 'FundRequestClaimed.v1':
      return { ...state, status: 'claimed', claimId: event.data.claimId };
    case 'FundClaimReminderSent.v1':
      return { ...state, remindersSent: [...state.remindersSent, `${event.data.daysBefore}@${event.data.claimDeadline}`] };
    default:
      return assertNever(event);
  }
}

export const fundRequests: Decider<FundRequestState, FundRequestCommand, FundRequestEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `fundRequests-${id}`,
};
