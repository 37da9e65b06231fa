import { z } from 'zod';
import { REQUIREMENT_KINDS } from '../domain/programme/criteria';
import { commandAnswer, listAnswer, recordAnswer } from './answers';
import { versionsAnswer } from './versions';

/**
 * The partner programme: one tier ladder (requirements over a trailing window, and benefits), each
 * organisation's standing on it, and the evaluation runs that move organisations between tiers.
 *
 * Routes (all under /api):
 * - GET    /programme/tiers                          everyone signed in: `data.tiers` (ladder, lowest rank first) — `tierListAnswer`
 * - GET    /programme/tiers/:id                      everyone signed in: one tier — `tierAnswer`
 * - POST   /programme/tiers                          admins (Programme.Update): `tierBody` → 201 `tierAnswer`
 * - PUT    /programme/tiers/:id                      admins (Programme.Update): `tierUpdateBody` → `tierAnswer`
 * - GET    /programme/tiers/:id/versions             admins: the tier's versions (the project's `/versions` answer)
 * - GET    /programme/standing                       partner users (own organisation): `standingAnswer`
 * - GET    /programme/organisations                  admins and manufacturers (all), a partner its own: `data.standings`, each organisation's tier in force — `standingListAnswer`
 * - GET    /programme/organisations/:id/standing     admins and manufacturers (all), a partner its own: `standingAnswer`
 * - GET    /programme/organisations/:id/history      same callers: the tier changes, at-risk warnings and overrides — `standingHistoryAnswer`
 * - GET    /programme/organisations/:id/versions     admins: the standing's versions (the project's `/versions` answer)
 * - POST   /programme/organisations/:id/override     admins (Programme.Update): `overrideBody` → `standingAnswer`
 * - DELETE /programme/organisations/:id/override     admins (Programme.Update): ends the override now → `standingAnswer`
 * - POST   /programme/evaluate                       admins (Programme.Update): `evaluateBody` → 201 `evaluationRunAnswer`
 * - GET    /programme/evaluations                    admins and manufacturers: `data.evaluations` — `evaluationRunListAnswer`
 * - GET    /programme/evaluations/:id                admins and manufacturers: one run with its results — `evaluationRunAnswer`
 * Money is in cents; dates are YYYY-MM-DD, moments ISO 8601.
 */

// ---- tiers ----

export const requirementSchema = z
  .object({
    kind: z.enum(REQUIREMENT_KINDS, { error: `kind must be one of ${REQUIREMENT_KINDS.join(', ')}.` }),
    /** The value to reach (cents for money, a count, or a percentage 0–100). */
    target: z.number({ error: 'target must be a number.' }).nonnegative({ error: 'target must not be negative.' }),
    /** The trailing window the value is measured over, in months, ending at the evaluation. */
    window_months: z.number().int().min(1, { error: 'window_months must be 1 to 36.' }).max(36, { error: 'window_months must be 1 to 36.' }),
  })
  .strict();
export type Requirement = z.infer<typeof requirementSchema>;

export const SUPPORT_PRIORITIES = ['standard', 'priority', 'premium'] as const;
export type SupportPriority = (typeof SUPPORT_PRIORITIES)[number];

export const benefitsSchema = z
  .object({
    /** Share of a purchase paid back as rebate, in percent (replaces the quarterly rebate ladder). */
    rebate_rate_percent: z.number().min(0).max(100),
    /** Share of an MDF fund's allocation rule this tier receives, in percent of the rule's amount. */
    mdf_share_percent: z.number().min(0).max(1000),
    /** How long an approved deal registration is protected, in days. */
    protection_days: z.number().int().min(1).max(730),
    /** Discount on catalogue prices, in percent. */
    catalogue_discount_percent: z.number().min(0).max(100),
    support_priority: z.enum(SUPPORT_PRIORITIES, { error: `support_priority must be one of ${SUPPORT_PRIORITIES.join(', ')}.` }),
  })
  .strict();
export type Benefits = z.infer<typeof benefitsSchema>;

export const tierBody = z
  .object({
    name: z.string().trim().min(1, { error: 'name is required.' }).max(60),
    /** 0 is the entry tier every organisation holds; higher ranks are higher tiers. Unique. */
    rank: z.number().int().min(0).max(20),
    description: z.string().trim().max(500).optional(),
    requirements: z.array(requirementSchema).max(10),
    benefits: benefitsSchema,
  })
  .strict()
  .meta({
    example: {
      name: 'Diamond',
      rank: 4,
      description: 'Our strategic partners.',
      requirements: [{ kind: 'delivered_purchases', target: 100_000_000, window_months: 12 }],
      benefits: { rebate_rate_percent: 8, mdf_share_percent: 150, protection_days: 180, catalogue_discount_percent: 12, support_priority: 'premium' },
    },
  });
