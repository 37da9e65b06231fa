import { z } from 'zod';
import { MILESTONE_STATUSES, PROJECT_MESSAGES, PROJECT_STATUSES } from '../domain/projects/projects';
import { EXTENSION_STATUSES, REGISTRATION_STATUSES } from '../domain/projects/registration';
import { asOfRecordAnswer, createdAnswers, listAnswer, recordAnswer } from './answers';
import { booleanFilter, listQuerySchema } from './lists';
import { orderDetailSchema, orderSchema, type OrderDetail, type OrderView } from './orders';

/**
 * Projects (deal registrations, spec 001): the project's fields and work status, its registration
 * (protected until it expires, reviewed by an administrator, flagged as a conflict, extended once),
 * its milestones, its team and the orders linked to it.
 *
 * Routes (all under /api):
 * - GET    /projects                          list (own organisation's; all for admins, manufacturers, support) -> projectListAnswer
 * - GET    /projects/stats                    the summary cards                                   -> projectStatisticsAnswer
 * - GET    /projects/partners                 the partners a project may be registered for        -> partnerChoicesAnswer
 * - GET    /projects/:id                      one project (admins: with the colliding registrations) -> projectAnswer
 *                                             with `asOf`: the project as it was then            -> asOfRecordAnswer
 * - POST   /projects                          multipart: the fields of projectCreateFields and an optional boq_file -> projectCreatedAnswers
 * - PUT    /projects/:id                      projectUpdateFields (fields not sent keep their value) -> projectAnswer
 * - DELETE /projects/:id                                                                         -> messageAnswer
 * - GET    /projects/:id/history              every status, registration, extension and content change -> projectHistoryAnswer
 * - GET    /projects/:id/boq                  the bill of quantities file
 * - POST   /projects/:id/review               reviewBody                                          -> projectCommandAnswer
 * - POST   /projects/bulk-review              ids, decision, reason                               -> bulkReviewAnswer
 * - POST   /projects/:id/extension            extensionBody                                       -> projectCommandAnswer
 * - POST   /projects/:id/extension/decision   extensionDecisionBody                               -> projectCommandAnswer
 * - GET    /projects/:id/team                                                                     -> teamAnswer
 * - GET    /projects/:id/team/candidates                                                          -> teamCandidatesAnswer
 * - POST   /projects/:id/team                 teamBody -> 201 teamChangeAnswer
 * - DELETE /projects/:id/team/:userId                                                             -> teamChangeAnswer
 * - GET    /projects/:id/orders                                                                   -> linkedOrdersAnswer
 * - GET    /projects/:id/orders/candidates                                                        -> orderCandidatesAnswer
 * - POST   /projects/:id/orders               orderBody -> 201 linkedOrdersChangeAnswer
 * - DELETE /projects/:id/orders/:orderId                                                          -> linkedOrdersChangeAnswer
 * - GET    /projects/:id/milestones                                                               -> milestoneListAnswer
 * - POST   /projects/milestones               milestoneCreateBody                                 -> milestoneCreatedAnswers
 * - GET    /projects/milestones/:id                                                               -> milestoneAnswer
 * - PUT    /projects/milestones/:id           milestoneUpdateFields (fields not sent keep their value) -> milestoneAnswer
 * - DELETE /projects/milestones/:id                                                               -> messageAnswer
 * Dates are YYYY-MM-DD, moments ISO 8601.
 */

export { EXTENSION_STATUSES, MILESTONE_STATUSES, PROJECT_STATUSES, REGISTRATION_STATUSES };

// ---------------------------------------------------------------------------------------------
// Request bodies

export const FUND_LINK_MESSAGE = 'Choose an approved marketing activity of the same organisation.';

const text = (max: number) => z.union([z.string().max(max), z.null()]).optional();
const email = (label: string) => text(254).refine((value) => !value?.trim() || z.email().safeParse(value.trim()).success, `${label} is invalid.`);
const numberLike = z.union([z.number(), z.string().max(40), z.null()]).optional();

/**
 * The project's fields (spec 001 §3), as JSON or as multipart text; every one optional here, the decider
 * checks the title. A project always has a title, so it may be left out but never sent as null.
 */
