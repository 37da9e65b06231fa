import { isAdminRole } from '../access';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';
import { isRealDate, MAX_FUND_CENTS } from './funds';
import { deadlinePassed, type FundAttachment } from './requests';

/**
 * MDF claims (proof of performance): pending → approved | rejected | more_proof_requested;
 * more_proof_requested → pending (the partner adds proof); approved → paid (the payout recorded).
 * One claim per approved request, up to its approved amount, after the activity ended and by its
 * claim deadline.
 */

export const FUND_CLAIM_STATUSES = ['pending', 'more_proof_requested', 'approved', 'rejected', 'paid'] as const;
export type FundClaimStatus = (typeof FUND_CLAIM_STATUSES)[number];
export const FUND_CLAIM_DECISIONS = ['approved', 'rejected', 'more_proof_requested'] as const;
export const PAYOUT_METHODS = ['bank_transfer', 'credit_note', 'check', 'other'] as const;
export const MAX_PROOF_FILES = 10;
export const REASON_MAX = 1000;
export const REFERENCE_MAX = 100;

export const FUND_CLAIM_MESSAGES = {
  notFound: 'Fund claim not found.',
  onlyAdmins: 'Only administrators can review claims and record payouts.',
  requestNotApproved: 'Only an approved, unclaimed request can be claimed.',
  activityNotEnded: 'A claim can be made once the activity has ended.',
  deadlinePassed: (deadline: string) => `The claim deadline (${deadline}) has passed.`,
  actualCostInvalid: 'Actual cost must be greater than 0.',
  claimedInvalid: 'Claimed amount must be greater than 0.',
  claimedAboveApproved: 'The claimed amount cannot be more than the approved amount.',
  claimedAboveActual: 'The claimed amount cannot be more than the actual cost.',
  leadsInvalid: 'Leads generated must be a whole number of at least 0.',
  proofRequired: 'Attach at least one proof of performance (invoice, photos, attendee list).',
  tooManyProofs: `Attach at most ${MAX_PROOF_FILES} proof files.`,
  cannotReview: (status: string) => `A claim that is ${status.replace(/_/g, ' ')} cannot be reviewed.`,
  paidAmountRequired: 'Please enter the amount to pay.',
  paidAboveClaimed: 'The paid amount cannot be more than the claimed amount.',
  reasonRequired: 'Please give a reason.',
  reasonTooLong: `The reason must be at most ${REASON_MAX} characters.`,
  onlyWhenMoreProof: 'Proof can be added only while more proof is requested.',
  alreadyPaid: 'This claim has already been paid.',
  notApproved: 'Only an approved claim can be paid.',
  referenceRequired: 'Payout reference is required.',
  paidAtInvalid: 'Payout date must be a date (YYYY-MM-DD).',
  methodUnknown: `Payout method must be one of: ${PAYOUT_METHODS.join(', ')}.`,
  submitted: 'Claim submitted.',
  reviewed: (decision: string) => `Claim ${decision.replace(/_/g, ' ')}.`,
  paid: 'Payout recorded.',
} as const;

export interface ClaimActuals {
  actualCostCents: number;
  claimedAmountCents: number;
  leadsGenerated: number;
}

/** The request as its stream shows it when the claim is made. */
export interface ClaimedRequest {
  status: string;
  approvedAmountCents: number | null;
  endDate: string;
  claimDeadline: string | null;
}

type Existing = ClaimActuals & {
  status: FundClaimStatus;
  id: string;
  requestId: string;
  fundId: string;
  organisationId: string;
  approvedAmountCents: number;
  proof: string[];
  paidAmountCents: number | null;
};

export type FundClaimState = { status: 'none' } | Existing;

type Ids = { claimId: string; requestId: string; fundId: string; organisationId: string };

export type FundClaimEvent =
  | {
      type: 'FundClaimSubmitted.v1';
      data: Ids &
        ClaimActuals & {
          approvedAmountCents: number;
          companyName: string | null;
          submittedBy: string;
          submittedAt: string;
          proof: FundAttachment[];
          status: 'pending';
          previousStatus: null;
        };
    }
  | { type: 'FundClaimProofAdded.v1'; data: Ids & { proof: FundAttachment[]; status: 'pending'; previousStatus: 'more_proof_requested'; reason: null } }
  | { type: 'FundClaimApproved.v1'; data: Ids & { paidAmountCents: number; status: 'approved'; previousStatus: 'pending'; reason: string | null } }
  | { type: 'FundClaimRejected.v1'; data: Ids & { status: 'rejected'; previousStatus: 'pending'; reason: string } }
  | { type: 'FundClaimMoreProofRequested.v1'; data: Ids & { status: 'more_proof_requested'; previousStatus: 'pending'; reason: string } }
  | {
      type: 'FundClaimPaid.v1';
      data: Ids & { amountCents: number; reference: string; paidAt: string; method: string; status: 'paid'; previousStatus: 'approved'; reason: null };
    };