export type TierBody = z.infer<typeof tierBody>;

/** Every field may change; a partial body keeps the others. */
export const tierUpdateBody = tierBody
  .partial()
  .strict()
  .meta({ example: { requirements: [{ kind: 'deals_won', target: 5, window_months: 12 }] } });
export type TierUpdateBody = z.infer<typeof tierUpdateBody>;

export const tierSchema = z.object({
  id: z.string(),
  name: z.string(),
  rank: z.number().int(),
  description: z.string(),
  requirements: z.array(requirementSchema),
  benefits: benefitsSchema,
  /** Organisations holding this tier now. */
  organisations: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  version: z.number().int(),
});
export type Tier = z.infer<typeof tierSchema>;

export const tierListAnswer = listAnswer('tiers', tierSchema);
export const tierAnswer = recordAnswer(tierSchema);

// ---- standing ----

export const tierRefSchema = z.object({ id: z.string(), name: z.string(), rank: z.number().int() });
export type TierRef = z.infer<typeof tierRefSchema>;

/** One requirement of a tier measured for one organisation. */
export const requirementProgressSchema = z.object({
  kind: z.enum(REQUIREMENT_KINDS),
  label: z.string(),
  unit: z.enum(['cents', 'count', 'percent']),
  window_months: z.number().int(),
  current: z.number(),
  target: z.number(),
  /** What is still missing (0 once met). */
  gap: z.number(),
  met: z.boolean(),
  /** Progress to the target, 0–100. */
  percentage: z.number(),
  /** "$18,400 more delivered purchases"; null once met. */
  sentence: z.string().nullable(),
});
export type RequirementProgress = z.infer<typeof requirementProgressSchema>;

export const overrideSchema = z.object({
  tier: tierRefSchema,
  reason: z.string(),
  /** The last day the override holds; the measured tier applies again after it. */
  ends_on: z.string(),
  by: z.string().nullable(),
  at: z.string(),
});

export const standingSchema = z.object({
  organisation_id: z.string(),
  organisation_name: z.string(),
  /** The tier in force now (an override's tier while it lasts). */
  tier: tierRefSchema,
  /** When the organisation entered that tier. */
  since: z.string().nullable(),
  /** The tier earned by the measured values, which an override may hide. */
  measured_tier: tierRefSchema,
  next_tier: tierRefSchema.nullable(),
  /** Every requirement of the next tier with the current value (the current tier's when at the top). */
  progress: z.array(requirementProgressSchema),
  /** The unmet entries of `progress`, in the same shape. */
  missing: z.array(requirementProgressSchema),
  /** "$18,400 more delivered purchases, 1 more deal won"; null at the top tier. */
  missing_sentence: z.string().nullable(),
  at_risk: z.boolean(),
  /** While at risk: the current tier's unmet requirements as measured at the warning, and when demotion follows. */
  at_risk_since: z.string().nullable(),
  at_risk_missing: z.array(requirementProgressSchema),
  demotion_on: z.string().nullable(),
  override: overrideSchema.nullable(),
  benefits: benefitsSchema,
  /** The quarter last evaluated ('Q4 2026'), null before the first evaluation. */
  last_evaluated_quarter: z.string().nullable(),
  /** The date (YYYY-MM-DD) of the next quarterly evaluation. */
  next_evaluation: z.string(),
});
export type Standing = z.infer<typeof standingSchema>;

export const standingAnswer = recordAnswer(standingSchema);

/** One row of the standings list (what is missing needs measuring: read it on the organisation's standing). */
export const standingRowSchema = z.object({
  /** The organisation's id. */
  id: z.string(),
  organisation_id: z.string(),
  organisation_name: z.string(),
  tier: tierRefSchema,
  since: z.string(),
  measured_tier: tierRefSchema,
  at_risk: z.boolean(),
  at_risk_since: z.string().nullable(),
  demotion_on: z.string().nullable(),
  override: overrideSchema.nullable(),
  last_evaluated_quarter: z.string().nullable(),
  last_evaluated_at: z.string().nullable(),
});
export type StandingRow = z.infer<typeof standingRowSchema>;
export const standingListAnswer = listAnswer('standings', standingRowSchema);

