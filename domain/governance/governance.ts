/**
 * Partnership governance: the figures of the four tabs (agreement, order process, account team,
 * rebate programme), computed from an organisation's own records. Pure: the moment comes in as `now`.
 */

import { nextTierAfter, quarterOf, REBATE_TIERS, tierFor, type RebateTier } from '../rebates/tiers';

/** The display statuses the governance screens use (spec 002, Partnership governance). */
export type GovernanceStatus =
  | 'Active'
  | 'Expired'
  | 'Processing'
  | 'Pending Approval'
  | 'Delivered'
  | 'Completed'
  | 'Pending'
  | 'Upcoming'
  | 'Shipped'
  | 'Cancelled'
  | 'Rejected'
  | 'Inactive';

// ---- agreement ----

/** An agreement runs for a year from its approval and renews on each anniversary. */
export const AGREEMENT_TERM_MONTHS = 12;

function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, lastDay));
  return target.toISOString().slice(0, 10);
}

export interface AgreementTerm {
  /** Start of the current term, YYYY-MM-DD. */
  termStart: string;
  /** The next renewal: the first anniversary of the approval after today. */
  renewalDate: string;
  daysToRenewal: number;
}

/** The current term of an agreement approved on `approvedOn`, as of `now`. */
export function agreementTerm(approvedOn: string, now: string | Date): AgreementTerm {
  const today = new Date(now).toISOString().slice(0, 10);
  let termStart = approvedOn.slice(0, 10);
  let renewalDate = addMonths(termStart, AGREEMENT_TERM_MONTHS);
  while (renewalDate <= today) {
    termStart = renewalDate;
    renewalDate = addMonths(termStart, AGREEMENT_TERM_MONTHS);
  }
  return { termStart, renewalDate, daysToRenewal: Math.round((Date.parse(renewalDate) - Date.parse(today)) / 86_400_000) };
}

/** The agreement's status from the application's (or, without one, the account's). */
export function agreementStatus(input: { applicationStatus: string | null; accountActive: boolean }): GovernanceStatus {
  if (!input.accountActive) return 'Expired';
  switch (input.applicationStatus) {
    case null:
    case 'approved':
      return 'Active';
    case 'rejected':
      return 'Rejected';
    default:
      return 'Pending Approval';
  }
}

// ---- orders ----

const ORDER_DISPLAY: Readonly<Record<string, GovernanceStatus>> = {
  pending: 'Pending Approval',
  approved: 'Processing',
  processing: 'Processing',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

export const orderGovernanceStatus = (status: string): GovernanceStatus => ORDER_DISPLAY[status] ?? 'Pending';

// ---- rebate programme ----

export interface QuarterPlan {
  label: string;
  start: string;
  end: string;
  /** The tier the quarter is measured against: the one above the tier of the quarter before. */
  targetTier: RebateTier['name'];
  targetCents: number;
  purchasesCents: number;
  rebatesCents: number;
  /** Capped at 100. */
  percentage: number;
  reachedTier: RebateTier['name'];
  status: GovernanceStatus;
}

export interface RebateProgramme {
  year: number;
  annualTargetCents: number;
  annualPurchasesCents: number;
  annualRebatesCents: number;
  annualPercentage: number;
  currentTier: RebateTier;
  quarters: QuarterPlan[];
  ladder: readonly RebateTier[];
}

const percentOf = (part: number, whole: number) => (whole <= 0 ? 100 : Math.min(100, Math.floor((part / whole) * 1000) / 10));

/** The target a quarter is measured against, given the purchases of the quarter before: the next tier up (the top tier keeps its own). */
function targetAfter(previousPurchasesCents: number): RebateTier {
  const reached = tierFor(previousPurchasesCents);
  return nextTierAfter(reached) ?? reached;
}

/**
 * The year's plan: four quarterly targets on the rebate ladder, each the tier above the one the
 * quarter before reached (upcoming quarters assume the current quarter's standing), with the
 * approved purchases and rebates of each quarter.
 * `byQuarter` holds approved purchases and rebates keyed 'YYYY-Qn', the previous year's Q4 included.
 */
export function rebateProgramme(now: string | Date, byQuarter: Record<string, { purchasesCents: number; rebatesCents: number }>): RebateProgramme {
  const current = quarterOf(now);
  const year = current.year;
  const figures = (key: string) => byQuarter[key] ?? { purchasesCents: 0, rebatesCents: 0 };
  const quarters: QuarterPlan[] = [];
  let previous = figures(`${year - 1}-Q4`).purchasesCents;
  for (let n = 1; n <= 4; n += 1) {
    const quarter = quarterOf(`${year}-${String((n - 1) * 3 + 1).padStart(2, '0')}-01`);
    const own = figures(`${year}-Q${n}`);
    const target = targetAfter(previous);
    const status: GovernanceStatus = n < current.number ? 'Completed' : n === current.number ? 'Active' : 'Upcoming';
    quarters.push({
      label: quarter.label,
      start: quarter.start,
      end: quarter.end,
      targetTier: target.name,
      targetCents: target.quarterlyPurchasesCents,
      purchasesCents: own.purchasesCents,
      rebatesCents: own.rebatesCents,
      percentage: percentOf(own.purchasesCents, target.quarterlyPurchasesCents),
      reachedTier: tierFor(own.purchasesCents).name,
      status,
    });
    // Upcoming quarters are planned from where the current quarter stands.
    if (n <= current.number) previous = own.purchasesCents;
  }
  const annualTargetCents = quarters.reduce((sum, q) => sum + q.targetCents, 0);
  const annualPurchasesCents = quarters.reduce((sum, q) => sum + q.purchasesCents, 0);
  return {
    year,
    annualTargetCents,
    annualPurchasesCents,
    annualRebatesCents: quarters.reduce((sum, q) => sum + q.rebatesCents, 0),
    annualPercentage: percentOf(annualPurchasesCents, annualTargetCents),
    currentTier: tierFor(figures(`${year}-Q${current.number}`).purchasesCents),
    quarters,
    ladder: REBATE_TIERS,
  };
}
