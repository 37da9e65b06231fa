import { formatDollarsAndCents } from '../money';
import { isAdminRole } from '../access';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';
import { MAX_RULE_BASIS_POINTS, previousPeriod, ruleAllocations, type AllocationRule, type MeasuredPurchases, type RuleAllocation } from './allocationRule';
import { fundBalance, NO_FIGURES, type FundBalance } from './balance';

/**
 * Market development fund periods. A fund holds a budget for a period, allocations per
 * organisation, and every reservation made against them. Approving an activity request reserves
 * its amount here, on the fund's own stream: two approvals racing for the last dollars append with
 * the revision they read, so the second is decided again on the fresh state and refused.
 */

export const FUND_STATUSES = ['open', 'closed'] as const;
export type FundStatus = (typeof FUND_STATUSES)[number];

export const FUND_NAME_MAX = 120;
/** $10,000,000.00: larger budgets are typing mistakes. */
export const MAX_FUND_CENTS = 10_000_000_00;
/** 100% in basis points. */
export const MAX_COOP_SHARE_BASIS_POINTS = 10_000;

export const FUND_MESSAGES = {
  notFound: 'Fund not found.',
  onlyAdmins: 'Only administrators can manage funds.',
  exists: 'A fund with this id already exists.',
  nameRequired: 'Fund name is required.',
  nameTooLong: `The fund name must be at most ${FUND_NAME_MAX} characters.`,
  periodInvalid: 'The period must be two dates (YYYY-MM-DD), the end not before the start.',
  budgetInvalid: 'The budget must be an amount between 0 and $10,000,000.00.',
  shareInvalid: 'The co-op share must be a percentage between 0 and 100.',
  allocationInvalid: 'Each allocation must be an amount of at least 0.',
  allocationTwice: 'Allocate to each organisation once.',
  allocationsAboveBudget: 'The allocations add up to more than the budget.',
  allocationBelowCommitted: (committed: string) => `This organisation already has ${committed} reserved, claimed or paid; the allocation cannot be lower.`,
  closed: 'This fund period is closed.',
  amountInvalid: 'The amount must be greater than 0.',
  insufficient: (available: string) => `Only ${available} is available in this fund for the organisation.`,
  noReservation: 'This request holds no reservation in the fund.',
  claimAboveReserved: 'The approved claim is more than the reservation holds.',
  notClaimed: 'This request has no approved claim awaiting payout.',
  alreadyClosed: 'This fund period is already closed.',
  periodNotEnded: (periodEnd: string) => `The fund period runs until ${periodEnd}; it closes by itself after that day (an administrator may close it early).`,
  rulePercentInvalid: 'The percentage must be greater than 0 and at most 100.',
  ruleMeasuredElsewhere: 'The fund’s period changed since the purchases were measured; look at the preview again.',
  ruleNothingMeasured: 'No organisation had delivered purchases in the measured period: the rule gives no allocations.',
} as const;

export const CLOSE_REASONS = ['period_end', 'manual'] as const;
export type CloseReason = (typeof CLOSE_REASONS)[number];

export interface Allocation {
  organisationId: string;
  amountCents: number;
}

/** What one approved request holds in the fund, and what has become of it. */
export interface Reservation {
  organisationId: string;
  /** Held, not yet claimed: 0 once a claim is approved or the reservation released. */
  reservedCents: number;
  /** Approved claim awaiting payout. */
  claimedCents: number;
  paidCents: number;
  releasedCents: number;
}

export interface FundDefinition {
  name: string;
  periodStart: string;
  periodEnd: string;
  budgetCents: number;
  /** The share of each delivered order's value that accrues to the organisation (basis points). */
  coopShareBasisPoints: number;
}

type Existing = FundDefinition & {
  status: FundStatus;
  id: string;
  allocations: Record<string, number>;
  reservations: Record<string, Reservation>;
  /** Per organisation: what expired unspent at the close (and what reservations gave back after it). */
  expired: Record<string, number>;
};

export type FundState = { status: 'none' } | Existing;

type Money = { fundId: string; requestId: string; organisationId: string; amountCents: number };

