/**
 * Return on a marketing activity, from the portal's own records: its pipeline is the value of the deal
 * registrations that name it, its revenue the delivered orders linked to those deals, and its return
 * the revenue per dollar paid out for it. Nothing paid yet: no return to speak of (null), not infinity.
 */
export interface ActivityOutcome {
  deals: number;
  pipelineCents: number;
  revenueCents: number;
  paidCents: number;
}

/** ROI = revenue / paid amount, to two decimals (3.5 means $3.50 of delivered orders per dollar paid). */
export const returnOnInvestment = (revenueCents: number, paidCents: number): number | null =>
  paidCents > 0 ? Math.round((revenueCents / paidCents) * 100) / 100 : null;

/** The statuses of a request a deal may name: approved, and approved then claimed. */
export const ACTIVITY_STATUSES_FOR_DEALS = ['approved', 'claimed'] as const;
