import type { RulePreview } from '../contracts/funds';
import { DomainError, fold, type CommandMetadata } from '../domain/decider';
import { FUND_CLAIM_MESSAGES, fundClaims, type FundClaimCommand, type FundClaimEvent, type FundClaimState } from '../domain/funds/claims';
import { FUND_MESSAGES, funds, organisationBalance, type FundEvent, type FundState } from '../domain/funds/funds';
import { FUND_REQUEST_MESSAGES, fundRequests, type FundRequestCommand, type FundRequestEvent, type FundRequestState } from '../domain/funds/requests';
import { accruedByOrganisation, accruedCents, companyNames, deliveredPurchases, type FundView } from '../projections/funds';
import { previousPeriod, ruleAllocations, type MeasuredPurchases, type RuleAllocation } from '../domain/funds/allocationRule';
import { tierInForceAt } from '../projections/programme';
import { type CloseReason } from '../domain/funds/funds';
import { asDomainEvents, comparePositions, type GlobalPosition } from '../platform/eventstore';
import type { Services } from '../platform/services';
import { checkCommand, handleCommand } from '../platform/commands/commandHandler';
import { runCommand, waitForReadModels } from '../platform/commands/dispatch';

/**
 * The steps of market development funds that span streams. The money is always moved on the fund's
 * stream, appended with the revision it read (handleCommand decides again on a conflict), so two
 * approvals racing for the last dollars cannot both reserve them. Every fund step is idempotent per
 * request, so a step retried after a crash moves no money twice.
 */

type Deps = Pick<Services, 'store' | 'watcher' | 'pool'>;

const latest = (positions: Array<GlobalPosition | undefined>) =>
  positions.reduce<GlobalPosition | undefined>((max, p) => (p && (!max || comparePositions(p, max) > 0) ? p : max), undefined);

export async function fundState(deps: Pick<Services, 'store'>, fundId: string): Promise<FundState> {
  return fold(funds, asDomainEvents<FundEvent>(await deps.store.readStream(funds.streamId(fundId))));
}
export async function requestState(deps: Pick<Services, 'store'>, requestId: string): Promise<FundRequestState> {
  return fold(fundRequests, asDomainEvents<FundRequestEvent>(await deps.store.readStream(fundRequests.streamId(requestId))));
}
export async function claimState(deps: Pick<Services, 'store'>, claimId: string): Promise<FundClaimState> {
  return fold(fundClaims, asDomainEvents<FundClaimEvent>(await deps.store.readStream(fundClaims.streamId(claimId))));
}

/** What a request is checked against: the organisation's balance in the fund as its stream shows it now, with its co-op accrual. */
export async function fundContext(deps: Deps, fundId: string, organisationId: string) {
  const fund = await fundState(deps, fundId);
  if (fund.status === 'none') return null;
  const balance = organisationBalance(fund, organisationId, await accruedCents(deps.pool, fundId, organisationId));
  return { availableCents: balance.availableCents, open: fund.status === 'open', periodStart: fund.periodStart, periodEnd: fund.periodEnd };
}

const fundNotFound = () => new DomainError('not_found', 'NOT_FOUND', FUND_MESSAGES.notFound);

/** Submits an activity request, checked against the organisation's balance in the fund as its stream shows it now. */
export async function submitFundRequest(
  deps: Deps,
  command: Omit<Extract<FundRequestCommand, { type: 'SubmitFundRequest' }>, 'type' | 'fund'>,
  metadata: CommandMetadata,
): Promise<void> {
  const fund = await fundContext(deps, command.fundId, command.organisationId);
  if (!fund) throw fundNotFound();
  await runCommand(deps, fundRequests, command.requestId, { type: 'SubmitFundRequest', ...command, fund }, metadata);
}

/** Resubmits a request whose changes were requested, checked against the organisation's balance in its fund now. */
export async function resubmitFundRequest(
  deps: Deps,
  request: { id: string; fundId: string; organisationId: string },
  command: Omit<Extract<FundRequestCommand, { type: 'ResubmitFundRequest' }>, 'type' | 'fund'>,
  metadata: CommandMetadata,
): Promise<void> {
  const fund = await fundContext(deps, request.fundId, request.organisationId);
  if (!fund) throw fundNotFound();
  await runCommand(deps, fundRequests, request.id, { type: 'ResubmitFundRequest', ...command, fund }, metadata);
}

