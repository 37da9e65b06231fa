/**
 * Allocations by a rule: the one definition of what a rule gives each organisation, used by the
 * preview an administrator sees and by the fund's decider when the allocations are set.
 *
 * The rule so far: a percentage of the organisation's delivered purchases in the previous period of
 * the same length (the days just before the fund's period starts, as many as the period has).
 * Each organisation's amount is then multiplied by its programme tier's MDF share (in force when the
 * rule is applied, recorded with the allocation). Other rules plug in as another `kind` with its own
 * measure, the same preview and the same event.
 */

export const ALLOCATION_RULE_KINDS = ['percent_of_purchases'] as const;
export type AllocationRuleKind = (typeof ALLOCATION_RULE_KINDS)[number];

/** 100% in basis points: a rule gives at most the purchases themselves. */
export const MAX_RULE_BASIS_POINTS = 10_000;

export interface AllocationRule {
  kind: AllocationRuleKind;
  /** The percentage in basis points (1/100 of a percent). */
  percentBasisPoints: number;
  /** The measured period, both days included. */
  measuredFrom: string;
  measuredTo: string;
}

/** The organisation's programme tier when the rule is applied, and the share of the rule's amount it gives. */
export interface MdfShare {
  tierId: string;
  tierName: string;
  percent: number;
}

export interface MeasuredPurchases {
  organisationId: string;
  /** Delivered purchases in the measured period, in cents. */
  purchasesCents: number;
  /** Absent for an organisation without a programme tier (and in allocations set before tiers applied): 100 %. */
  share?: MdfShare;
}

export interface RuleAllocation extends MeasuredPurchases {
  amountCents: number;
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/**
 * The period of the same length just before `periodStart`..`periodEnd` (days included). A period of
 * whole calendar months (a quarter, a half, a year) is measured against as many whole months before
 * it (Q1 against the previous Q4); any other period against as many days before it.
 */
export function previousPeriod(periodStart: string, periodEnd: string): { from: string; to: string } {
  const start = new Date(msOf(periodStart));
  const afterEnd = new Date(msOf(periodEnd) + DAY_MS);
  if (start.getUTCDate() === 1 && afterEnd.getUTCDate() === 1) {
    const months = (afterEnd.getUTCFullYear() - start.getUTCFullYear()) * 12 + afterEnd.getUTCMonth() - start.getUTCMonth();
    return { from: dayOf(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - months, 1)), to: dayOf(msOf(periodStart) - DAY_MS) };
  }
  const days = Math.round((msOf(periodEnd) - msOf(periodStart)) / DAY_MS) + 1;
  return { from: dayOf(msOf(periodStart) - days * DAY_MS), to: dayOf(msOf(periodStart) - DAY_MS) };
}

/**
 * What the rule gives for these purchases: the percentage, times the tier's MDF share, rounded down to
 * the cent (once, so a share of 100 % gives exactly the rule's amount).
 */
export const ruleAmountCents = (purchasesCents: number, percentBasisPoints: number, sharePercent = 100) =>
  sharePercent === 100
    ? Math.floor((purchasesCents * percentBasisPoints) / 10_000)
    : Math.floor((purchasesCents * percentBasisPoints * sharePercent) / 1_000_000);

/** The allocations a rule gives: one per organisation with delivered purchases in the measured period, largest first. */
export function ruleAllocations(percentBasisPoints: number, purchases: readonly MeasuredPurchases[]): RuleAllocation[] {
  return purchases
    .filter((p) => p.purchasesCents > 0)
    .map((p) => ({
      organisationId: p.organisationId,
      purchasesCents: p.purchasesCents,
      ...(p.share ? { share: p.share } : {}),
      amountCents: ruleAmountCents(p.purchasesCents, percentBasisPoints, p.share?.percent ?? 100),
    }))
    .sort((a, b) => b.amountCents - a.amountCents || a.organisationId.localeCompare(b.organisationId));
}
