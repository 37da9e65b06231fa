import { z } from 'zod';
import { acceptedAnswer, asOfRecordAnswer, commandAnswer, listAnswer } from './answers';
import { listQuerySchema } from './lists';
import { userSchema } from './identity';

/**
 * Partner applications and the partner directory.
 *
 * Routes (all under /api):
 * - POST  /partner/onboarding                 the applicant's application (multipart `applicationFields` with company_logo) → 201 `partnerSubmittedAnswers`
 * - POST  /partner/onboarding/questionnaire   the applicant's questionnaire: `questionnaireBody` → 201 `partnerSubmittedAnswers`
 * - GET   /partner/partners                   admins: every application (`partnerSchema`); Partners.Read: the directory (`partnerDirectorySchema`) — `partnerListAnswer`
 * - GET   /partner/partners/:id               one partner, in the caller's view — `partnerAnswer`; with `asOf` (admins and the applicant): `partnerAsOfAnswer`
 * - GET   /partner/partners/:id/versions      admins and the applicant: the application's versions (contracts/versions.ts)
 * - GET   /partner/partners/:id/history       admins: who did what, when and why — `partnerHistoryAnswer`
 * - PATCH /partner/partners/:id (and PUT)     admins: `decisionBody` → `decisionAnswer`
 */

const text = (max: number) => z.string().max(max).optional().default('');

/** The wizard's fields: none is required by the specification; lengths are bounded. */
export const applicationFields = z
  .object({
    company_name: text(200),
    contact_email: text(254),
    phone_number: text(40),
    business_type: text(100),
    business_type_other: text(200),
    business_address: text(500),
    years_in_business: text(40),
    certifications: text(2000),
    region: text(40),
    partner_references: text(2000),
    category: text(100),
    user_id: z.uuid({ error: 'User id is not valid.' }).optional(),
  })
  .strict();
export type ApplicationFields = z.input<typeof applicationFields>;

/**
 * The questionnaire's shape. Missing answers arrive as empty text, so the decider answers each with
 * the specification's message ("City is required", "Please specify your job title", ...).
 */
export const questionnaireBody = z
  .object({
    company_name: text(200),
    contact_email: text(254),
    contact_name: text(120),
    phone_number: text(40),
    job_title: text(60),
    job_title_other: text(120),
    website: text(300),
    country: text(80),
    country_other: text(120),
    city: text(120),
    location: text(300),
    state_region: text(100),
    postal_code: text(20),
    business_type: text(100),
    business_type_other: text(200),
    years_in_operation: text(40),
    employees_range: text(20),
    business_description: text(100),
    business_description_other: text(300),
    key_products: text(1000),
    target_markets: z
      .union([z.array(z.string().max(60)).max(10), z.string().max(60)])
      .optional()
      .default([])
      .transform((value) => (Array.isArray(value) ? value : value ? [value] : [])),
    target_markets_other: text(300),
    business_registration_number: text(100),
    tax_id: text(100),
    country_of_incorporation: text(80),
    country_of_incorporation_other: text(120),
    annual_turnover: text(60),
    annual_turnover_other: text(120),
    turnover_currency: text(10),
    turnover_currency_other: text(60),
    fiscal_year_end_month: text(20),
    are_financials_audited: text(10),
    agreed_to_terms: z.boolean().optional().default(false),
    user_id: z.uuid({ error: 'User id is not valid.' }).optional(),
  })
  .strict();
export type QuestionnaireBody = z.input<typeof questionnaireBody>;

const permissionList = z.array(z.string().max(60)).max(60);

/** PATCH and PUT /partner/partners/:id: approval (category and permissions) or rejection (reason). */
export const decisionBody = z
  .discriminatedUnion(
    'status',
    [
      // Without permissions, the category's defaults are granted (domain/partners/categoryDefaults.ts).
      z
        .object({
          status: z.literal('approved'),
          category: z.string({ error: 'Please choose a partner category.' }).max(100),
          permissions: permissionList.optional(),
        })
        .strict(),
      z.object({ status: z.literal('rejected'), rejection_reason: z.string({ error: 'Please give a reason for the rejection.' }).max(5000) }).strict(),
    ],
    { error: 'Status must be approved or rejected.' },
  )
  .meta({ example: { status: 'approved', category: 'Helix Authorized Reseller', permissions: ['Projects.Read', 'Orders.Browse'] } });
export type DecisionBody = z.infer<typeof decisionBody>;

export const PARTNER_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];
export const partnerStatusFilter = z.enum(PARTNER_STATUSES);