/** Claims an approved request: the claim is checked against the request as its own stream shows it now (see submitFundClaim). */
export async function claimFundRequest(
  deps: Deps,
  command: Omit<Extract<FundClaimCommand, { type: 'SubmitFundClaim' }>, 'type' | 'request'>,
  metadata: CommandMetadata,
): Promise<void> {
  const request = await requestState(deps, command.requestId);
  if (request.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', FUND_REQUEST_MESSAGES.notFound);
  await submitFundClaim(
    deps,
    {
      type: 'SubmitFundClaim',
      ...command,
      request: { status: request.status, approvedAmountCents: request.approvedAmountCents, endDate: request.endDate, claimDeadline: request.claimDeadline },
    },
    metadata,
  );
}

/**
 * Reviews a request. An approval first reserves the amount on the fund's stream (refused beyond the
 * organisation's available balance), then approves the request; if the approval is refused, the
 * reservation is given back.
 */
export async function reviewFundRequest(
  deps: Deps,
  requestId: string,
  review: { decision: string; approvedAmountCents: number | null; note: string | null; claimWindowDays: number },
  metadata: CommandMetadata,
): Promise<void> {
  const command = { type: 'ReviewFundRequest' as const, ...review };
  if (review.decision !== 'approved') {
    const result = await handleCommand(deps.store, fundRequests, requestId, command, metadata);
    await waitForReadModels(deps, result.position);
    return;
  }
  // The request's own rules first (status, amount ≤ requested): nothing is reserved for an approval that cannot happen.
  await checkCommand(deps.store, fundRequests, requestId, command, metadata);
  const request = await requestState(deps, requestId);
  if (request.status === 'none') return;
  const reserved = await handleCommand(
    deps.store,
    funds,
    request.fundId,
    {
      type: 'ReserveFunds',
      requestId,
      organisationId: request.organisationId,
      amountCents: review.approvedAmountCents ?? 0,
      accruedCents: await accruedCents(deps.pool, request.fundId, request.organisationId),
    },
    metadata,
  );
  try {
    const approved = await handleCommand(deps.store, fundRequests, requestId, command, metadata);
    await waitForReadModels(deps, latest([reserved.position, approved.position]));
  } catch (error) {
    const released = await handleCommand(deps.store, funds, request.fundId, { type: 'ReleaseReservation', requestId, reason: 'request_withdrawn' }, metadata);
    await waitForReadModels(deps, released.position);
    throw error;
  }
}

/** Submits a claim: the claim's rules first, then the request is marked claimed (which refuses a second claim and a claim after the release), then the claim is recorded. */
export async function submitFundClaim(deps: Deps, command: Extract<FundClaimCommand, { type: 'SubmitFundClaim' }>, metadata: CommandMetadata): Promise<void> {
  await checkCommand(deps.store, fundClaims, command.claimId, command, metadata);
  const marked = await handleCommand(deps.store, fundRequests, command.requestId, { type: 'MarkFundRequestClaimed', claimId: command.claimId }, metadata);
  const submitted = await handleCommand(deps.store, fundClaims, command.claimId, command, metadata);
  await waitForReadModels(deps, latest([marked.position, submitted.position]));
}

/** Reviews a claim. Approval moves the paid amount from reserved to claimed in the fund (the rest is released); rejection releases the reservation. */
export async function reviewFundClaim(
  deps: Deps,
  claimId: string,
  review: { decision: string; paidAmountCents: number | null; reason: string | null },
  metadata: CommandMetadata,
): Promise<void> {
  const command = { type: 'ReviewFundClaim' as const, ...review };
  await checkCommand(deps.store, fundClaims, claimId, command, metadata);
  const claim = await claimState(deps, claimId);
  if (claim.status === 'none') return;
  const positions: Array<GlobalPosition | undefined> = [];
  if (review.decision === 'approved') {
    positions.push(
      (
        await handleCommand(
          deps.store,
          funds,
          claim.fundId,
          { type: 'ApproveClaimAgainstFund', requestId: claim.requestId, claimId, amountCents: review.paidAmountCents ?? 0 },
          metadata,
        )
      ).position,
    );
  }
  positions.push((await handleCommand(deps.store, fundClaims, claimId, command, metadata)).position);
  if (review.decision === 'rejected') {
    positions.push(
      (await handleCommand(deps.store, funds, claim.fundId, { type: 'ReleaseReservation', requestId: claim.requestId, reason: 'claim_rejected' }, metadata))
        .position,
    );
  }
  await waitForReadModels(deps, latest(positions));
}

/** Records a claim's payout (refused twice), then moves its money from claimed to paid in the fund. */
export async function recordFundPayout(
  deps: Deps,
  claimId: string,
  payout: { reference: string; paidAt: string; method: string },
  metadata: CommandMetadata,
): Promise<void> {
  if ((await claimState(deps, claimId)).status === 'none') throw new DomainError('not_found', 'NOT_FOUND', FUND_CLAIM_MESSAGES.notFound);
  const paid = await handleCommand(deps.store, fundClaims, claimId, { type: 'RecordFundPayout', ...payout }, metadata);
  const claim = paid.state;
  if (claim.status === 'none') return;
  const moved = await handleCommand(deps.store, funds, claim.fundId, { type: 'PayClaimFromFund', requestId: claim.requestId, claimId }, metadata);
  await waitForReadModels(deps, latest([paid.position, moved.position]));
}

/**
 * The claim deadline: releases the request (refused before the deadline; nothing when it was claimed
 * or already released), then gives its reservation back to the fund (nothing when nothing is held).
 * Both steps change nothing the second time, so the release happens exactly once however often this runs.
 */
export async function releaseLapsedRequest(deps: Deps, requestId: string, metadata: CommandMetadata): Promise<'released' | 'kept'> {
  const request = await requestState(deps, requestId);
  if (request.status === 'none') return 'kept';
  const marked = await handleCommand(deps.store, fundRequests, requestId, { type: 'ReleaseFundRequest' }, metadata);
  if (marked.state.status !== 'released') return 'kept';
  const released = await handleCommand(deps.store, funds, request.fundId, { type: 'ReleaseReservation', requestId, reason: 'deadline' }, metadata);
  await waitForReadModels(deps, latest([marked.position, released.position]));
  return released.events.length ? 'released' : 'kept';
}

/**
 * Closes a fund period (at its end by the worker, or early by an administrator): each organisation's
 * available balance, its co-op accrual as the read model shows it included, expires. A second close
 * is refused by the fund's decider.
 */
export async function closeFundPeriod(deps: Deps, fundId: string, reason: CloseReason, metadata: CommandMetadata): Promise<void> {
  const result = await handleCommand(
    deps.store,
    funds,
    fundId,
    { type: 'CloseFundPeriod', reason, accruedCents: await accruedByOrganisation(deps.pool, fundId) },
    metadata,
  );
  await waitForReadModels(deps, result.position);
}

/** What a rule would give: the measured period, each organisation's delivered purchases in it and its allocation by the rule (the decider's own definition). */
export async function allocationRuleMeasure(
  deps: Deps,
  fund: FundState,
  percentBasisPoints: number,
  at: string,
): Promise<{ from: string; to: string; purchases: MeasuredPurchases[]; allocations: RuleAllocation[] }> {
  if (fund.status === 'none') return { from: '', to: '', purchases: [], allocations: [] };
  const { from, to } = previousPeriod(fund.periodStart, fund.periodEnd);
  // Each organisation's MDF share is that of its tier in force when the rule is applied.
  const purchases: MeasuredPurchases[] = await Promise.all(
    (await deliveredPurchases(deps.pool, from, to)).map(async (p) => {
      const tier = await tierInForceAt(deps.pool, p.organisationId, at);
      return tier ? { ...p, share: { tierId: tier.id, tierName: tier.name, percent: tier.benefits.mdf_share_percent } } : p;
    }),
  );
  return { from, to, purchases, allocations: ruleAllocations(percentBasisPoints, purchases) };
}

/** Sets the allocations by the rule, measured now; the fund's decider checks the budget and what each organisation already holds. */
export async function setAllocationsByRule(deps: Deps, fundId: string, percentBasisPoints: number, metadata: CommandMetadata): Promise<void> {
  const fund = await fundState(deps, fundId);
  const measured = await allocationRuleMeasure(deps, fund, percentBasisPoints, metadata.now);
  const result = await handleCommand(
    deps.store,
    funds,
    fundId,
    { type: 'SetAllocationsByRule', percentBasisPoints, measuredFrom: measured.from, measuredTo: measured.to, purchases: measured.purchases },
    metadata,
  );
  await waitForReadModels(deps, result.position);
}

/**
 * What setting the allocations by a rule would give now, as setAllocationsByRule measures it: each
 * measured organisation's purchases, current and new allocation (with its tier's MDF share), and
 * whether the allocations then fit the budget (organisations without purchases keep theirs).
 */
export async function previewAllocationRule(deps: Deps, fund: FundView, percent: number, at: string): Promise<RulePreview> {
  const measured = await allocationRuleMeasure(deps, await fundState(deps, fund.id), Math.round(percent * 100), at);
  const names = await companyNames(
    deps.pool,
    measured.allocations.map((a) => a.organisationId),
  );
  const current = Object.fromEntries(fund.allocations.map((a) => [a.organisation_id, a]));
  const allocations = measured.allocations.map((a) => ({
    organisation_id: a.organisationId,
    company_name: names[a.organisationId] ?? null,
    purchases: a.purchasesCents / 100,
    current: current[a.organisationId]?.amount ?? 0,
    amount: a.amountCents / 100,
    mdf_share_percent: a.share?.percent ?? 100,
    tier: a.share?.tierName ?? null,
  }));
  const ruleIds = new Set(allocations.map((a) => a.organisation_id));
  const keptCents = fund.allocations.filter((a) => !ruleIds.has(a.organisation_id)).reduce((sum, a) => sum + Math.round(a.amount * 100), 0);
  const totalCents = keptCents + measured.allocations.reduce((sum, a) => sum + a.amountCents, 0);
  return {
    fund_id: fund.id,
    rule: { kind: 'percent_of_purchases', percent },
    measured_from: measured.from,
    measured_to: measured.to,
    allocations,
    total_allocated: totalCents / 100,
    budget: fund.budget,
    within_budget: totalCents <= Math.round(fund.budget * 100),
  };
}
