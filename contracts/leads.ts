import { z } from 'zod';
import { PRODUCT_CATEGORIES } from '../domain/products/products';
import { LEAD_MESSAGES, LEAD_REGIONS, LEAD_SOURCES, LEAD_STATUSES, MAX_ESTIMATED_VALUE } from '../domain/leads/leads';
import { ROUTING_METHODS } from '../domain/leads/routing';
import { RULE_MESSAGES } from '../domain/leads/rules';
import { asOfRecordAnswer, createdAnswers, recordAnswer, statusHistoryAnswer, type StatusChange } from './answers';
import { versionsAnswer } from './versions';

/**
 * Leads: created by the vendor (one at a time or imported from CSV), routed to a partner or
 * distributor organisation by the routing rules, accepted or declined within the acceptance window
 * (a decline or lapse passes the lead on), worked and converted into a deal registration.
 *
 * Who: admins, manufacturers and support see every lead (with its offers and routing reasons); an
 * organisation sees the leads offered to it, contact details only once it accepted, and of the leads
 * it passed by only its own outcome (`lapsed`, `declined`, `reassigned`).
 *
 * Routes (all under /api):
 * - GET    /leads                      leadListQuery; react-admin's array or `data.leads` + `pagination`  -> leadListAnswer
 * - GET    /leads/export               the same list as CSV (text/csv)
 * - GET    /leads/reports              acceptance, conversion, revenue, ageing                             -> leadReportsAnswer
 * - GET    /leads/organisations        the organisations leads can be routed to                             -> routableOrganisationsAnswer
 * - POST   /leads                      leadBody                                                             -> leadCreatedAnswers
 * - POST   /leads/import               multipart `file` (CSV); dryRun, importValid                                 -> leadImportAnswer (200, 201 when created)
 * - GET    /leads/:id                  one lead (asOf: as it was then)                                      -> leadAnswer
 * - PUT    /leads/:id                  leadUpdateShape (fields not sent keep their value)                   -> leadRecordAnswer
 * - GET    /leads/:id/history          status history (an organisation: while offered to it)                -> leadHistoryAnswer
 * - GET    /leads/:id/versions         versions (an organisation: while offered to it)                      -> leadVersionsAnswer
 * - POST   /leads/:id/accept                                                                                -> leadRecordAnswer
 * - POST   /leads/:id/decline          declineBody                                                          -> leadRecordAnswer
 * - POST   /leads/:id/status           statusBody                                                           -> leadRecordAnswer
 * - POST   /leads/:id/convert          convertBody                                                          -> 201 convertAnswer
 * - POST   /leads/:id/assign           admins: assignBody                                                   -> leadRecordAnswer
 * - GET    /lead-rules                 the routing rules in the order they are tried                        -> ruleListAnswer
 * - GET    /lead-rules/:id                                                                                  -> ruleAnswer
 * - POST   /lead-rules                 ruleCreateBody                                                       -> ruleCreatedAnswers
 * - PUT    /lead-rules/:id             ruleShape                                                            -> ruleAnswer
 * - POST   /lead-rules/:id/move        moveBody                                                             -> ruleAnswer
 * - DELETE /lead-rules/:id                                                                                  -> ruleDeletedAnswer
 * Values are in dollars; moments ISO 8601.
 */

export { LEAD_REGIONS, LEAD_SOURCES, LEAD_STATUSES, ROUTING_METHODS };

/** A lead's status, or, for an organisation it passed by, how its offer ended. */
export const LEAD_STANDINGS = [...LEAD_STATUSES, 'lapsed', 'declined', 'reassigned'] as const;
export const ASSIGNMENT_METHODS = [...ROUTING_METHODS, 'manual'] as const;
export const OFFER_OUTCOMES = ['pending', 'accepted', 'declined', 'lapsed', 'reassigned'] as const;

const timestamp = z.string().meta({ description: 'ISO 8601 date and time' });
const DAY = /^\d{4}-\d{2}-\d{2}$/;

// ---- bodies and queries ----