export type FundClaimCommand =
  | (ClaimActuals & {
      type: 'SubmitFundClaim';
      claimId: string;
      requestId: string;
      fundId: string;
      organisationId: string;
      companyName: string | null;
      submittedBy: string;
      proof: FundAttachment[];
      request: ClaimedRequest;
    })
  | { type: 'AddFundClaimProof'; actorOrganisationId: string; proof: FundAttachment[] }
  | { type: 'ReviewFundClaim'; decision: string; paidAmountCents: number | null; reason: string | null }
  | { type: 'RecordFundPayout'; reference: string; paidAt: string; method: string };

const invalid = (field: string, message: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);

function existing(state: FundClaimState): Existing {
  if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', FUND_CLAIM_MESSAGES.notFound);
  return state;
}

function requireAdmin(metadata: CommandMetadata) {
  if (!isAdminRole(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', FUND_CLAIM_MESSAGES.onlyAdmins);
}

const idsOf = (claim: Existing): Ids => ({ claimId: claim.id, requestId: claim.requestId, fundId: claim.fundId, organisationId: claim.organisationId });

function submit(command: Extract<FundClaimCommand, { type: 'SubmitFundClaim' }>, state: FundClaimState, metadata: CommandMetadata): FundClaimEvent[] {
  if (state.status !== 'none') return []; // a retried submission
  const { request } = command;
  if (request.status !== 'approved' || request.approvedAmountCents === null || !request.claimDeadline)
    throw new DomainError('conflict', 'NOT_APPROVED', FUND_CLAIM_MESSAGES.requestNotApproved);
  if (metadata.now.slice(0, 10) < request.endDate) throw new DomainError('conflict', 'ACTIVITY_NOT_ENDED', FUND_CLAIM_MESSAGES.activityNotEnded);
  if (deadlinePassed(request.claimDeadline, metadata.now))
    throw new DomainError('conflict', 'CLAIM_DEADLINE_PASSED', FUND_CLAIM_MESSAGES.deadlinePassed(request.claimDeadline));
  if (!Number.isInteger(command.actualCostCents) || command.actualCostCents <= 0 || command.actualCostCents > MAX_FUND_CENTS)
    throw invalid('actual_cost', FUND_CLAIM_MESSAGES.actualCostInvalid);
  if (!Number.isInteger(command.claimedAmountCents) || command.claimedAmountCents <= 0) throw invalid('claimed_amount', FUND_CLAIM_MESSAGES.claimedInvalid);
  if (command.claimedAmountCents > request.approvedAmountCents) throw invalid('claimed_amount', FUND_CLAIM_MESSAGES.claimedAboveApproved);
  if (command.claimedAmountCents > command.actualCostCents) throw invalid('claimed_amount', FUND_CLAIM_MESSAGES.claimedAboveActual);
  if (!Number.isInteger(command.leadsGenerated) || command.leadsGenerated < 0) throw invalid('leads_generated', FUND_CLAIM_MESSAGES.leadsInvalid);
  if (command.proof.length === 0) throw invalid('proof', FUND_CLAIM_MESSAGES.proofRequired);
  if (command.proof.length > MAX_PROOF_FILES) throw invalid('proof', FUND_CLAIM_MESSAGES.tooManyProofs);
  return [
    {
      type: 'FundClaimSubmitted.v1',
      data: {
        claimId: command.claimId,
        requestId: command.requestId,
        fundId: command.fundId,
        organisationId: command.organisationId,
        companyName: command.companyName,
        submittedBy: command.submittedBy,
        submittedAt: metadata.now,
        actualCostCents: command.actualCostCents,
        claimedAmountCents: command.claimedAmountCents,
        leadsGenerated: command.leadsGenerated,
        approvedAmountCents: request.approvedAmountCents,
        proof: command.proof,
        status: 'pending',
        previousStatus: null,
      },
    },
  ];
}

function addProof(command: Extract<FundClaimCommand, { type: 'AddFundClaimProof' }>, state: FundClaimState): FundClaimEvent[] {
  const claim = existing(state);
  if (command.actorOrganisationId !== claim.organisationId) throw new DomainError('not_found', 'NOT_FOUND', FUND_CLAIM_MESSAGES.notFound);
  if (claim.status !== 'more_proof_requested') throw new DomainError('conflict', 'INVALID_STATUS_TRANSITION', FUND_CLAIM_MESSAGES.onlyWhenMoreProof);
  if (command.proof.length === 0) throw invalid('proof', FUND_CLAIM_MESSAGES.proofRequired);
  if (claim.proof.length + command.proof.length > MAX_PROOF_FILES) throw invalid('proof', FUND_CLAIM_MESSAGES.tooManyProofs);
  return [
    {
      type: 'FundClaimProofAdded.v1',
      data: { ...idsOf(claim), proof: command.proof, status: 'pending', previousStatus: 'more_proof_requested', reason: null },
    },
  ];
}

function review(command: Extract<FundClaimCommand, { type: 'ReviewFundClaim' }>, state: FundClaimState, metadata: CommandMetadata): FundClaimEvent[] {
  requireAdmin(metadata);
  const claim = existing(state);
  if (claim.status !== 'pending') throw new DomainError('conflict', 'INVALID_STATUS_TRANSITION', FUND_CLAIM_MESSAGES.cannotReview(claim.status));
  const reason = command.reason?.trim() || null;
  if (reason && reason.length > REASON_MAX) throw invalid('reason', FUND_CLAIM_MESSAGES.reasonTooLong);
  switch (command.decision) {
    case 'approved': {
      const amount = command.paidAmountCents;
      if (amount === null || !Number.isInteger(amount) || amount <= 0) throw invalid('paid_amount', FUND_CLAIM_MESSAGES.paidAmountRequired);
      if (amount > claim.claimedAmountCents) throw invalid('paid_amount', FUND_CLAIM_MESSAGES.paidAboveClaimed);
      return [{ type: 'FundClaimApproved.v1', data: { ...idsOf(claim), paidAmountCents: amount, status: 'approved', previousStatus: 'pending', reason } }];
    }
    case 'rejected':
      if (!reason) throw invalid('reason', FUND_CLAIM_MESSAGES.reasonRequired);
      return [{ type: 'FundClaimRejected.v1', data: { ...idsOf(claim), status: 'rejected', previousStatus: 'pending', reason } }];
    case 'more_proof_requested':
      if (!reason) throw invalid('reason', FUND_CLAIM_MESSAGES.reasonRequired);
      return [{ type: 'FundClaimMoreProofRequested.v1', data: { ...idsOf(claim), status: 'more_proof_requested', previousStatus: 'pending', reason } }];
    default:
      throw invalid('decision', `Decision must be one of: ${FUND_CLAIM_DECISIONS.join(', ')}.`);
  }
}

function payout(command: Extract<FundClaimCommand, { type: 'RecordFundPayout' }>, state: FundClaimState, metadata: CommandMetadata): FundClaimEvent[] {
  requireAdmin(metadata);
  const claim = existing(state);
  if (claim.status === 'paid') throw new DomainError('conflict', 'ALREADY_PAID', FUND_CLAIM_MESSAGES.alreadyPaid);
  if (claim.status !== 'approved' || claim.paidAmountCents === null) throw new DomainError('conflict', 'NOT_APPROVED', FUND_CLAIM_MESSAGES.notApproved);
  const reference = command.reference.trim();
  if (!reference) throw invalid('reference', FUND_CLAIM_MESSAGES.referenceRequired);
  if (reference.length > REFERENCE_MAX) throw invalid('reference', FUND_CLAIM_MESSAGES.referenceRequired);
  if (!isRealDate(command.paidAt)) throw invalid('paid_at', FUND_CLAIM_MESSAGES.paidAtInvalid);
  if (!(PAYOUT_METHODS as readonly string[]).includes(command.method)) throw invalid('method', FUND_CLAIM_MESSAGES.methodUnknown);
  return [
    {
      type: 'FundClaimPaid.v1',
      data: {
        ...idsOf(claim),
        amountCents: claim.paidAmountCents,
        reference,
        paidAt: command.paidAt,
        method: command.method,
        status: 'paid',
        previousStatus: 'approved',
        reason: null,
      },
    },
  ];
}

export function decide(command: FundClaimCommand, state: FundClaimState, metadata: CommandMetadata): FundClaimEvent[] {
  switch (command.type) {
    case 'SubmitFundClaim':
      return submit(command, state, metadata);
    case 'AddFundClaimProof':
      return addProof(command, state);
    case 'ReviewFundClaim':
      return review(command, state, metadata);
    case 'RecordFundPayout':
      return payout(command, state, metadata);
    default:
      return assertNever(command);
  }
}

export function evolve(state: FundClaimState, event: FundClaimEvent): FundClaimState {
  if (event.type === 'FundClaimSubmitted.v1') {
    const d = event.data;
    return {
      status: 'pending',
      id: d.claimId,
      requestId: d.requestId,
      fundId: d.fundId,
      organisationId: d.organisationId,
      actualCostCents: d.actualCostCents,
      claimedAmountCents: d.claimedAmountCents,
      leadsGenerated: d.leadsGenerated,
      approvedAmountCents: d.approvedAmountCents,
      proof: d.proof.map((p) => p.file),
      paidAmountCents: null,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'FundClaimProofAdded.v1':
      return { ...state, status: 'pending', proof: [...state.proof, ...event.data.proof.map((p) => p.file)] };
    case 'FundClaimApproved.v1':
      return { ...state, status: 'approved', paidAmountCents: event.data.paidAmountCents };
    case 'FundClaimRejected.v1':
    case 'FundClaimMoreProofRequested.v1':
    case 'FundClaimPaid.v1':
      return { ...state, status: event.data.status };
    default:
      return assertNever(event);
  }
}

export const fundClaims: Decider<FundClaimState, FundClaimCommand, FundClaimEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `fundClaims-${id}`,
};