export type FundEvent =
  | { type: 'FundCreated.v1'; data: FundDefinition & { fundId: string; allocations: Allocation[]; status: 'open'; previousStatus: null } }
  | { type: 'FundUpdated.v1'; data: FundDefinition & { fundId: string } }
  | { type: 'FundAllocationSet.v1'; data: { fundId: string; organisationId: string; amountCents: number } }
  | { type: 'FundReserved.v1'; data: Money }
  | { type: 'FundReservationClaimed.v1'; data: Money & { claimId: string; releasedCents: number } }
  | { type: 'FundPaid.v1'; data: Money & { claimId: string } }
  | { type: 'FundReservationReleased.v1'; data: Money & { reason: 'deadline' | 'claim_rejected' | 'request_withdrawn' } }
  /** Allocations set by a rule: the rule and each organisation's measured purchases, with what the rule gave it. */
  | { type: 'FundAllocationsSetByRule.v1'; data: { fundId: string; rule: AllocationRule; allocations: RuleAllocation[] } }
  /** The period closed (at its end, or early by an administrator); `expiredCents` is the sum of the FundAllocationExpired events that follow it. */
  | {
      type: 'FundPeriodClosed.v1';
      data: { fundId: string; reason: CloseReason; periodEnd: string; closedAt: string; expiredCents: number; status: 'closed'; previousStatus: 'open' };
    }
  /** An organisation's unspent money in a closed fund: its available balance at the close, or a reservation given back after it. */
  | {
      type: 'FundAllocationExpired.v1';
      data: { fundId: string; organisationId: string; amountCents: number; reason: 'period_closed' | 'released_after_close'; requestId: string | null };
    };

export type FundCommand =
  | (FundDefinition & { type: 'CreateFund'; fundId: string; allocations: Allocation[] })
  | (FundDefinition & { type: 'UpdateFund' })
  | { type: 'SetAllocation'; organisationId: string; amountCents: number }
  /** `accruedCents`: the organisation's co-op accrual in this fund as the read model shows it (it only grows, so a stale figure only errs on the safe side). */
  | { type: 'ReserveFunds'; requestId: string; organisationId: string; amountCents: number; accruedCents: number }
  | { type: 'ApproveClaimAgainstFund'; requestId: string; claimId: string; amountCents: number }
  | { type: 'PayClaimFromFund'; requestId: string; claimId: string }
  | { type: 'ReleaseReservation'; requestId: string; reason: 'deadline' | 'claim_rejected' | 'request_withdrawn' }
  /** `purchases`: delivered purchases per organisation in `measuredFrom`..`measuredTo` (the previous period of the fund's length), as the orders read model shows them. */
  | { type: 'SetAllocationsByRule'; percentBasisPoints: number; measuredFrom: string; measuredTo: string; purchases: MeasuredPurchases[] }
  /** `accruedCents`: each organisation's co-op accrual in this fund as the read model shows it. */
  | { type: 'CloseFundPeriod'; reason: CloseReason; accruedCents: Record<string, number> };

// ---- helpers ----