/** What anyone allowed into the partner directory sees of an approved partner: never the financial answers, the decision's details or the applicant's account. */
export const partnerDirectorySchema = z.object({
  id: z.string(),
  company_name: z.string(),
  status: z.enum(PARTNER_STATUSES),
  region: z.string().nullable(),
  tier: z.string().nullable(),
  category: z.string().nullable(),
  business_type: z.string().nullable(),
  business_type_other: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  country_other: z.string().nullable(),
  /** The latest scorecard's rating, else the stored one (0–5). */
  rating: z.number().nullable(),
  projects_count: z.number().int(),
  company_logo: z.string().nullable(),
  company_logo_url: z.string().nullable(),
  contact_email: z.string().nullable(),
  phone_number: z.string().nullable(),
  website: z.string().nullable(),
  location: z.string().nullable(),
  state_region: z.string().nullable(),
  postal_code: z.string().nullable(),
  business_description: z.string().nullable(),
  business_description_other: z.string().nullable(),
  key_products: z.string().nullable(),
  target_markets: z.array(z.string()),
  target_markets_other: z.string().nullable(),
  employees_range: z.string().nullable(),
  years_in_operation: z.string().nullable(),
  certifications: z.string().nullable(),
  created_at: z.string(),
});
export type PartnerDirectoryEntry = z.infer<typeof partnerDirectorySchema>;

/** The whole application, for administrators and the applicant. */
export const partnerSchema = partnerDirectorySchema.extend({
  user_id: z.string(),
  contact_name: z.string().nullable(),
  job_title: z.string().nullable(),
  job_title_other: z.string().nullable(),
  business_address: z.string().nullable(),
  years_in_business: z.string().nullable(),
  partner_references: z.string().nullable(),
  business_registration_number: z.string().nullable(),
  tax_id: z.string().nullable(),
  country_of_incorporation: z.string().nullable(),
  country_of_incorporation_other: z.string().nullable(),
  annual_turnover: z.string().nullable(),
  annual_turnover_other: z.string().nullable(),
  turnover_currency: z.string().nullable(),
  turnover_currency_other: z.string().nullable(),
  fiscal_year_end_month: z.string().nullable(),
  are_financials_audited: z.string().nullable(),
  agreed_to_terms: z.boolean(),
  requested_category: z.string().nullable(),
  granted_permissions: z.array(z.string()),
  rejection_reason: z.string().nullable(),
  application_submitted_at: z.string().nullable(),
  questionnaire_submitted_at: z.string().nullable(),
  decided_at: z.string().nullable(),
  decided_by: z.string().nullable(),
  updated_at: z.string(),
});
export type Partner = z.infer<typeof partnerSchema>;

/** Administrators read whole applications, others the directory's entries: a list holds one kind or the other. */
export const partnerListAnswer = z.union([listAnswer('partners', partnerSchema), listAnswer('partners', partnerDirectorySchema)]);
export const partnerAnswer = z.object({ success: z.literal(true), data: z.union([partnerSchema, partnerDirectorySchema]) });
/** `?asOf=`: the application as its decider held it then, in the record answer's shape. */
export { asOfRecordAnswer as partnerAsOfAnswer };

/** The applicant's submissions: the application (201, 200 for a repeated Idempotency-Key) or 202 while the read models catch up. */
export const partnerSubmittedAnswers = { 200: commandAnswer(partnerSchema), 201: commandAnswer(partnerSchema), 202: acceptedAnswer } as const;

/**
 * An approval answers the partner and the account as the approval leaves it (the user answer; the approval process
 * activates it moments later), null when the account is gone; a rejection the partner alone.
 */
export const decisionAnswer = commandAnswer(z.object({ partner: partnerSchema, user: userSchema.nullable().optional() }));

/** One step of an application's history. */
export const partnerHistoryEntrySchema = z.object({
  /** The event's id. */
  id: z.string(),
  record_type: z.literal('partners'),
  record_id: z.string(),
  event_type: z.string(),
  /** The step in words ("Approved as Helix Authorized Distributor"). */
  action: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
  /** Set on the steps that change the status (null for the submission). */
  from_status: z.string().nullable(),
  /** The status after the step. */
  to_status: z.string().nullable(),
  reason: z.string().nullable(),
  actor_id: z.string().nullable(),
  actor_name: z.string().nullable(),
  actor_role: z.string().nullable(),
  occurred_at: z.string(),
});
export type PartnerHistoryEntry = z.infer<typeof partnerHistoryEntrySchema>;
export const partnerHistoryAnswer = z.object({ success: z.literal(true), data: z.array(partnerHistoryEntrySchema) });

/** The query of GET /partner/partners: applications for admins, the directory for others (and the dashboards' counts of it). */
export const partnerListQuery = listQuerySchema(
  {
    status: partnerStatusFilter.optional(),
    region: z.string().max(60).optional(),
    tier: z.string().max(60).optional(),
    category: z.string().max(100).optional(),
  },
  ['company_name', 'created_at', 'updated_at', 'status', 'region', 'tier', 'category', 'rating', 'projects_count'],
);
