import { z } from 'zod';
import { parsePriceCents } from '../domain/money';
import { ALLOCATION_RULE_KINDS } from '../domain/funds/allocationRule';
import { FUND_CLAIM_DECISIONS, FUND_CLAIM_STATUSES, PAYOUT_METHODS } from '../domain/funds/claims';
import { CLOSE_REASONS, FUND_STATUSES } from '../domain/funds/funds';
import { FUND_REQUEST_DECISIONS, FUND_REQUEST_STATUSES } from '../domain/funds/requests';
import { asOfRecordAnswer, createdAnswers, listAnswer, recordAnswer, statusHistoryAnswer } from './answers';

/**
 * Market development funds: fund periods with each organisation's allocation (and co-op accrual),
 * the activity requests that reserve money from them, and the claims (with proof) that are paid out.
 *
 * Who: admins create and change funds, review requests and claims and record payouts; an organisation
 * sees the funds that allocate to it with its own figures only, and its own requests and claims.
 * Money is in dollars (numbers with at most 2 decimals); dates are YYYY-MM-DD, moments ISO 8601.
 *
 * Routes (all under /api):
 * - GET    /funds                               funds with their allocations                      -> fundListAnswer
 * - GET    /funds/balance                       balance per fund and in total                     -> balanceAnswer
 * - POST   /funds                               admins: createFundBody                            -> fundCreatedAnswers
 * - GET    /funds/:id                           one fund (asOf: as it was then)                   -> fundAnswer
 * - PUT    /funds/:id                           admins: updateFundBody                            -> fundRecordAnswer
 * - POST   /funds/:id/allocations               admins: allocationBody                            -> fundRecordAnswer
 * - POST   /funds/:id/close                     admins: closeBody                                 -> fundRecordAnswer
 * - GET    /funds/:id/allocation-rule           admins: ruleQuery, a preview                      -> rulePreviewAnswer
 * - POST   /funds/:id/allocation-rule           admins: ruleBody                                  -> fundRecordAnswer
 * - GET    /funds/:id/history                   status history                                    -> statusHistoryAnswer
 * - POST   /fund-requests                       multipart requestFields + attachments             -> fundRequestCreatedAnswers
 * - GET    /fund-requests                       requests, oldest first                            -> fundRequestListAnswer
 * - GET    /fund-requests/export                CSV (text/csv)
 * - GET    /fund-requests/:id                   one request (asOf: as it was then)                -> fundRequestAnswer
 * - PUT    /fund-requests/:id                   multipart resubmitFields + attachments            -> fundRequestRecordAnswer
 * - POST   /fund-requests/:id/review            admins: requestReviewBody                         -> fundRequestRecordAnswer
 * - GET    /fund-requests/:id/history           status history                                    -> statusHistoryAnswer
 * - GET    /fund-requests/:id/attachments/:name the stored file
 * - POST   /fund-claims                         multipart claimFields + proof                     -> fundClaimCreatedAnswers
 * - GET    /fund-claims                         claims, oldest first                              -> fundClaimListAnswer
 * - GET    /fund-claims/export                  CSV (text/csv)
 * - GET    /fund-claims/:id                     one claim (asOf: as it was then)                  -> fundClaimAnswer
 * - POST   /fund-claims/:id/proof               multipart proof files                             -> fundClaimRecordAnswer
 * - POST   /fund-claims/:id/review              admins: claimReviewBody                           -> fundClaimRecordAnswer
 * - POST   /fund-claims/:id/payout              admins: payoutBody                                -> fundClaimRecordAnswer
 * - GET    /fund-claims/:id/history             status history                                    -> statusHistoryAnswer
 * - GET    /fund-claims/:id/proof/:name         the stored file
 */

export { FUND_STATUSES, FUND_REQUEST_STATUSES, FUND_CLAIM_STATUSES, PAYOUT_METHODS };

const AMOUNT_MESSAGE = 'Amounts are numbers with at most 2 decimals, for example 1250.00.';

/** Dollars as text (multipart) → cents; empty → NaN, which the decider refuses with its own message. */
const amountText = z
  .string()
  .max(40)
  .transform((text, ctx) => {
    if (!text.trim()) return Number.NaN;
    const cents = parsePriceCents(text);
    if (cents === undefined) {
      ctx.addIssue({ code: 'custom', message: AMOUNT_MESSAGE });
      return z.NEVER;
    }
    return cents;
  });
