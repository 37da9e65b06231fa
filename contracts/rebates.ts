import { z } from 'zod';
import { parsePriceCents } from '../domain/money';
import { REBATE_STATUSES } from '../domain/rebates/rebates';
import { acceptedAnswer, asOfRecordAnswer, commandAnswer, listAnswer } from './answers';
import { booleanFilter, listQuerySchema } from './lists';

/**
 * Rebates: a partner organisation claims part of a purchase back (spec 002 §3, §5, §7); admins review
 * each claim (processing, approved with an amount, rejected with a reason). The suggested rate is the
 * organisation's partner programme tier's, or the quarterly ladder's before its first evaluation.
 *
 * Routes (all under /api):
 * - POST   /rebates/submit                 multipart `rebateFormFields` + up to 5 `attachments` → 201 `rebateSubmittedAnswers`
 * - GET    /rebates, /rebates/user         the caller's organisation's claims (all for admins) — `rebateListAnswer`
 * - GET    /rebates/admin/all              every claim, for review — `rebateListAnswer`
 * - GET    /rebates/export                 the list as CSV (text/csv) — `rebateExportAnswer`
 * - GET    /rebates/stats/user             the quarter's statistics — `rebateStatsAnswer`
 * - GET    /rebates/dashboard/overview     the Overview tab — `rebateOverviewAnswer`
 * - GET    /rebates/categories/list        product categories a claim can name — `listEntriesAnswer`
 * - GET    /rebates/types/list             rebate types a claim can name — `listEntriesAnswer`
 * - GET    /rebates/:id                    one claim (with `asOf`: as it was then) — `rebateReadAnswer`
 * - GET    /rebates/:id/versions           the claim's versions (the project's `/versions` answer)
 * - GET    /rebates/:id/history            the claim's status changes — `statusHistoryAnswer` (contracts/answers.ts)
 * - GET    /rebates/:id/attachments/:name  a supporting document (the file) — `rebateAttachmentAnswer`
 * - PATCH  /rebates/admin/:id/status       admins: `rebateStatusBody` → `rebateStatusAnswer`
 * - POST   /rebates/bulk-review            admins: `{ ids, decision, reason }` → `rebateBulkReviewAnswer`
 * - DELETE /rebates/:id                    `rebateDeletedAnswer`
 * Amounts are dollars as JSON numbers; dates are YYYY-MM-DD, moments ISO 8601.
 */

// ---- requests ----

const amountText = (message: string) =>
  z
    .string()
    .max(40)
    .transform((text, ctx) => {
      if (!text.trim()) return null;
      const cents = parsePriceCents(text);
      if (cents === undefined) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return cents;
    });

/** The Submit Rebate form as multipart text. Presence and meaning are the decider's (spec 002 §5 messages); here only shapes and sizes. */
export const rebateFormFields = z
  .object({
    product_name: z.string().max(200).optional().default(''),
    product_category: z.string().max(100).optional().default(''),
    purchase_date: z.string().max(40).optional().default(''),
    invoice_number: z.string().max(60).optional().default(''),
    /** Read into cents; null when left empty. */
    purchase_amount: amountText('Purchase amount must be a number with at most 2 decimals, for example 1250.00.').optional().default(null),
    rebate_type: z.string().max(100).optional().default(''),
    description: z.string().max(2000).optional().default(''),
  })
  .strict();
export type RebateFormFields = z.output<typeof rebateFormFields>;
/** What the form sends (besides its files): every field as text. */
export type RebateFormValues = Record<keyof z.input<typeof rebateFormFields>, string>;

/** PATCH /rebates/admin/:id/status (spec 002 §7): status, notes, rebate_amount (read into signed cents). */
export const rebateStatusBody = z
  .object({
    status: z.enum(REBATE_STATUSES, { error: `Status must be one of: ${REBATE_STATUSES.join(', ')}.` }),
    notes: z.string().max(5000).nullable().optional(),
    rebate_amount: z
      .union([z.number({ error: 'The rebate amount must be a number.' }), z.string().max(40)])
      .nullable()
      .optional()
      .transform((value, ctx) => {
        if (value === null || value === undefined || value === '') return null;
        const cents =
          typeof value === 'number'
            ? Number.isFinite(value) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6
              ? Math.round(value * 100)
              : undefined
            : parsePriceCents(value.replace(/^-/, ''));
        if (cents === undefined) {
          ctx.addIssue({ code: 'custom', message: 'The rebate amount must be a number with at most 2 decimals.' });
          return z.NEVER;
        }
        return typeof value === 'string' && value.trim().startsWith('-') ? -cents : cents;
      }),
  })
  .strict()
  .meta({ example: { status: 'approved', notes: 'Approved after review', rebate_amount: 250 } });