export const projectDetailShape = {
  title: z.string({ error: PROJECT_MESSAGES.titleRequired }).max(200).optional(),
  expected_closure_date: text(40).refine(
    (v) => !v?.trim() || /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/.test(v.trim()),
    'Expected closure date must be a date (YYYY-MM-DD).',
  ),
  country_region: text(120),
  sales_person: text(120),
  project_stage: text(120),
  progress: numberLike,
  project_progress_remarks: text(2000),
  end_user_requirements: text(5000),
  end_user_customer_name: text(200),
  end_user_location: text(300),
  end_user_it_head_name: text(120),
  end_user_contact_number: text(40),
  end_user_email: email('End user email'),
  partner_company_name: text(200),
  partner_company_location: text(300),
  partner_email: email('Partner email'),
  partner_contact_number: text(40),
  value: numberLike,
  fund_request_id: z.union([z.uuid(), z.literal(''), z.null()], { error: FUND_LINK_MESSAGE }).optional(),
};

/** The text fields of the multipart registration (the BoQ file travels beside them as `boq_file`). */
export const projectCreateFields = z
  .object({
    ...projectDetailShape,
    company_id: z.union([z.uuid({ error: 'Please choose a partner.' }), z.literal('')]).optional(),
    status: z.enum(PROJECT_STATUSES).optional(),
  })
  .strict();

/** The update's own fields; the route also accepts (and ignores) the answer's read-only fields, PROJECT_READ_ONLY_FIELDS. */
export const projectUpdateFields = {
  ...projectDetailShape,
  status: z.enum(PROJECT_STATUSES, { error: `Status must be one of: ${PROJECT_STATUSES.join(', ')}.` }).optional(),
  status_reason: text(500),
};

/** Fields of the answer that an edit form sends back unchanged: accepted and ignored. */
export const PROJECT_READ_ONLY_FIELDS = [
  'id',
  'next_statuses',
  'client',
  'company_id',
  'organisation_id',
  'company',
  'company_name',
  'created_by',
  'created_by_name',
  'boq_file',
  'boq_file_url',
  'registration_status',
  'registration_state',
  'submitted_at',
  'expires_at',
  'review_note',
  'reviewed_at',
  'conflict',
  'conflicting_project',
  'later_registrations',
  'possible_conflicts',
  'registration_warning',
  'extension_status',
  'extension_reason',
  'extension_decision_note',
  'extension_requested_at',
  'team_size',
  'milestone_count',
  'created_at',
  'updated_at',
  'project_teams',
] as const;

export const milestoneFields = {
  name: text(200),
  title: text(200),
  date: text(40),
  status: z.enum(MILESTONE_STATUSES, { error: PROJECT_MESSAGES.milestoneStatus }).optional(),
};
export const milestoneCreateBody = z
  .object({ project_id: z.uuid({ error: 'Project id is not valid.' }), ...milestoneFields })
  .strict()
  .meta({ example: { project_id: '5f0c8a9e-2f4b-4c1d-9a7e-3b6d2c1e0f9a', name: 'Site survey', date: '2027-01-15', status: 'pending' } });
export const MILESTONE_READ_ONLY_FIELDS = ['id', 'project_id', 'created_at', 'updated_at'] as const;

export const reviewBody = z
  .object({ decision: z.enum(['approved', 'rejected'], { error: 'Decision must be approved or rejected.' }), reason: text(5000) })
  .strict()
  .meta({ example: { decision: 'rejected', reason: 'Another partner registered this customer first.' } });
export const extensionBody = z
  .object({ reason: z.string({ error: 'Please give a reason for the extension.' }).max(5000) })
  .strict()
  .meta({ example: { reason: "The customer's board meets after the protection ends." } });
export const extensionDecisionBody = z
  .object({ decision: z.enum(['approved', 'declined'], { error: 'Decision must be approved or declined.' }), reason: text(5000) })
  .strict()
  .meta({ example: { decision: 'approved', reason: 'Board date confirmed.' } });
export const teamBody = z
  .object({ user_id: z.uuid({ error: 'Choose a member of your organisation.' }) })
  .strict()
  .meta({ example: { user_id: '5f0c8a9e-2f4b-4c1d-9a7e-3b6d2c1e0f9a' } });
export const orderBody = z
  .object({ order_id: z.uuid({ error: 'Choose one of your orders.' }) })
  .strict()
  .meta({ example: { order_id: '5f0c8a9e-2f4b-4c1d-9a7e-3b6d2c1e0f9a' } });
export const memberParam = z
  .object({ id: z.uuid({ error: 'The id in the address is not valid.' }), userId: z.uuid({ error: 'The user id in the address is not valid.' }) })
  .strict();
export const orderParam = z
  .object({ id: z.uuid({ error: 'The id in the address is not valid.' }), orderId: z.uuid({ error: 'The order id in the address is not valid.' }) })
  .strict();

// ---------------------------------------------------------------------------------------------
// Answers