/** Dollars as a JSON number or text → cents. */
const amount = z.union([z.number(), z.string().max(40)]).transform((value, ctx) => {
  const cents =
    typeof value === 'number'
      ? Number.isFinite(value) && value >= 0 && value < 1e9 && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6
        ? Math.round(value * 100)
        : undefined
      : parsePriceCents(value);
  if (cents === undefined) {
    ctx.addIssue({ code: 'custom', message: AMOUNT_MESSAGE });
    return z.NEVER;
  }
  return cents;
});
const wholeText = (label: string) =>
  z
    .string()
    .max(12)
    .transform((text, ctx) => {
      if (!text.trim()) return 0;
      if (!/^\d{1,9}$/.test(text.trim())) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a whole number of at least 0.` });
        return z.NEVER;
      }
      return Number(text.trim());
    });
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dateField = (label: string) => z.string().regex(DAY, `${label} must be a date (YYYY-MM-DD).`);

// ---- funds: bodies and queries ----

const allocation = z.object({ organisation_id: z.uuid({ error: 'Organisation id is not valid.' }), amount }).strict();
const fundFields = {
  name: z.string().max(200),
  period_start: dateField('Period start'),
  period_end: dateField('Period end'),
  budget: amount,
  /** Co-op accrual: the percentage of each delivered order's value that accrues to the organisation (0 = none). */
  coop_share_percent: z.number().min(0).max(100).multipleOf(0.01).optional().default(0),
};
export const createFundBody = z
  .object({ ...fundFields, allocations: z.array(allocation).max(500).optional().default([]) })
  .strict()
  .meta({
    example: { name: 'FY27 H1 Marketing Fund', period_start: '2026-10-01', period_end: '2027-03-31', budget: 250000, coop_share_percent: 2, allocations: [] },
  });
/** The fund's fields; what react-admin's edit form sends back unchanged (the read-only fields and the envelope) is ignored. */
export const updateFundBody = z
  .object({
    ...fundFields,
    id: z.unknown().optional(),
    allocations: z.unknown().optional(),
    totals: z.unknown().optional(),
    status: z.unknown().optional(),
    utilisation_percent: z.unknown().optional(),
    created_at: z.unknown().optional(),
    updated_at: z.unknown().optional(),
    success: z.unknown().optional(),
    data: z.unknown().optional(),
    message: z.unknown().optional(),
  })
  .strict()
  .meta({ example: { name: 'FY27 H1 Marketing Fund', period_start: '2026-10-01', period_end: '2027-03-31', budget: 260000, coop_share_percent: 2 } });
const percentField = z
  .number({ error: 'The percentage must be a number.' })
  .gt(0, 'The percentage must be greater than 0 and at most 100.')
  .max(100, 'The percentage must be greater than 0 and at most 100.')
  .multipleOf(0.01, 'The percentage has at most 2 decimals.');
const ruleKind = z
  .enum(ALLOCATION_RULE_KINDS, { error: `The rule must be one of: ${ALLOCATION_RULE_KINDS.join(', ')}.` })
  .optional()
  .default('percent_of_purchases');
export const ruleBody = z
  .object({ kind: ruleKind, percent: percentField })
  .strict()
  .meta({ example: { kind: 'percent_of_purchases', percent: 5 } });
export const ruleQuery = z.object({ kind: ruleKind, percent: z.coerce.number({ error: 'The percentage must be a number.' }).pipe(percentField) }).strict();
export const closeBody = z.object({}).strict().meta({ example: {} });
export const allocationBody = allocation.meta({ example: { organisation_id: '00000000-0000-4000-8000-000000000001', amount: 12000 } });

// ---- requests and claims: bodies (multipart text fields for the submissions) ----

/** The text fields of POST /fund-requests (multipart, beside up to 5 `attachments`). */
export const requestFields = z
  .object({
    fund_id: z.uuid({ error: 'Fund id is not valid.' }),
    activity_type: z.string().max(60).optional().default(''),
    title: z.string().max(400).optional().default(''),
    description: z.string().max(8000).optional().default(''),
    start_date: z.string().max(40).optional().default(''),
    end_date: z.string().max(40).optional().default(''),
    planned_cost: amountText.optional().default(Number.NaN),
    requested_amount: amountText.optional().default(Number.NaN),
    expected_leads: wholeText('Expected leads').optional().default(0),
  })
  .strict();
/** The text fields of PUT /fund-requests/:id (multipart, beside more `attachments`). */
export const resubmitFields = requestFields.omit({ fund_id: true });

export const requestReviewBody = z
  .object({
    decision: z.enum(FUND_REQUEST_DECISIONS, { error: `Decision must be one of: ${FUND_REQUEST_DECISIONS.join(', ')}.` }),
    approved_amount: amount.nullable().optional(),
    note: z.string().max(2000).nullable().optional(),
  })
  .strict()
  .meta({ example: { decision: 'approved', approved_amount: 2000, note: 'Approved without travel costs' } });

/** The text fields of POST /fund-claims (multipart, beside up to 10 `proof` files). */
export const claimFields = z
  .object({
    request_id: z.uuid({ error: 'Request id is not valid.' }),
    actual_cost: amountText.optional().default(Number.NaN),
    claimed_amount: amountText.optional().default(Number.NaN),
    leads_generated: wholeText('Leads generated').optional().default(0),
  })
  .strict();
/** POST /fund-claims/:id/proof sends files only. */
export const proofFields = z.object({}).strict();

export const claimReviewBody = z
  .object({
    decision: z.enum(FUND_CLAIM_DECISIONS, { error: `Decision must be one of: ${FUND_CLAIM_DECISIONS.join(', ')}.` }),
    paid_amount: amount.nullable().optional(),
    reason: z.string().max(2000).nullable().optional(),
  })
  .strict()
  .meta({ example: { decision: 'approved', paid_amount: 1900, reason: null } });

export const payoutBody = z
  .object({
    reference: z.string().max(200),
    paid_at: dateField('Payout date'),
    method: z.enum(PAYOUT_METHODS, { error: `Payout method must be one of: ${PAYOUT_METHODS.join(', ')}.` }),
  })
  .strict()
  .meta({ example: { reference: 'PAY-2026-0042', paid_at: '2026-11-25', method: 'bank_transfer' } });

// ---- answers ----

const timestamp = z.string().meta({ description: 'ISO 8601 date and time' });
const day = z.string().meta({ description: 'YYYY-MM-DD' });

/** One organisation's (or a total's) money in a fund, in dollars (domain/funds/balance.ts). */
export const balanceSchema = z.object({
  allocated: z.number(),
  accrued: z.number(),
  reserved: z.number(),
  claimed: z.number(),
  paid: z.number(),
  /** Unspent when the fund period closed. */
  expired: z.number(),
  available: z.number(),
});
export type Balance = z.infer<typeof balanceSchema>;

export const fundAllocationSchema = balanceSchema.extend({
  organisation_id: z.string(),
  company_name: z.string().nullable(),
  amount: z.number(),
  /** The delivered purchases the latest allocation rule measured for the organisation (null when its allocation was set by hand). */
  measured_purchases: z.number().nullable(),
});
export type FundAllocation = z.infer<typeof fundAllocationSchema>;

export const fundSchema = z.object({
  id: z.string(),
  name: z.string(),
  period_start: day,
  period_end: day,
  budget: z.number(),
  coop_share_percent: z.number(),
  status: z.enum(FUND_STATUSES),
  closed_at: timestamp.nullable(),
  close_reason: z.enum(CLOSE_REASONS).nullable(),
  allocation_rule: z.object({ kind: z.enum(ALLOCATION_RULE_KINDS), percent: z.number(), measured_from: day, measured_to: day }).nullable(),
  /** Every organisation's for admins; an organisation's caller sees its own only. */
  allocations: z.array(fundAllocationSchema),
  totals: balanceSchema,
  /** Committed (reserved, claimed or paid) as a share of the budget. */
  utilisation_percent: z.number(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Fund = z.infer<typeof fundSchema>;

export const fundBalanceRowSchema = balanceSchema.extend({
  fund_id: z.string(),
  name: z.string(),
  period_start: day,
  period_end: day,
  status: z.enum(FUND_STATUSES),
  budget: z.number(),
});
export type FundBalanceRow = z.infer<typeof fundBalanceRowSchema>;
export const balancesSchema = z.object({ funds: z.array(fundBalanceRowSchema), total: balanceSchema });
export type Balances = z.infer<typeof balancesSchema>;

export const rulePreviewSchema = z.object({
  fund_id: z.string(),
  rule: z.object({ kind: z.literal('percent_of_purchases'), percent: z.number() }),
  measured_from: day,
  measured_to: day,
  allocations: z.array(
    z.object({
      organisation_id: z.string(),
      company_name: z.string().nullable(),
      purchases: z.number(),
      current: z.number(),
      amount: z.number(),
      /** The programme tier's MDF share the amount carries (100 without a tier). */
      mdf_share_percent: z.number(),
      tier: z.string().nullable(),
    }),
  ),
  /** What the allocations add up to once the rule is applied (organisations without purchases keep theirs). */
  total_allocated: z.number(),
  budget: z.number(),
  within_budget: z.boolean(),
});
export type RulePreview = z.infer<typeof rulePreviewSchema>;

/** A stored attachment or proof file, downloadable at `url` by those who may see its record. */
export const fileLinkSchema = z.object({ name: z.string(), type: z.string(), size: z.number().int(), url: z.string() });
export type FileLink = z.infer<typeof fileLinkSchema>;

export const fundRequestSchema = z.object({
  id: z.string(),
  fund_id: z.string(),
  fund_name: z.string(),
  organisation_id: z.string(),
  company_name: z.string().nullable(),
  submitted_by: z.string(),
  activity_type: z.string(),
  title: z.string(),
  description: z.string(),
  start_date: day,
  end_date: day,
  planned_cost: z.number(),
  requested_amount: z.number(),
  expected_leads: z.number().int(),
  status: z.enum(FUND_REQUEST_STATUSES),
  approved_amount: z.number().nullable(),
  claim_deadline: day.nullable(),
  reserved: z.number(),
  released: z.number(),
  claim_id: z.string().nullable(),
  claim_status: z.enum(FUND_CLAIM_STATUSES).nullable(),
  note: z.string().nullable(),
  /** The activity's outcome (domain/funds/roi.ts): deals naming it, their value, their delivered orders, the amount paid out and revenue / paid. */
  deals: z.number().int(),
  pipeline: z.number(),
  revenue: z.number(),
  paid: z.number(),
  roi: z.number().nullable(),
  attachments: z.array(fileLinkSchema),
  submitted_at: timestamp,
  reviewed_at: timestamp.nullable(),
  updated_at: timestamp,
});
export type FundRequest = z.infer<typeof fundRequestSchema>;

export const fundClaimSchema = z.object({
  id: z.string(),
  request_id: z.string(),
  request_title: z.string(),
  fund_id: z.string(),
  organisation_id: z.string(),
  company_name: z.string().nullable(),
  submitted_by: z.string(),
  actual_cost: z.number(),
  claimed_amount: z.number(),
  approved_amount: z.number(),
  leads_generated: z.number().int(),
  status: z.enum(FUND_CLAIM_STATUSES),
  paid_amount: z.number().nullable(),
  reason: z.string().nullable(),
  /** Once paid. */
  payout: z.object({ reference: z.string(), paid_at: day, method: z.enum(PAYOUT_METHODS) }).nullable(),
  claim_deadline: day.nullable(),
  proof: z.array(fileLinkSchema),
  submitted_at: timestamp,
  reviewed_at: timestamp.nullable(),
  updated_at: timestamp,
});
export type FundClaim = z.infer<typeof fundClaimSchema>;

export const fundListAnswer = listAnswer('funds', fundSchema);
export const fundRecordAnswer = recordAnswer(fundSchema);
export const fundAnswer = z.union([asOfRecordAnswer, fundRecordAnswer]);
export const fundCreatedAnswers = createdAnswers(fundSchema);
export const balanceAnswer = z.object({ success: z.literal(true), data: balancesSchema });
export const rulePreviewAnswer = z.object({ success: z.literal(true), data: rulePreviewSchema });

export const fundRequestListAnswer = listAnswer('requests', fundRequestSchema);
export const fundRequestRecordAnswer = recordAnswer(fundRequestSchema);
export const fundRequestAnswer = z.union([asOfRecordAnswer, fundRequestRecordAnswer]);
export const fundRequestCreatedAnswers = createdAnswers(fundRequestSchema);

export const fundClaimListAnswer = listAnswer('claims', fundClaimSchema);
export const fundClaimRecordAnswer = recordAnswer(fundClaimSchema);
export const fundClaimAnswer = z.union([asOfRecordAnswer, fundClaimRecordAnswer]);
export const fundClaimCreatedAnswers = createdAnswers(fundClaimSchema);

/** A fund's, request's or claim's status changes: the shape every record with statuses shares. */
export { statusHistoryAnswer };

/** A downloaded file: the CSV exports and the stored attachments and proof are sent as they are, not as JSON. */
export const fileAnswer = (description: string) => z.string().meta({ description });