export type RebateStatusBody = z.input<typeof rebateStatusBody>;

// ---- answers ----

export const rebateAttachmentSchema = z.object({
  /** The stored file's name: the last part of `url`. */
  file: z.string(),
  /** The name it was uploaded with. */
  name: z.string(),
  type: z.string(),
  size: z.number().int(),
  url: z.string(),
});
export type RebateAttachment = z.infer<typeof rebateAttachmentSchema>;

/** The claim as the API answers it: the fields of spec 002 §3, and what the reviewer needs beside them. */
export const rebateSchema = z.object({
  id: z.string(),
  product_name: z.string(),
  product_category: z.string(),
  /** YYYY-MM-DD. */
  purchase_date: z.string(),
  invoice_number: z.string(),
  purchase_amount: z.number(),
  rebate_type: z.string(),
  description: z.string(),
  attachments: z.array(rebateAttachmentSchema),
  status: z.string(),
  status_label: z.string(),
  next_statuses: z.array(z.enum(REBATE_STATUSES)),
  rebate_amount: z.number().nullable(),
  notes: z.string().nullable(),
  rejection_reason: z.string().nullable(),
  submitted_date: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  reviewed_at: z.string().nullable(),
  reviewed_by: z.string().nullable(),
  reviewed_by_name: z.string().nullable(),
  organisation_id: z.string(),
  company_name: z.string().nullable(),
  partner: z.object({ id: z.string(), company_name: z.string().nullable() }),
  submitted_by: z.string(),
  submitted_by_name: z.string().nullable(),
  document_count: z.number().int(),
  /** One of the organisation's orders: by the invoice number, or a delivered order of the product at the amount. */
  matched_order: z.object({ id: z.string(), order_number: z.string(), matched_by: z.enum(['invoice', 'product_and_amount']) }).nullable(),
  match_note: z.string().nullable(),
  suggested_rate: z.number(),
  /** The tier the rate belongs to: the organisation's, before this claim counts. */
  suggested_tier: z.string(),
  suggested_rebate_amount: z.number(),
});
export type RebateView = z.infer<typeof rebateSchema>;

export const rebateListAnswer = listAnswer('rebates', rebateSchema);

/** A file download: the body is the file, not JSON (the serializer is not involved). */
export const rebateExportAnswer = z.string().describe('text/csv: one row per claim the filters select, in the list order');
export const rebateAttachmentAnswer = z.string().describe('The supporting document as uploaded (PDF, DOC, DOCX, JPG or PNG)');

/** GET /rebates/stats/user (spec 002 §3, Rebate stats), and the dashboards' rebate progress. Ladder fields are null for every organisation at once. */
export const rebateStatsSchema = z.object({
  totalRebateAmount: z.number(),
  quarterlyTarget: z.number().nullable(),
  currentTier: z.string().nullable(),
  nextTier: z.string().nullable(),
  nextTierTarget: z.number().nullable(),
  quarterlyPurchases: z.number(),
  quarterlyRebates: z.number(),
  progressPercentage: z.number().nullable(),
  remainingToNextTier: z.number().nullable(),
  rebateRate: z.number().nullable(),
  quarterLabel: z.string(),
  daysRemaining: z.number().int(),
  pendingCount: z.number().int(),
});
export type RebateStats = z.infer<typeof rebateStatsSchema>;
export const rebateStatsAnswer = z.object({ success: z.literal(true), data: rebateStatsSchema });