export const STANDING_EVENT_KINDS = ['promoted', 'demoted', 'at_risk', 'recovered', 'override_set', 'override_ended'] as const;
export const standingEventSchema = z.object({
  at: z.string(),
  kind: z.enum(STANDING_EVENT_KINDS),
  from_tier: tierRefSchema.nullable(),
  to_tier: tierRefSchema.nullable(),
  quarter: z.string().nullable(),
  reason: z.string().nullable(),
  /** The measured values (kind → value) the evaluation saw. */
  measured: z.record(z.string(), z.number()),
  missing: z.array(requirementProgressSchema),
});
export type StandingEvent = z.infer<typeof standingEventSchema>;
export const standingHistoryAnswer = z.object({ success: z.literal(true), data: z.object({ history: z.array(standingEventSchema) }) });

export const overrideBody = z
  .object({
    tier_id: z.uuid({ error: 'tier_id must be a tier id.' }),
    reason: z.string().trim().min(3, { error: 'reason must say why (3 characters or more).' }).max(500),
    /** The last day (YYYY-MM-DD) the override holds; after today. */
    ends_on: z.iso.date({ error: 'ends_on must be a date, YYYY-MM-DD.' }),
  })
  .strict()
  .meta({ example: { tier_id: '00000000-0000-4000-8000-000000000001', reason: 'Strategic launch partner for the new range.', ends_on: '2027-06-30' } });
export type OverrideBody = z.infer<typeof overrideBody>;

// ---- evaluation runs ----

export const evaluateBody = z
  .object({
    /** Limit the run to these organisations (all approved partner organisations when left out). */
    organisation_ids: z.array(z.uuid()).min(1).max(500).optional(),
  })
  .strict()
  .meta({ example: {} });
export type EvaluateBody = z.infer<typeof evaluateBody>;

export const EVALUATION_OUTCOMES = ['promoted', 'demoted', 'at_risk', 'recovered', 'unchanged', 'overridden', 'skipped'] as const;
export type EvaluationOutcome = (typeof EVALUATION_OUTCOMES)[number];

export const evaluationResultSchema = z.object({
  organisation_id: z.string(),
  organisation_name: z.string(),
  outcome: z.enum(EVALUATION_OUTCOMES),
  from_tier: tierRefSchema.nullable(),
  to_tier: tierRefSchema.nullable(),
  measured: z.record(z.string(), z.number()),
  missing: z.array(requirementProgressSchema),
});
export type EvaluationResult = z.infer<typeof evaluationResultSchema>;

export const evaluationRunSchema = z.object({
  id: z.string(),
  quarter: z.string(),
  /** 'quarterly': the quarter's one evaluation (may warn and demote); 'interim': later in a quarter already evaluated (promotes and clears warnings only). */
  kind: z.enum(['quarterly', 'interim']),
  trigger: z.enum(['schedule', 'admin']),
  requested_by: z.string().nullable(),
  requested_by_name: z.string().nullable(),
  evaluated_at: z.string(),
  counts: z.object({
    promoted: z.number().int(),
    demoted: z.number().int(),
    at_risk: z.number().int(),
    recovered: z.number().int(),
    unchanged: z.number().int(),
    overridden: z.number().int(),
    skipped: z.number().int(),
  }),
  results: z.array(evaluationResultSchema),
});
export type EvaluationRun = z.infer<typeof evaluationRunSchema>;

export const evaluationRunAnswer = recordAnswer(evaluationRunSchema);
export const evaluationRunListAnswer = listAnswer('evaluations', evaluationRunSchema.omit({ results: true }));
export const evaluateAnswer = commandAnswer(evaluationRunSchema);

// ---- dashboard ----

/** The partner dashboard's tier card (`programme` in GET /api/dashboard for partner users; null for others). */
export const programmeCardSchema = z.object({
  tier: tierRefSchema,
  next_tier: tierRefSchema.nullable(),
  /** The next tier's first unmet requirement; null at the top tier or when all are met. */
  first_missing: requirementProgressSchema.nullable(),
  at_risk: z.boolean(),
  next_evaluation: z.string(),
});
export type ProgrammeCard = z.infer<typeof programmeCardSchema>;

// ---- versions (GET …/:id/versions): every record's versions answer ----

export { versionsAnswer };