const text = (max: number) => z.union([z.string().max(max), z.null()]).optional();
/** A lead's own fields (PUT takes each of them optionally). */
export const detailShape = {
  company: z.string({ error: LEAD_MESSAGES.companyRequired }).max(200),
  contact_name: z.string({ error: LEAD_MESSAGES.contactRequired }).max(200),
  email: z.string({ error: LEAD_MESSAGES.emailRequired }).max(254),
  phone: text(40),
  country: text(2),
  region: z.enum(LEAD_REGIONS, { error: LEAD_MESSAGES.regionInvalid }).nullable().optional(),
  product_interest: z.enum(PRODUCT_CATEGORIES, { error: LEAD_MESSAGES.productInterestInvalid }).nullable().optional(),
  estimated_value: z
    .number({ error: LEAD_MESSAGES.valueInvalid })
    .min(0, LEAD_MESSAGES.valueInvalid)
    .max(MAX_ESTIMATED_VALUE, LEAD_MESSAGES.valueInvalid)
    .nullable()
    .optional(),
  source: z.enum(LEAD_SOURCES, { error: LEAD_MESSAGES.sourceInvalid }),
  notes: text(2000),
};
export const LEAD_EXAMPLE = {
  company: 'Contoso Ltd',
  contact_name: 'Ada Lovelace',
  email: 'ada@contoso.example',
  phone: '+44 20 7946 0000',
  country: 'GB',
  region: 'EMEA',
  product_interest: 'Managed Switches',
  estimated_value: 120000,
  source: 'web_form',
  notes: 'Asked for a campus refresh quote.',
};
export const leadBody = z.object(detailShape).strict().meta({ example: LEAD_EXAMPLE });

/** Every field of `detailShape`, optional: what PUT /leads/:id changes. */
export const leadUpdateShape = Object.fromEntries(Object.entries(detailShape).map(([key, schema]) => [key, schema.optional()])) as {
  [K in keyof typeof detailShape]: z.ZodOptional<(typeof detailShape)[K]>;
};
/** The fields of a lead's answer PUT ignores when react-admin's edit form sends them back. */
export const LEAD_READ_ONLY_FIELDS = [
  'id',
  'contact_visible',
  'status',
  'status_label',
  'organisation_id',
  'organisation_name',
  'rule_id',
  'rule_name',
  'assignment_method',
  'assignment_reason',
  'assigned_at',
  'due_at',
  'accepted_at',
  'duplicate_of',
  'project_id',
  'converted_at',
  'status_reason',
  'passed_count',
  'created_at',
  'updated_at',
  'offers',
] as const;

export const declineBody = z
  .object({ reason: z.string({ error: LEAD_MESSAGES.reasonRequired }).max(500) })
  .strict()
  .meta({ example: { reason: 'Outside our territory.' } });
export const statusBody = z
  .object({ status: z.enum(['contacted', 'qualified', 'disqualified'], { error: 'Status must be contacted, qualified or disqualified.' }), reason: text(500) })
  .strict()
  .meta({ example: { status: 'contacted', reason: null } });
export const convertBody = z
  .object({
    title: z.string({ error: 'Title is required' }).max(200),
    expected_closure_date: z.union([z.string().regex(DAY, 'Expected closure date must be a date (YYYY-MM-DD).'), z.null()]).optional(),
  })
  .strict()
  .meta({ example: { title: 'Contoso campus refresh', expected_closure_date: '2027-03-31' } });
export const assignBody = z
  .object({ organisation_id: z.uuid({ error: 'Choose an organisation.' }), reason: text(500) })
  .strict()
  .meta({ example: { organisation_id: '5f0c8a9e-2f4b-4c1d-9a7e-3b6d2c1e0f9a', reason: 'Key account of this partner.' } });

/** A routing rule's fields. */
export const ruleShape = {
  name: z.string({ error: RULE_MESSAGES.nameRequired }).max(200),
  countries: z.array(z.string().max(2)).max(300).optional(),
  regions: z
    .array(z.enum(LEAD_REGIONS, { error: RULE_MESSAGES.regionInvalid }))
    .max(LEAD_REGIONS.length)
    .optional(),
  product_interests: z
    .array(z.enum(PRODUCT_CATEGORIES, { error: RULE_MESSAGES.interestInvalid }))
    .max(PRODUCT_CATEGORIES.length)
    .optional(),
  min_value: z.number().min(0, RULE_MESSAGES.valueRange).max(MAX_ESTIMATED_VALUE, RULE_MESSAGES.valueRange).nullable().optional(),
  max_value: z.number().min(0, RULE_MESSAGES.valueRange).max(MAX_ESTIMATED_VALUE, RULE_MESSAGES.valueRange).nullable().optional(),
  method: z.enum(ROUTING_METHODS, { error: RULE_MESSAGES.methodInvalid }),
  organisation_ids: z
    .array(z.uuid({ error: 'Each organisation id must be a valid id.' }), { error: RULE_MESSAGES.organisationsRequired })
    .min(1, RULE_MESSAGES.organisationsRequired)
    .max(200),
  capacity: z.number().int(RULE_MESSAGES.capacityInvalid).min(1, RULE_MESSAGES.capacityInvalid).nullable().optional(),
};
export type RuleFields = z.infer<z.ZodObject<typeof ruleShape>>;
export const RULE_EXAMPLE = {
  name: 'EMEA switches',
  countries: [],
  regions: ['EMEA'],
  product_interests: ['Managed Switches'],
  min_value: 0,
  max_value: 500000,
  method: 'round_robin',
  organisation_ids: ['5f0c8a9e-2f4b-4c1d-9a7e-3b6d2c1e0f9a'],
  capacity: 20,
};
export const ruleCreateBody = z
  .object({ ...ruleShape, position: z.number().int().min(0, RULE_MESSAGES.positionInvalid).optional() })
  .strict()
  .meta({ example: RULE_EXAMPLE });