const timestamp = z.string().meta({ description: 'ISO 8601 date and time' });
const day = z.string().meta({ description: 'YYYY-MM-DD' });

export const REGISTRATION_STATES = ['protected', 'expiring_soon', 'expired', 'rejected', 'conflict_review'] as const;
export type RegistrationState = (typeof REGISTRATION_STATES)[number];

/** The project as lists and every answer show it (client is the end customer; company the registering partner). */
export const projectSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(PROJECT_STATUSES),
  next_statuses: z.array(z.enum(PROJECT_STATUSES)),
  progress: z.number().int(),
  value: z.number().nullable(),
  client: z.string().nullable(),
  company_id: z.string(),
  organisation_id: z.string(),
  company: z.object({ id: z.string(), company_name: z.string().nullable() }),
  company_name: z.string().nullable(),
  created_by: z.string(),
  created_by_name: z.string().nullable(),
  expected_closure_date: day.nullable(),
  country_region: z.string().nullable(),
  sales_person: z.string().nullable(),
  project_stage: z.string().nullable(),
  project_progress_remarks: z.string().nullable(),
  end_user_requirements: z.string().nullable(),
  end_user_customer_name: z.string().nullable(),
  end_user_location: z.string().nullable(),
  end_user_it_head_name: z.string().nullable(),
  end_user_contact_number: z.string().nullable(),
  end_user_email: z.string().nullable(),
  partner_company_name: z.string().nullable(),
  partner_company_location: z.string().nullable(),
  partner_email: z.string().nullable(),
  partner_contact_number: z.string().nullable(),
  fund_request_id: z.string().nullable(),
  boq_file: z.string().nullable(),
  boq_file_url: z.string().nullable(),
  registration_status: z.enum(REGISTRATION_STATUSES),
  registration_state: z.enum(REGISTRATION_STATES),
  submitted_at: timestamp,
  expires_at: timestamp,
  review_note: z.string().nullable(),
  reviewed_at: timestamp.nullable(),
  /** Only whether the registration is under conflict review; admins get the other registration beside it. */
  conflict: z.object({ under_review: z.literal(true) }).nullable(),
  extension_status: z.enum(EXTENSION_STATUSES),
  extension_reason: z.string().nullable(),
  extension_decision_note: z.string().nullable(),
  extension_requested_at: timestamp.nullable(),
  team_size: z.number().int(),
  milestone_count: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Project = z.infer<typeof projectSchema>;

/** Another organisation's live registration whose customer name is only similar (not blocking). */
export const possibleConflictSchema = z.object({
  id: z.string(),
  title: z.string().nullable(),
  company_name: z.string().nullable(),
  end_user_customer_name: z.string().nullable(),
  registration_status: z.string(),
  similarity: z.number(),
});
export type PossibleConflict = z.infer<typeof possibleConflictSchema>;

/** One project as its page shows it: the registering partner is warned; admins also see the registrations it collides with. */
export const projectDetailSchema = projectSchema.extend({
  /** To the registering partner: a registration for this customer may already exist (nobody named). */
  registration_warning: z.string().nullable(),
  /** Admins only: the registration this one collides with, and later ones that collide with it. */
  conflict_with: z.string().nullable().optional(),
  conflicting_project: projectSchema.nullable().optional(),
  later_registrations: z.array(projectSchema).optional(),
  /** Admins only: other organisations' live registrations whose customer name is only similar. */
  possible_conflicts: z.array(possibleConflictSchema).optional(),
});
export type ProjectDetail = z.infer<typeof projectDetailSchema>;

export const projectListAnswer = listAnswer('projects', projectSchema);
export const projectAnswer = recordAnswer(projectDetailSchema);
export const projectCreatedAnswers = createdAnswers(projectDetailSchema);

/**
 * The record or, with `asOf`, the project as it was (domain/versionedRecords.ts): its recorded fields as the reader
 * may see them (people and orders by name, internal ids left out for non-admins). The live one is tried first, it
 * never matches an as-of answer (no `next_statuses`).
 */
export const projectReadAnswer = z.union([projectAnswer, asOfRecordAnswer]);

export const projectCommandAnswer = z.object({ success: z.literal(true), message: z.string(), data: projectDetailSchema });
export const messageAnswer = z.object({ success: z.literal(true), message: z.string() });

export const projectStatisticsSchema = z.object({
  totalProjects: z.number().int(),
  activeProjects: z.number().int(),
  completedProjects: z.number().int(),
  totalValue: z.number(),
  conflicts: z.number().int(),
  pendingReview: z.number().int(),
  extensionRequests: z.number().int(),
  expiringSoon: z.number().int(),
});
export type ProjectStatistics = z.infer<typeof projectStatisticsSchema>;
export const projectStatisticsAnswer = z.object({ success: z.literal(true), data: projectStatisticsSchema });