const invalid = (field: string, message: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const isRealDate = (value: string) => {
  const date = new Date(`${value}T00:00:00.000Z`);
  return DATE.test(value) && !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
};
export const dollarsText = formatDollarsAndCents;
const isMoney = (cents: number, max = MAX_FUND_CENTS) => Number.isInteger(cents) && cents >= 0 && cents <= max;

function checkedDefinition(command: FundDefinition): FundDefinition {
  const name = command.name.trim();
  if (!name) throw invalid('name', FUND_MESSAGES.nameRequired);
  if (name.length > FUND_NAME_MAX) throw invalid('name', FUND_MESSAGES.nameTooLong);
  if (!isRealDate(command.periodStart) || !isRealDate(command.periodEnd) || command.periodEnd < command.periodStart)
    throw invalid('period_end', FUND_MESSAGES.periodInvalid);
  if (!isMoney(command.budgetCents)) throw invalid('budget', FUND_MESSAGES.budgetInvalid);
  if (!Number.isInteger(command.coopShareBasisPoints) || command.coopShareBasisPoints < 0 || command.coopShareBasisPoints > MAX_COOP_SHARE_BASIS_POINTS) {
    throw invalid('coop_share_percent', FUND_MESSAGES.shareInvalid);
  }
  return {
    name,
    periodStart: command.periodStart,
    periodEnd: command.periodEnd,
    budgetCents: command.budgetCents,
    coopShareBasisPoints: command.coopShareBasisPoints,
  };
}

function existing(state: FundState): Existing {
  if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', FUND_MESSAGES.notFound);
  return state;
}

function requireAdmin(metadata: CommandMetadata) {
  if (!isAdminRole(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', FUND_MESSAGES.onlyAdmins);
}

const allocatedTotal = (allocations: Record<string, number>) => Object.values(allocations).reduce((sum, cents) => sum + cents, 0);

/** One organisation's figures in this fund, accrual as given. */
export function organisationBalance(state: FundState, organisationId: string, accruedCents = 0): FundBalance {
  if (state.status === 'none') return fundBalance(NO_FIGURES);
  const held = Object.values(state.reservations).filter((r) => r.organisationId === organisationId);
  const sum = (key: 'reservedCents' | 'claimedCents' | 'paidCents') => held.reduce((total, r) => total + r[key], 0);
  return fundBalance({
    allocatedCents: state.allocations[organisationId] ?? 0,
    accruedCents,
    reservedCents: sum('reservedCents'),
    claimedCents: sum('claimedCents'),
    paidCents: sum('paidCents'),
    expiredCents: state.expired[organisationId] ?? 0,
  });
}

/** The moment a fund period's end passes: the start (UTC) of the day after its last day. */
export const periodEndPassesAt = (periodEnd: string) => Date.parse(`${periodEnd}T00:00:00.000Z`) + 86_400_000;

function requireOpen(fund: Existing) {
  if (fund.status === 'closed') throw new DomainError('conflict', 'FUND_CLOSED', FUND_MESSAGES.closed);
}

/** After the close, money a reservation gives back is not available again: it expires with the rest. */
const expiredAfterClose = (fund: Existing, organisationId: string, requestId: string, amountCents: number): FundEvent[] =>
  fund.status === 'closed' && amountCents > 0
    ? [{ type: 'FundAllocationExpired.v1', data: { fundId: fund.id, organisationId, amountCents, reason: 'released_after_close', requestId } }]
    : [];

// ---- the commands ----

function createFund(command: Extract<FundCommand, { type: 'CreateFund' }>, state: FundState, metadata: CommandMetadata): FundEvent[] {
  requireAdmin(metadata);
  if (state.status !== 'none') throw new DomainError('conflict', 'CONFLICT', FUND_MESSAGES.exists);
  const definition = checkedDefinition(command);
  const allocations: Record<string, number> = {};
  for (const allocation of command.allocations) {
    if (!isMoney(allocation.amountCents)) throw invalid('allocations', FUND_MESSAGES.allocationInvalid);
    if (allocation.organisationId in allocations) throw invalid('allocations', FUND_MESSAGES.allocationTwice);
    allocations[allocation.organisationId] = allocation.amountCents;
  }
  if (allocatedTotal(allocations) > definition.budgetCents) throw invalid('allocations', FUND_MESSAGES.allocationsAboveBudget);
  return [{ type: 'FundCreated.v1', data: { fundId: command.fundId, ...definition, allocations: command.allocations, status: 'open', previousStatus: null } }];
}

function updateFund(command: Extract<FundCommand, { type: 'UpdateFund' }>, state: FundState, metadata: CommandMetadata): FundEvent[] {
  requireAdmin(metadata);
  const fund = existing(state);
  requireOpen(fund);
  const definition = checkedDefinition(command);
  if (allocatedTotal(fund.allocations) > definition.budgetCents) throw invalid('budget', FUND_MESSAGES.allocationsAboveBudget);
  return [{ type: 'FundUpdated.v1', data: { fundId: fund.id, ...definition } }];
}

function setAllocation(command: Extract<FundCommand, { type: 'SetAllocation' }>, state: FundState, metadata: CommandMetadata): FundEvent[] {
  requireAdmin(metadata);
  const fund = existing(state);
  requireOpen(fund);
  if (!isMoney(command.amountCents)) throw invalid('amount', FUND_MESSAGES.allocationInvalid);
  if (allocatedTotal({ ...fund.allocations, [command.organisationId]: command.amountCents }) > fund.budgetCents)
    throw invalid('amount', FUND_MESSAGES.allocationsAboveBudget);
  const balance = organisationBalance(fund, command.organisationId);
  const committed = balance.reservedCents + balance.claimedCents + balance.paidCents;
  if (command.amountCents < committed) throw invalid('amount', FUND_MESSAGES.allocationBelowCommitted(dollarsText(committed)));
  if (fund.allocations[command.organisationId] === command.amountCents) return [];
  return [{ type: 'FundAllocationSet.v1', data: { fundId: fund.id, organisationId: command.organisationId, amountCents: command.amountCents } }];
}

function reserveFunds(command: Extract<FundCommand, { type: 'ReserveFunds' }>, state: FundState): FundEvent[] {
  const fund = existing(state);
  // The same request reserved again (a retried approval) changes nothing.
  if (command.requestId in fund.reservations) return [];
  if (fund.status === 'closed') throw new DomainError('conflict', 'FUND_CLOSED', FUND_MESSAGES.closed);
  if (!Number.isInteger(command.amountCents) || command.amountCents <= 0) throw invalid('approved_amount', FUND_MESSAGES.amountInvalid);
  const { availableCents } = organisationBalance(fund, command.organisationId, command.accruedCents);
  if (command.amountCents > availableCents) {
    const message = FUND_MESSAGES.insufficient(dollarsText(Math.max(0, availableCents)));
    throw new DomainError('conflict', 'INSUFFICIENT_FUNDS', message, [{ field: 'approved_amount', message }]);
  }
  return [
    {
      type: 'FundReserved.v1',
      data: { fundId: fund.id, requestId: command.requestId, organisationId: command.organisationId, amountCents: command.amountCents },
    },
  ];
}

function approveClaim(command: Extract<FundCommand, { type: 'ApproveClaimAgainstFund' }>, state: FundState): FundEvent[] {
  const fund = existing(state);
  const reservation = fund.reservations[command.requestId];
  if (!reservation) throw new DomainError('conflict', 'NO_RESERVATION', FUND_MESSAGES.noReservation);
  // Already settled for this claim: a retried step.
  if (reservation.reservedCents === 0 && reservation.claimedCents + reservation.paidCents > 0) return [];
  if (reservation.reservedCents === 0) throw new DomainError('conflict', 'NO_RESERVATION', FUND_MESSAGES.noReservation);
  if (!Number.isInteger(command.amountCents) || command.amountCents < 0 || command.amountCents > reservation.reservedCents) {
    throw new DomainError('conflict', 'CLAIM_ABOVE_RESERVED', FUND_MESSAGES.claimAboveReserved);
  }
  const releasedCents = reservation.reservedCents - command.amountCents;
  return [
    {
      type: 'FundReservationClaimed.v1',
      data: {
        fundId: fund.id,
        requestId: command.requestId,
        claimId: command.claimId,
        organisationId: reservation.organisationId,
        amountCents: command.amountCents,
        releasedCents,
      },
    },
    ...expiredAfterClose(fund, reservation.organisationId, command.requestId, releasedCents),
  ];
}

function payClaim(command: Extract<FundCommand, { type: 'PayClaimFromFund' }>, state: FundState): FundEvent[] {
  const fund = existing(state);
  const reservation = fund.reservations[command.requestId];
  if (!reservation) throw new DomainError('conflict', 'NO_RESERVATION', FUND_MESSAGES.noReservation);
  if (reservation.claimedCents === 0) {
    if (reservation.paidCents > 0) return [];
    throw new DomainError('conflict', 'NOT_CLAIMED', FUND_MESSAGES.notClaimed);
  }
  return [
    {
      type: 'FundPaid.v1',
      data: {
        fundId: fund.id,
        requestId: command.requestId,
        claimId: command.claimId,
        organisationId: reservation.organisationId,
        amountCents: reservation.claimedCents,
      },
    },
  ];
}

function releaseReservation(command: Extract<FundCommand, { type: 'ReleaseReservation' }>, state: FundState): FundEvent[] {
  const fund = existing(state);
  const reservation = fund.reservations[command.requestId];
  // Nothing held (never reserved, already released or claimed): releasing again changes nothing, so the step runs exactly once however often it is tried.
  if (!reservation || reservation.reservedCents === 0) return [];
  return [
    {
      type: 'FundReservationReleased.v1',
      data: {
        fundId: fund.id,
        requestId: command.requestId,
        organisationId: reservation.organisationId,
        amountCents: reservation.reservedCents,
        reason: command.reason,
      },
    },
    ...expiredAfterClose(fund, reservation.organisationId, command.requestId, reservation.reservedCents),
  ];
}

function setAllocationsByRule(command: Extract<FundCommand, { type: 'SetAllocationsByRule' }>, state: FundState, metadata: CommandMetadata): FundEvent[] {
  requireAdmin(metadata);
  const fund = existing(state);
  requireOpen(fund);
  if (!Number.isInteger(command.percentBasisPoints) || command.percentBasisPoints <= 0 || command.percentBasisPoints > MAX_RULE_BASIS_POINTS)
    throw invalid('percent', FUND_MESSAGES.rulePercentInvalid);
  const measured = previousPeriod(fund.periodStart, fund.periodEnd);
  if (command.measuredFrom !== measured.from || command.measuredTo !== measured.to)
    throw new DomainError('conflict', 'CONFLICT', FUND_MESSAGES.ruleMeasuredElsewhere);
  const allocations = ruleAllocations(command.percentBasisPoints, command.purchases);
  if (!allocations.length) throw invalid('percent', FUND_MESSAGES.ruleNothingMeasured);
  const after = { ...fund.allocations, ...Object.fromEntries(allocations.map((a) => [a.organisationId, a.amountCents])) };
  if (allocatedTotal(after) > fund.budgetCents) throw invalid('percent', FUND_MESSAGES.allocationsAboveBudget);
  for (const allocation of allocations) {
    const balance = organisationBalance(fund, allocation.organisationId);
    const committed = balance.reservedCents + balance.claimedCents + balance.paidCents;
    if (allocation.amountCents < committed) throw invalid('percent', FUND_MESSAGES.allocationBelowCommitted(dollarsText(committed)));
  }
  const rule: AllocationRule = {
    kind: 'percent_of_purchases',
    percentBasisPoints: command.percentBasisPoints,
    measuredFrom: measured.from,
    measuredTo: measured.to,
  };
  return [{ type: 'FundAllocationsSetByRule.v1', data: { fundId: fund.id, rule, allocations } }];
}

/**
 * Closes the period: at its end (refused before the day after its last day), or early by an
 * administrator. Each organisation's available balance at that moment expires, recorded per
 * organisation. A second close is refused, so a close that runs twice (a job and a sweep, a restart)
 * records the expiry once.
 */
function closeFundPeriod(command: Extract<FundCommand, { type: 'CloseFundPeriod' }>, state: FundState, metadata: CommandMetadata): FundEvent[] {
  const fund = existing(state);
  if (command.reason === 'manual') requireAdmin(metadata);
  if (fund.status === 'closed') throw new DomainError('conflict', 'FUND_CLOSED', FUND_MESSAGES.alreadyClosed);
  if (command.reason === 'period_end' && Date.parse(metadata.now) < periodEndPassesAt(fund.periodEnd))
    throw new DomainError('conflict', 'PERIOD_NOT_ENDED', FUND_MESSAGES.periodNotEnded(fund.periodEnd));
  const organisations = [
    ...new Set([...Object.keys(fund.allocations), ...Object.values(fund.reservations).map((r) => r.organisationId), ...Object.keys(command.accruedCents)]),
  ].sort();
  const expired: FundEvent[] = organisations.flatMap((organisationId) => {
    const { availableCents } = organisationBalance(fund, organisationId, command.accruedCents[organisationId] ?? 0);
    return availableCents > 0
      ? [
          {
            type: 'FundAllocationExpired.v1' as const,
            data: { fundId: fund.id, organisationId, amountCents: availableCents, reason: 'period_closed' as const, requestId: null },
          },
        ]
      : [];
  });
  const expiredCents = expired.reduce((sum, e) => sum + (e.type === 'FundAllocationExpired.v1' ? e.data.amountCents : 0), 0);
  return [
    {
      type: 'FundPeriodClosed.v1',
      data: {
        fundId: fund.id,
        reason: command.reason,
        periodEnd: fund.periodEnd,
        closedAt: metadata.now,
        expiredCents,
        status: 'closed',
        previousStatus: 'open',
      },
    },
    ...expired,
  ];
}

export function decide(command: FundCommand, state: FundState, metadata: CommandMetadata): FundEvent[] {
  switch (command.type) {
    case 'CreateFund':
      return createFund(command, state, metadata);
    case 'UpdateFund':
      return updateFund(command, state, metadata);
    case 'SetAllocation':
      return setAllocation(command, state, metadata);
    case 'ReserveFunds':
      return reserveFunds(command, state);
    case 'ApproveClaimAgainstFund':
      return approveClaim(command, state);
    case 'PayClaimFromFund':
      return payClaim(command, state);
    case 'ReleaseReservation':
      return releaseReservation(command, state);
    case 'SetAllocationsByRule':
      return setAllocationsByRule(command, state, metadata);
    case 'CloseFundPeriod':
      return closeFundPeriod(command, state, metadata);
    default:
      return assertNever(command);
  }
}

const withReservation = (state: FundState, requestId: string, change: (r: Reservation) => Reservation): FundState => {
  if (state.status === 'none' || !state.reservations[requestId]) return state;
  return { ...state, reservations: { ...state.reservations, [requestId]: change(state.reservations[requestId]) } };
};

export function evolve(state: FundState, event: FundEvent): FundState {
  switch (event.type) {
    case 'FundCreated.v1': {
      const d = event.data;
      return {
        status: 'open',
        id: d.fundId,
        name: d.name,
        periodStart: d.periodStart,
        periodEnd: d.periodEnd,
        budgetCents: d.budgetCents,
        coopShareBasisPoints: d.coopShareBasisPoints,
        allocations: Object.fromEntries(d.allocations.map((a) => [a.organisationId, a.amountCents])),
        reservations: {},
        expired: {},
      };
    }
    case 'FundUpdated.v1': {
      if (state.status === 'none') return state;
      const { fundId: _fundId, ...definition } = event.data;
      return { ...state, ...definition };
    }
    case 'FundAllocationSet.v1':
      return state.status === 'none' ? state : { ...state, allocations: { ...state.allocations, [event.data.organisationId]: event.data.amountCents } };
    case 'FundReserved.v1':
      if (state.status === 'none') return state;
      return {
        ...state,
        reservations: {
          ...state.reservations,
          [event.data.requestId]: {
            organisationId: event.data.organisationId,
            reservedCents: event.data.amountCents,
            claimedCents: 0,
            paidCents: 0,
            releasedCents: 0,
          },
        },
      };
    case 'FundReservationClaimed.v1':
      return withReservation(state, event.data.requestId, (r) => ({
        ...r,
        reservedCents: 0,
        claimedCents: event.data.amountCents,
        releasedCents: r.releasedCents + event.data.releasedCents,
      }));
    case 'FundPaid.v1':
      return withReservation(state, event.data.requestId, (r) => ({ ...r, claimedCents: 0, paidCents: r.paidCents + event.data.amountCents }));
    case 'FundReservationReleased.v1':
      return withReservation(state, event.data.requestId, (r) => ({ ...r, reservedCents: 0, releasedCents: r.releasedCents + event.data.amountCents }));
    case 'FundAllocationsSetByRule.v1':
      return state.status === 'none'
        ? state
        : { ...state, allocations: { ...state.allocations, ...Object.fromEntries(event.data.allocations.map((a) => [a.organisationId, a.amountCents])) } };
    case 'FundPeriodClosed.v1':
      return state.status === 'none' ? state : { ...state, status: 'closed' };
    case 'FundAllocationExpired.v1':
      return state.status === 'none'
        ? state
        : { ...state, expired: { ...state.expired, [event.data.organisationId]: (state.expired[event.data.organisationId] ?? 0) + event.data.amountCents } };
    default:
      return assertNever(event);
  }
}

export const funds: Decider<FundState, FundCommand, FundEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `funds-${id}`,
};