/** The fields of a rule's answer PUT ignores when react-admin's edit form sends them back. */
export const RULE_READ_ONLY_FIELDS = ['id', 'position', 'organisation_names', 'updated_at'] as const;
export const moveBody = z
  .object({ position: z.number({ error: RULE_MESSAGES.positionInvalid }).int(RULE_MESSAGES.positionInvalid).min(0, RULE_MESSAGES.positionInvalid) })
  .strict()
  .meta({ example: { position: 0 } });

/** The list filters of GET /leads and /leads/export (beside the shared paging, sorting and `q`). */
export const leadListFilters = {
  status: z.enum(LEAD_STANDINGS).optional(),
  organisation_id: z.uuid({ error: 'Organisation id is not valid.' }).optional(),
  source: z.enum(LEAD_SOURCES).optional(),
  region: z.enum(LEAD_REGIONS).optional(),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'Country is a two-letter ISO code.')
    .optional(),
  product_interest: z.enum(PRODUCT_CATEGORIES).optional(),
  project_id: z.uuid({ error: 'Project id is not valid.' }).optional(),
  min_age_days: z.coerce.number().int().min(0).max(3650).optional(),
  max_age_days: z.coerce.number().int().min(1).max(3650).optional(),
};

// ---- answers ----

/** One offer of a lead to an organisation (those who see all leads only). */
export const leadOfferSchema = z.object({
  organisation_id: z.string(),
  organisation_name: z.string().nullable(),
  rule_id: z.string().nullable(),
  method: z.enum(ASSIGNMENT_METHODS),
  reason: z.string(),
  offered_at: timestamp,
  due_at: timestamp,
  outcome: z.enum(OFFER_OUTCOMES),
  answered_at: timestamp.nullable(),
  outcome_reason: z.string().nullable(),
});
export type LeadOffer = z.infer<typeof leadOfferSchema>;

/** The lead as the caller may see it (domain/leads contactVisibleTo): contact details only once its organisation accepted it. */
export const leadSchema = z.object({
  id: z.string(),
  company: z.string(),
  contact_name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  contact_visible: z.boolean(),
  country: z.string().nullable(),
  region: z.enum(LEAD_REGIONS).nullable(),
  product_interest: z.string().nullable(),
  estimated_value: z.number().nullable(),
  source: z.enum(LEAD_SOURCES),
  notes: z.string().nullable(),
  status: z.enum(LEAD_STANDINGS),
  status_label: z.string(),
  organisation_id: z.string().nullable(),
  organisation_name: z.string().nullable(),
  rule_id: z.string().nullable(),
  rule_name: z.string().nullable(),
  assignment_method: z.enum(ASSIGNMENT_METHODS).nullable(),
  assignment_reason: z.string().nullable(),
  assigned_at: timestamp.nullable(),
  due_at: timestamp.nullable(),
  accepted_at: timestamp.nullable(),
  duplicate_of: z.object({ type: z.string(), id: z.string() }).nullable(),
  project_id: z.string().nullable(),
  converted_at: timestamp.nullable(),
  status_reason: z.string().nullable(),
  passed_count: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
  /** Every offer of the lead, oldest first: for those who see all leads only. */
  offers: z.array(leadOfferSchema).optional(),
});
export type Lead = z.infer<typeof leadSchema>;

const pagination = z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() });

export const leadListAnswer = z.union([
  z.array(leadSchema),
  z.object({ success: z.literal(true), data: z.object({ leads: z.array(leadSchema), pagination }) }),
]);
export const leadRecordAnswer = recordAnswer(leadSchema);
/** `?asOf=`: the lead folded from its own events up to that moment (domain/leads/versions.ts); its fields depend on what the caller may see. */
export const leadAnswer = z.union([asOfRecordAnswer, leadRecordAnswer]);
export const leadCreatedAnswers = createdAnswers(leadSchema);