export const partnerChoiceSchema = z.object({ id: z.string(), company_name: z.string() });
export type PartnerChoice = z.infer<typeof partnerChoiceSchema>;
export const partnerChoicesAnswer = z.object({ success: z.literal(true), data: z.array(partnerChoiceSchema) });

export const HISTORY_CATEGORIES = ['status', 'registration', 'extension', 'project', 'milestone', 'team', 'order'] as const;
/** One change of the project in words: the status history's row, with what happened and its kind. */
export const projectHistoryEntrySchema = z.object({
  id: z.string(),
  record_type: z.literal('projects'),
  record_id: z.string(),
  event_type: z.string(),
  category: z.enum(HISTORY_CATEGORIES),
  action: z.string(),
  reason: z.string().nullable(),
  from_status: z.string().nullable(),
  to_status: z.string().nullable(),
  actor_id: z.string().nullable(),
  actor_name: z.string().nullable(),
  actor_role: z.string().nullable(),
  occurred_at: timestamp,
});
export type ProjectHistoryEntry = z.infer<typeof projectHistoryEntrySchema>;
export const projectHistoryAnswer = z.object({ success: z.literal(true), data: z.array(projectHistoryEntrySchema) });

export const bulkReviewAnswer = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ succeeded: z.array(z.string()), refused: z.array(z.object({ id: z.string(), code: z.string(), message: z.string() })) }),
});
export type BulkReviewOutcome = z.infer<typeof bulkReviewAnswer>['data'];

// ---- team ----

export const teamCandidateSchema = z.object({ id: z.string(), full_name: z.string(), email: z.string(), role: z.string() });
export type TeamCandidate = z.infer<typeof teamCandidateSchema>;
/** project_teams of spec 001 §3: the member's name, e-mail and role. */
export const teamMemberSchema = teamCandidateSchema.extend({ user_id: z.string(), user: teamCandidateSchema, added_at: timestamp });
export type TeamMember = z.infer<typeof teamMemberSchema>;
export const teamAnswer = z.object({ success: z.literal(true), data: z.array(teamMemberSchema) });
export const teamChangeAnswer = teamAnswer.extend({ message: z.string() });
export const teamCandidatesAnswer = z.object({ success: z.literal(true), data: z.array(teamCandidateSchema) });

// ---- linked orders ----

/** An order as the orders module answers it (projections/orders.ts `toOrderView`). */
export type ProjectOrder = OrderView;
/** A linked order, read one by one: with its serial numbers. */
export type LinkedOrder = OrderDetail;
export const linkedOrdersAnswer = z.object({ success: z.literal(true), data: z.array(orderDetailSchema) });
export const linkedOrdersChangeAnswer = linkedOrdersAnswer.extend({ message: z.string() });
export const orderCandidatesAnswer = z.object({ success: z.literal(true), data: z.array(orderSchema) });

// ---- milestones (spec 001 §7) ----

export const milestoneSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  /** The name again, under the specification's word. */
  title: z.string(),
  date: day,
  status: z.enum(MILESTONE_STATUSES),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Milestone = z.infer<typeof milestoneSchema>;
export const milestoneListAnswer = z.object({ success: z.literal(true), data: z.array(milestoneSchema) });
export const milestoneAnswer = recordAnswer(milestoneSchema);
export const milestoneCreatedAnswers = createdAnswers(milestoneSchema);

export const PROJECT_SORT_FIELDS = [
  'id',
  'created_at',
  'updated_at',
  'title',
  'status',
  'value',
  'progress',
  'expires_at',
  'expected_closure_date',
  'company_name',
  'end_user_customer_name',
  'registration_status',
  'submitted_at',
  'review_priority',
] as const;
export type ProjectSortField = (typeof PROJECT_SORT_FIELDS)[number];

/** The query of GET /projects and its export (and the dashboards' counts of it). */
export const projectListQuery = listQuerySchema(
  {
    status: z.enum(PROJECT_STATUSES).optional(),
    registration_status: z.enum(REGISTRATION_STATUSES).optional(),
    active: booleanFilter.optional(),
    expiring_soon: booleanFilter.optional(),
    extension_status: z.enum(EXTENSION_STATUSES).optional(),
    linkable: booleanFilter.optional(),
    organisation_id: z.uuid().optional(),
  },
  PROJECT_SORT_FIELDS,
);
export type ProjectListQuery = z.output<typeof projectListQuery>;
