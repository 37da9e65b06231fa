import { z } from 'zod';
import { listAnswer } from './answers';
import { tierRefSchema } from './programme';

/**
 * Scorecards: one row per organisation and quarter, built by the programme projection from the
 * orders, projects, rebates, funds, leads and tickets read models, ranked within the quarter.
 *
 * Routes (all under /api):
 * - GET /scorecards                  admins and manufacturers: every organisation's row for a quarter
 *                                    (default the current one), sortable, filters `tier`, `category`,
 *                                    `region`, `q`, `quarter`; `?format=csv` for CSV. Partners: only their own
 *                                    row, with `rank` null and every other organisation's figures absent — `scorecardListAnswer`
 * - GET /scorecards/:organisationId  same callers (a partner only its own): the quarter-by-quarter history
 *                                    with sparkline series — `scorecardDetailAnswer`
 * Money is in cents; rates are percentages (null when there is nothing to divide by).
 */

export const RANK_BANDS = ['top_10', 'top_25', 'top_50', 'lower_half'] as const;
export type RankBand = (typeof RANK_BANDS)[number];
export const RANK_BAND_LABELS: Record<RankBand, string> = { top_10: 'Top 10 %', top_25: 'Top quarter', top_50: 'Top half', lower_half: 'Lower half' };

export const scorecardSchema = z.object({
  /** The organisation's id (a list shows one quarter, so it names the row). */
  id: z.string(),
  organisation_id: z.string(),
  organisation_name: z.string(),
  category: z.string().nullable(),
  region: z.string().nullable(),
  tier: tierRefSchema.nullable(),
  /** '2026-Q4' */
  quarter: z.string(),
  /** 'Q4 2026' */
  quarter_label: z.string(),
  revenue_cents: z.number().int(),
  previous_revenue_cents: z.number().int(),
  growth_percent: z.number().nullable(),
  deals_registered: z.number().int(),
  deals_approved: z.number().int(),
  deals_won: z.number().int(),
  deals_lost: z.number().int(),
  /** Won of decided (won + lost). */
  win_rate_percent: z.number().nullable(),
  avg_days_to_first_order: z.number().nullable(),
  rebates_approved_cents: z.number().int(),
  rebates_claimed_cents: z.number().int(),
  /** Approved of claimed rebates. */
  rebate_attainment_percent: z.number().nullable(),
  mdf_spent_cents: z.number().int(),
  mdf_revenue_cents: z.number().int(),
  mdf_roi_percent: z.number().nullable(),
  leads_received: z.number().int(),
  leads_accepted: z.number().int(),
  leads_converted: z.number().int(),
  lead_acceptance_percent: z.number().nullable(),
  lead_conversion_percent: z.number().nullable(),
  open_tickets: z.number().int(),
  overdue_tickets: z.number().int(),
  /** People of the organisation holding a valid certification at any time in the quarter. */
  certified_people: z.number().int(),
  /** 0–100, the rule in docs/decisions.md ("Partner programme"). */
  score: z.number(),
  /** Place within the quarter (1 is best); null for partners, who see only their band. */
  rank: z.number().int().nullable(),
  ranked_organisations: z.number().int().nullable(),
  rank_band: z.enum(RANK_BANDS),
  /** Directory rating from the score: 1–5 stars, null with no activity in the quarter. */
  rating: z.number().nullable(),
  /** Revenue of the last (up to) eight quarters, oldest first, ending with this one: the sparkline. */
  trend: z.array(z.number().int()),
  updated_at: z.string(),
});
export type Scorecard = z.infer<typeof scorecardSchema>;

export const scorecardListAnswer = listAnswer('scorecards', scorecardSchema);

export const scorecardDetailSchema = z.object({
  id: z.string(),
  organisation_id: z.string(),
  organisation_name: z.string(),
  /** The latest quarter's row. */
  current: scorecardSchema.nullable(),
  /** Every quarter with activity, oldest first. */
  history: z.array(scorecardSchema),
  /** Series over `history` for charts: one number per quarter. */
  sparklines: z.object({
    quarters: z.array(z.string()),
    revenue_cents: z.array(z.number().int()),
    score: z.array(z.number()),
    deals_won: z.array(z.number().int()),
    win_rate_percent: z.array(z.number().nullable()),
  }),
});
export type ScorecardDetail = z.infer<typeof scorecardDetailSchema>;
export const scorecardDetailAnswer = scorecardDetailSchema.extend({ success: z.literal(true), data: scorecardDetailSchema });