/** The Overview tab (spec 002 §3, Rebate dashboard overview) for the quarter holding today. */
export const rebateOverviewSchema = z.object({
  scope: z.enum(['organisation', 'all']),
  /** Where the tier and rate come from: the partner programme, or (never evaluated) the quarterly ladder. */
  tier_source: z.enum(['programme', 'quarterly']).nullable(),
  quarterly_progress: z.object({ percentage: z.number().nullable(), current: z.number(), target: z.number().nullable() }),
  quarterly_target: z.object({ target: z.number().nullable(), current: z.number() }),
  current_tier: z.object({ tier: z.string().nullable(), next: z.string().nullable() }),
  /** What the next programme tier still needs ("$18,400 more delivered purchases"), null otherwise. */
  next_tier_missing: z.string().nullable(),
  pending_rebates: z.object({ count: z.number().int(), total: z.number() }),
  summary_counts: z.object({
    total: z.number().int(),
    pending: z.number().int(),
    processing: z.number().int(),
    approved: z.number().int(),
    rejected: z.number().int(),
  }),
  financial_summary: z.object({ total_purchase: z.number(), total_rebate: z.number(), quarterly_purchase: z.number(), quarterly_rebate: z.number() }),
  quarter: z.object({ label: z.string(), progress_label: z.string(), start: z.string(), end: z.string(), days_remaining: z.number().int() }),
  rate: z.number().nullable(),
  remaining_to_next_tier: z.number().nullable(),
  monthly: z.array(z.object({ month: z.string(), label: z.string(), purchases: z.number(), rebates: z.number() })),
  /** The programme ladder's tiers (threshold null) or the quarterly ladder's. */
  tiers: z.array(z.object({ name: z.string(), threshold: z.number().nullable(), rate: z.number() })),
});
export type RebateOverview = z.infer<typeof rebateOverviewSchema>;
export const rebateOverviewAnswer = z.object({ success: z.literal(true), data: rebateOverviewSchema });

/** A product category or rebate type a claim can name. */
export const listEntrySchema = z.object({ id: z.string(), name: z.string() });
export type ListEntry = z.infer<typeof listEntrySchema>;
export const listEntriesAnswer = z.object({ success: z.literal(true), data: z.array(listEntrySchema) });

export const rebateAnswer = z.object({ success: z.literal(true), data: rebateSchema });
export const rebateReadAnswer = z.union([rebateAnswer, asOfRecordAnswer]);

/** The claim submitted (201; 200 for a repeated Idempotency-Key), or 202 while the read models catch up. */
export const rebateSubmittedAnswer = commandAnswer(rebateSchema);
export type RebateSubmittedAnswer = z.infer<typeof rebateSubmittedAnswer>;
export const rebateSubmittedAnswers = { 200: rebateSubmittedAnswer, 201: rebateSubmittedAnswer, 202: acceptedAnswer } as const;

/** PATCH /rebates/admin/:id/status: `details` says which change was made. */
export const rebateStatusAnswer = commandAnswer(rebateSchema).extend({ details: z.string() });
export type RebateStatusAnswer = z.infer<typeof rebateStatusAnswer>;

export const bulkOutcomeSchema = z.object({
  succeeded: z.array(z.string()),
  /** Each claim refused, with the refusal's code and message. */
  refused: z.array(z.object({ id: z.string(), code: z.string(), message: z.string() })),
});
export type BulkOutcome = z.infer<typeof bulkOutcomeSchema>;
export const rebateBulkReviewAnswer = commandAnswer(bulkOutcomeSchema);
export type RebateBulkReviewAnswer = z.infer<typeof rebateBulkReviewAnswer>;

export const rebateDeletedAnswer = commandAnswer(z.object({ id: z.string() }));
export type RebateDeletedAnswer = z.infer<typeof rebateDeletedAnswer>;

export const REBATE_SORT_FIELDS = [
  'id',
  'submitted_date',
  'created_at',
  'purchase_date',
  'purchase_amount',
  'rebate_amount',
  'status',
  'company_name',
  'invoice_number',
  'product_name',
] as const;
export type RebateSortField = (typeof REBATE_SORT_FIELDS)[number];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayFilter = z.string().regex(DAY, 'Dates are written YYYY-MM-DD.').optional();
const filterFields = {
  status: z.enum(REBATE_STATUSES).optional(),
  product_category: z.string().max(100).optional(),
  rebate_type: z.string().max(100).optional(),
  date_from: dayFilter,
  date_to: dayFilter,
  open: booleanFilter.optional(),
};
/** The query of GET /rebates/user: the caller's organisation's claims. */
export const rebateListQuery = listQuerySchema(filterFields, REBATE_SORT_FIELDS);
/** The query of GET /rebates/admin/all and its export (and the dashboards' counts of it). */
export const rebateAdminListQuery = listQuerySchema(
  { ...filterFields, organisation_id: z.uuid({ error: 'Organisation id is not valid.' }).optional() },
  REBATE_SORT_FIELDS,
);
