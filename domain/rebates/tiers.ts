/**
 * The rebate programme's tier ladder and the calendar quarter, in one place. Every figure the
 * Overview and Progress tabs show (quarter label, days remaining, rate, tier, target) is computed
 * here from the organisation's approved purchases and the moment given by the caller.
 */

export interface RebateTier {
  name: 'Bronze' | 'Silver' | 'Gold' | 'Platinum';
  /** Approved purchases within one calendar quarter that reach this tier, in cents. */
  quarterlyPurchasesCents: number;
  /** The share of a purchase paid back as rebate, in percent. */
  ratePercent: number;
}

export const REBATE_TIERS: readonly RebateTier[] = [
  { name: 'Bronze', quarterlyPurchasesCents: 0, ratePercent: 2 },
  { name: 'Silver', quarterlyPurchasesCents: 25_000_00, ratePercent: 3.5 },
  { name: 'Gold', quarterlyPurchasesCents: 75_000_00, ratePercent: 5 },
  { name: 'Platinum', quarterlyPurchasesCents: 150_000_00, ratePercent: 6.5 },
];

/** The tier a quarter's approved purchases reach (Bronze with none: spec 002 §9's default). */
export function tierFor(purchasesCents: number): RebateTier {
  return [...REBATE_TIERS].reverse().find((tier) => purchasesCents >= tier.quarterlyPurchasesCents) ?? REBATE_TIERS[0];
}

export function nextTierAfter(tier: RebateTier): RebateTier | null {
  return REBATE_TIERS[REBATE_TIERS.indexOf(tier) + 1] ?? null;
}

/** The rebate suggested to the reviewer: the purchase at the organisation's rate, rounded to the cent. */
export function suggestedRebateCents(purchaseCents: number, ratePercent: number): number {
  return Math.round((purchaseCents * ratePercent) / 100);
}

// ---- calendar quarters (UTC) ----

export interface Quarter {
  year: number;
  /** 1 to 4 */
  number: number;
  /** 'Q4 2026' */
  label: string;
  /** First day, YYYY-MM-DD. */
  start: string;
  /** Last day, YYYY-MM-DD. */
  end: string;
  /** The three months, 'YYYY-MM'. */
  months: [string, string, string];
}

const DAY_MS = 86_400_000;
const ymd = (year: number, monthIndex: number, day: number) => new Date(Date.UTC(year, monthIndex, day)).toISOString().slice(0, 10);

/** The calendar quarter (UTC) holding a moment or a YYYY-MM-DD date. */
export function quarterOf(moment: string | Date): Quarter {
  const date = typeof moment === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(moment) ? new Date(`${moment}T00:00:00.000Z`) : new Date(moment);
  const year = date.getUTCFullYear();
  const number = Math.floor(date.getUTCMonth() / 3) + 1;
  const firstMonth = (number - 1) * 3;
  const month = (offset: number) => ymd(year, firstMonth + offset, 1).slice(0, 7);
  return {
    year,
    number,
    label: `Q${number} ${year}`,
    start: ymd(year, firstMonth, 1),
    end: ymd(year, firstMonth + 3, 0),
    months: [month(0), month(1), month(2)],
  };
}

/** Days left in the quarter, today included: the quarter's last day has 1 day remaining. */
export function daysRemainingIn(quarter: Quarter, now: string | Date): number {
  const today = Date.parse(new Date(now).toISOString().slice(0, 10));
  return Math.max(0, Math.round((Date.parse(quarter.end) - today) / DAY_MS) + 1);
}

// ---- progress ----

export interface RebateProgress {
  quarter: Quarter;
  /** 'Q4 2026 Progress' */
  progressLabel: string;
  daysRemaining: number;
  purchasesCents: number;
  rebatesCents: number;
  currentTier: RebateTier;
  nextTier: RebateTier | null;
  /** The next tier's threshold; the top tier's own threshold once reached. */
  targetCents: number;
  /** Progress to the target, capped at 100 (spec 002 §9). */
  percentage: number;
  remainingToNextTierCents: number;
  ratePercent: number;
}

/** Where an organisation stands in the quarter holding `now`, from that quarter's approved purchases and rebates. */
export function rebateProgress(input: { now: string | Date; purchasesCents: number; rebatesCents: number }): RebateProgress {
  const quarter = quarterOf(input.now);
  const currentTier = tierFor(input.purchasesCents);
  const nextTier = nextTierAfter(currentTier);
  const targetCents = (nextTier ?? currentTier).quarterlyPurchasesCents;
  // Rounded down, so 100% (and the green bar) means the target is really reached.
  const percentage = targetCents === 0 ? 100 : Math.min(100, Math.floor((input.purchasesCents / targetCents) * 1000) / 10);
  return {
    quarter,
    progressLabel: `${quarter.label} Progress`,
    daysRemaining: daysRemainingIn(quarter, input.now),
    purchasesCents: input.purchasesCents,
    rebatesCents: input.rebatesCents,
    currentTier,
    nextTier,
    targetCents,
    percentage,
    remainingToNextTierCents: nextTier ? Math.max(0, nextTier.quarterlyPurchasesCents - input.purchasesCents) : 0,
    ratePercent: currentTier.ratePercent,
  };
}