export const convertAnswer = z.object({
  success: z.literal(true),
  message: z.string(),
  project_id: z.string(),
  data: z.object({ project_id: z.string(), lead: leadSchema }),
});
export type ConvertAnswer = z.infer<typeof convertAnswer>;

export const IMPORT_ROW_STATUSES = ['valid', 'invalid', 'already_imported'] as const;
export const importRowSchema = z.object({
  /** The row's line in the file (the header is line 1). */
  line: z.number().int(),
  status: z.enum(IMPORT_ROW_STATUSES),
  company: z.string().nullable(),
  email: z.string().nullable(),
  lead_id: z.string().nullable(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })),
});
export type ImportRow = z.infer<typeof importRowSchema>;
export const importReportSchema = z.object({
  dry_run: z.boolean(),
  total: z.number().int(),
  valid: z.number().int(),
  invalid: z.number().int(),
  already_imported: z.number().int(),
  created: z.number().int(),
  rows: z.array(importRowSchema),
});
export type ImportReport = z.infer<typeof importReportSchema>;
export const leadImportAnswer = z.object({ success: z.literal(true), message: z.string(), data: importReportSchema });
export type LeadImportAnswer = z.infer<typeof leadImportAnswer>;

export const leadReportRowSchema = z.object({
  key: z.string(),
  name: z.string(),
  leads: z.number().int(),
  offers: z.number().int(),
  accepted: z.number().int(),
  declined: z.number().int(),
  lapsed: z.number().int(),
  /** Accepted offers among answered or lapsed ones (pending offers do not count yet), in percent. */
  acceptance_rate: z.number().nullable(),
  /** Mean hours from an offer to its acceptance. */
  avg_hours_to_accept: z.number().nullable(),
  converted: z.number().int(),
  /** Converted leads among those accepted, in percent. */
  conversion_rate: z.number().nullable(),
  /** Delivered orders linked to the deals the leads became (dollars). */
  revenue: z.number(),
});
export type LeadReportRow = z.infer<typeof leadReportRowSchema>;
export const leadReportsSchema = z.object({
  by_organisation: z.array(leadReportRowSchema),
  by_source: z.array(leadReportRowSchema),
  ageing: z.array(z.object({ bucket: z.string(), unassigned: z.number().int(), awaiting: z.number().int(), working: z.number().int() })),
});
export type LeadReports = z.infer<typeof leadReportsSchema>;
export const leadReportsAnswer = z.object({ success: z.literal(true), data: leadReportsSchema });

export const routableOrganisationSchema = z.object({ id: z.string(), name: z.string(), role: z.enum(['partner', 'distributor']) });
export type RoutableOrganisation = z.infer<typeof routableOrganisationSchema>;
export const routableOrganisationsAnswer = z.object({ success: z.literal(true), data: z.array(routableOrganisationSchema) });

/** A lead's status changes (an organisation reads offers to it without reason or actor) and its versions: the shapes every record shares. */
export { statusHistoryAnswer as leadHistoryAnswer, type StatusChange, versionsAnswer as leadVersionsAnswer };

export const ruleSchema = z.object({
  id: z.string(),
  /** 0 is tried first. */
  position: z.number().int(),
  name: z.string(),
  countries: z.array(z.string()),
  regions: z.array(z.enum(LEAD_REGIONS)),
  product_interests: z.array(z.string()),
  min_value: z.number().nullable(),
  max_value: z.number().nullable(),
  method: z.enum(ROUTING_METHODS),
  organisation_ids: z.array(z.string()),
  /** Each organisation's name (null for an account no longer there). */
  organisation_names: z.array(z.string().nullable()),
  /** Open leads an organisation may hold from this rule; null: no limit. */
  capacity: z.number().int().nullable(),
  updated_at: timestamp,
});
export type LeadRule = z.infer<typeof ruleSchema>;
export const ruleListAnswer = z.union([
  z.array(ruleSchema),
  z.object({ success: z.literal(true), data: z.object({ rules: z.array(ruleSchema), pagination }) }),
]);
export const ruleAnswer = recordAnswer(ruleSchema);
export const ruleCreatedAnswers = createdAnswers(ruleSchema);
export const ruleDeletedAnswer = z.object({ success: z.literal(true), message: z.string(), data: z.object({ id: z.string() }) });

/** A downloaded file: the CSV export is sent as it is, not as JSON. */
export const fileAnswer = (description: string) => z.string().meta({ description });
