import { z } from 'zod';
import type { GovernanceStatus } from '../domain/governance/governance';

/**
 * Partnership governance: one organisation's agreement, orders, account team and rebate programme.
 *
 * Routes (all under /api):
 * - GET /governance    the caller's organisation (administrators name it with `organisation_id`) — `governanceAnswer`
 */

export const governanceQuery = z.object({ organisation_id: z.uuid().optional() }).strict();

export const GOVERNANCE_STATUSES = [
  'Active',
  'Expired',
  'Processing',
  'Pending Approval',
  'Delivered',
  'Completed',
  'Pending',
  'Upcoming',
  'Shipped',
  'Cancelled',
  'Rejected',
  'Inactive',
] as const satisfies readonly GovernanceStatus[];
const governanceStatus = z.enum(GOVERNANCE_STATUSES);

export const agreementSchema = z.object({
  status: governanceStatus,
  kind: z.string(),
  tier: z.string().nullable(),
  category: z.string().nullable(),
  region: z.string().nullable(),
  /** Dates are YYYY-MM-DD. */
  applied_on: z.string().nullable(),
  approved_on: z.string().nullable(),
  term_start: z.string().nullable(),
  renewal_date: z.string().nullable(),
  days_to_renewal: z.number().int().nullable(),
  certificate: z.string().nullable(),
});

export const governanceOrderSchema = z.object({
  id: z.string(),
  order_number: z.string(),
  status: z.string(),
  display_status: governanceStatus,
  total_amount: z.number(),
  item_count: z.number().int(),
  created_at: z.string(),
  estimated_delivery: z.string().nullable(),
  delivered_at: z.string().nullable(),
});

export const governanceMemberSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  email: z.string(),
  /** The role's label ("Partner User"). */
  role: z.string(),
  is_owner: z.boolean(),
  status: z.enum(['Pending', 'Active', 'Inactive']),
  joined_on: z.string().nullable(),
});

export const supportContactSchema = z.object({ phone: z.string(), email: z.string(), hours: z.string() });

export const governanceQuarterSchema = z.object({
  label: z.string(),
  start: z.string(),
  end: z.string(),
  target_tier: z.string(),
  target: z.number(),
  purchases: z.number(),
  rebates: z.number(),
  percentage: z.number(),
  reached_tier: z.string(),
  status: governanceStatus,
});

/** Amounts are in currency units (not cents). */
export const rebateProgrammeSchema = z.object({
  year: z.number().int(),
  annual_target: z.number(),
  annual_purchases: z.number(),
  annual_rebates: z.number(),
  annual_percentage: z.number(),
  current_tier: z.string(),
  current_rate_percent: z.number(),
  pending_claims: z.number().int(),
  pending_purchase_amount: z.number(),
  quarters: z.array(governanceQuarterSchema),
  ladder: z.array(z.object({ name: z.string(), quarterly_purchases: z.number(), rate_percent: z.number() })),
});

export const governanceSchema = z.object({
  organisation_id: z.string(),
  company_name: z.string(),
  agreement: agreementSchema,
  orders: z.object({
    /** Orders by status. */
    counts: z.record(z.string(), z.number().int()),
    total_value: z.number(),
    recent: z.array(governanceOrderSchema),
  }),
  account_team: z.object({
    members: z.array(governanceMemberSchema),
    partner_manager: z.object({ full_name: z.string(), email: z.string() }).nullable(),
    /** Null until an administrator sets it. */
    support: supportContactSchema.nullable(),
  }),
  /** Null for those who may not read rebates. */
  rebate_programme: rebateProgrammeSchema.nullable(),
});
export type Governance = z.infer<typeof governanceSchema>;

export const governanceAnswer = z.object({ success: z.literal(true), data: governanceSchema });
