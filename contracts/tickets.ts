import { z } from 'zod';
import { TICKET_CATEGORIES, TICKET_NUMBER_PATTERN, TICKET_PRIORITIES, TICKET_STATUSES } from '../domain/tickets/tickets';
import { booleanFilter, listQuerySchema } from './lists';
import { acceptedAnswer, createdAnswers, recordAnswer } from './answers';

/**
 * Support tickets (cases), their conversation and attachments, warranty look-ups and returns (RMA).
 * Partners, distributors and their teams see their organisation's tickets without internal notes;
 * support staff and administrators see every ticket with them.
 *
 * Routes (all under /api):
 * - GET    /tickets                    `ticketListAnswer` (the paged envelope adds `statistics` and `pagination`)
 * - GET    /tickets/statistics         `ticketStatisticsAnswer`
 * - GET    /tickets/dashboard          support staff and admins: `supportDashboardAnswer`
 * - GET    /tickets/assignees          `assigneesAnswer`
 * - GET    /tickets/attachments/:name  the file itself (its own content type)
 * - GET    /tickets/:id                by id or number: `ticketAnswer` (with its comments); with `asOf` identity's `asOfRecordAnswer`
 * - GET    /tickets/:id/comments       `commentsAnswer`
 * - GET    /tickets/:id/history        identity's `statusHistoryAnswer`
 * - POST   /tickets                    multipart `ticketCreateFields` (+ attachments) → `ticketCreatedAnswers`
 * - POST   /warranty/checks            `warrantyCheckBody` → `warrantyCheckAnswer`
 * - POST   /tickets/rma                `rmaBody` → `ticketCreatedAnswers`
 * - PATCH  /tickets/:id/status         `statusBody` → `ticketAnswer`
 * - POST   /tickets/:id/comments       `commentBody` → `commentCreatedAnswers`
 * - PATCH  /tickets/:id/assign         `assignBody` → `ticketAnswer`
 * - PUT    /tickets/:id                `ticketUpdateFields` → `ticketAnswer`
 * - DELETE /tickets/:id                → `deletedTicketAnswer` (the ticket as it was, without comments)
 * Moments are ISO 8601 strings.
 */

// ---- answers ----

/** The Ticket entity of spec 002 §3 (ticket_id is the ticket number), plus what the queue and detail views show. */
export const ticketSchema = z.object({
  id: z.string(),
  ticket_id: z.string(),
  ticket_number: z.string(),
  title: z.string(),
  description: z.string(),
  priority: z.string(),
  category: z.string(),
  status: z.string(),
  assigned_to: z.string().nullable(),
  assignee: z.object({ id: z.string(), full_name: z.string().nullable() }).nullable(),
  created_by: z.string(),
  creator: z.object({ id: z.string(), full_name: z.string().nullable() }),
  organisation_id: z.string(),
  company_name: z.string().nullable(),
  tags: z.array(z.string()),
  due_date: z.string(),
  due_date_given: z.boolean(),
  is_overdue: z.boolean(),
  overdue_at: z.string().nullable(),
  resolution_notes: z.string().nullable(),
  initial_comment: z.string().nullable(),
  attachments: z.array(z.object({ name: z.string(), original_name: z.string(), type: z.string(), url: z.string() })),
  /** Internal notes count only for those who see them. */
  comment_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  resolved_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  rma: z
    .object({ serial_number: z.string(), order_id: z.string().nullable(), order_number: z.string().nullable(), product_name: z.string().nullable() })
    .nullable(),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketCommentSchema = z.object({
  id: z.string(),
  ticket_id: z.string(),
  comment: z.string(),
  is_internal: z.boolean(),
  /** initial, comment, status or assignment. */
  kind: z.string(),
  status_to: z.string().nullable(),
  author_id: z.string().nullable(),
  author: z.object({ id: z.string().nullable(), full_name: z.string().nullable(), role: z.string().nullable() }),
  created_at: z.string(),
});
export type TicketComment = z.infer<typeof ticketCommentSchema>;

export const ticketWithCommentsSchema = ticketSchema.extend({ comments: z.array(ticketCommentSchema) });
export type TicketWithComments = z.infer<typeof ticketWithCommentsSchema>;

/** The My Cases cards (spec 002 §3) plus overdue. */
export const ticketStatisticsSchema = z.object({
  total: z.number().int(),
  open: z.number().int(),
  in_progress: z.number().int(),
  resolved: z.number().int(),
  closed: z.number().int(),
  overdue: z.number().int(),
});
export type TicketStatistics = z.infer<typeof ticketStatisticsSchema>;

/** The support dashboard's ticket figures (spec 001 §5). */
export const supportDashboardFiguresSchema = z.object({
  totalTickets: z.object({ count: z.number().int(), active: z.number().int() }),
  statusBreakdown: z.object({ open: z.number().int(), in_progress: z.number().int() }),
  urgentTickets: z.object({ highPriority: z.number().int(), overdue: z.number().int() }),
  todayStats: z.object({ resolved: z.number().int(), created: z.number().int(), netChange: z.number().int() }),
  weeklyStats: z.object({ created: z.number().int() }),
});
export type SupportDashboardFigures = z.infer<typeof supportDashboardFiguresSchema>;

export const ticketAssigneeSchema = z.object({ id: z.string(), full_name: z.string(), role: z.string() });
export type TicketAssignee = z.infer<typeof ticketAssigneeSchema>;

/** react-admin's bare array, or the paged envelope with the statistics cards' figures and the specification's pagination. */
export const ticketListAnswer = z.union([
  z.array(ticketSchema),
  z.object({
    success: z.literal(true),
    data: z.object({
      tickets: z.array(ticketSchema),
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
      totalPages: z.number().int(),
      statistics: ticketStatisticsSchema,
      pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), total_pages: z.number().int() }),
    }),
  }),
]);
export type TicketListPage = Extract<z.infer<typeof ticketListAnswer>, { success: true }>['data'];

export const ticketStatisticsAnswer = z.object({ success: z.literal(true), data: ticketStatisticsSchema });
export const supportDashboardAnswer = z.object({ success: z.literal(true), data: supportDashboardFiguresSchema });
export const assigneesAnswer = z.object({ success: z.literal(true), data: z.array(ticketAssigneeSchema) });
export const commentsAnswer = z.object({ success: z.literal(true), data: z.array(ticketCommentSchema) });
export const ticketAnswer = recordAnswer(ticketWithCommentsSchema);
export const ticketCreatedAnswers = createdAnswers(ticketWithCommentsSchema);
export const deletedTicketAnswer = recordAnswer(ticketSchema);

/** A reply added: it (null if not readable yet) and the whole conversation. */
export const commentCreatedAnswer = z.object({
  success: z.literal(true),
  message: z.string(),
  data: ticketCommentSchema.nullable(),
  comments: z.array(ticketCommentSchema),
});
export type CommentCreatedAnswer = z.infer<typeof commentCreatedAnswer>;
export const commentCreatedAnswers = { 200: commentCreatedAnswer, 201: commentCreatedAnswer, 202: acceptedAnswer } as const;

/** A shipped unit and its warranty. */
export const unitWarrantySchema = z.object({
  serial_number: z.string(),
  product_id: z.string(),
  product_name: z.string(),
  category: z.string().nullable(),
  order_id: z.string(),
  order_number: z.string(),
  organisation_id: z.string(),
  company_name: z.string().nullable(),
  shipped_at: z.string(),
  delivered_at: z.string().nullable(),
  /** Delivery, or shipping while the unit is on its way: where the warranty starts. */
  warranty_start: z.string(),
  warranty_months: z.number().int(),
  warranty_ends_at: z.string(),
  under_warranty: z.boolean(),
});
export type UnitWarranty = z.infer<typeof unitWarrantySchema>;
export const warrantyCheckAnswer = z.object({ success: z.literal(true), found: z.boolean(), message: z.string(), data: unitWarrantySchema.nullable() });
export type WarrantyCheckAnswer = z.infer<typeof warrantyCheckAnswer>;

// ---- requests ----

/** A ticket is addressed by its id or by its number (TCK-2026-000123). */
export const ticketParam = z
  .object({ id: z.union([z.uuid(), z.string().trim().toUpperCase().regex(TICKET_NUMBER_PATTERN)], { error: 'The ticket id in the address is not valid.' }) })
  .strict();

/** The text fields of the create form (multipart); the business rules (required, enums, dates) are the decider's. */
export const ticketCreateFields = z
  .object({
    title: z.string().max(200, 'Title may have at most 200 characters.').optional(),
    description: z.string().max(10_000, 'Description may have at most 10000 characters.').optional(),
    priority: z.string().max(40).optional(),
    category: z.string().max(40).optional(),
    assigned_to: z.string().max(100).optional(),
    initial_comment: z.string().max(10_000).optional(),
    due_date: z.string().max(40).optional(),
    tags: z.union([z.string().max(1000), z.array(z.string().max(1000)).max(50)]).optional(),
  })
  .strict();

/** A status in any case, with `_` for a space (in_progress); an unknown one is left for the decider to refuse. */
export const statusValue = z
  .string()
  .max(40)
  .transform((value) => TICKET_STATUSES.find((status) => status.toLowerCase() === value.trim().toLowerCase().replace(/_/g, ' ')) ?? value.trim());

export const statusBody = z
  .object({
    status: statusValue,
    comment: z.string().max(10_000).nullable().optional(),
    is_internal: z.boolean().optional(),
    resolution_notes: z.string().max(10_000).nullable().optional(),
  })
  .strict()
  .meta({ example: { status: 'In Progress', comment: 'Looking into it.', is_internal: false } });

export const commentBody = z
  .object({ comment: z.string({ error: 'Comment is required.' }).max(10_000), is_internal: z.boolean().optional() })
  .strict()
  .meta({ example: { comment: 'The switch is on firmware 4.2.0.', is_internal: false } });

export const assignBody = z
  .object({ assigned_to: z.string().max(100).nullable().optional(), comment: z.string().max(10_000).nullable().optional() })
  .strict()
  .meta({ example: { assigned_to: '00000000-0000-4000-8000-000000000000', comment: 'Please take this one.' } });

const serialNumber = z
  .string({ error: 'Serial number is required.' })
  .trim()
  .min(1, 'Serial number is required.')
  .max(60, 'A serial number has at most 60 characters.');

export const warrantyCheckBody = z
  .object({ serial_number: serialNumber })
  .strict()
  .meta({ example: { serial_number: 'SN-2026-001001-01001' } });

export const rmaBody = z
  .object({
    serial_number: serialNumber,
    description: z.string().max(10_000).optional(),
    title: z.string().max(200).optional(),
  })
  .strict()
  .meta({ example: { serial_number: 'SN-2026-001001-01001', description: 'The unit does not power on after a storm.' } });

/** The fields of an edit; the route ignores the ticket's read-only fields react-admin sends back. */
export const ticketUpdateFields = {
  title: z.string().max(200).optional(),
  description: z.string().max(10_000).optional(),
  priority: z.string().max(40).optional(),
  category: z.string().max(40).optional(),
  tags: z.union([z.string().max(1000), z.array(z.string().max(1000)).max(50)]).optional(),
  due_date: z.string().max(40).nullable().optional(),
};

export const TICKET_READ_ONLY_FIELDS = [
  'id',
  'ticket_id',
  'ticket_number',
  'status',
  'assigned_to',
  'assignee',
  'created_by',
  'creator',
  'organisation_id',
  'company_name',
  'due_date_given',
  'is_overdue',
  'overdue_at',
  'resolution_notes',
  'initial_comment',
  'attachments',
  'comment_count',
  'comments',
  'created_at',
  'updated_at',
  'resolved_at',
  'closed_at',
  'rma',
];

/** The query of GET /tickets (and the dashboards' counts of it). */
export const ticketListQuery = listQuerySchema(
  {
    status: statusValue.pipe(z.enum(TICKET_STATUSES, { error: `Status must be one of ${TICKET_STATUSES.join(', ')}.` })).optional(),
    priority: z.enum(TICKET_PRIORITIES).optional(),
    category: z.enum(TICKET_CATEGORIES).optional(),
    assigned_to: z.union([z.uuid(), z.literal('unassigned')]).optional(),
    organisation_id: z.uuid().optional(),
    overdue: booleanFilter.optional(),
    active: booleanFilter.optional(),
    urgent: booleanFilter.optional(),
  },
  ['created_at', 'updated_at', 'due_at', 'priority', 'status', 'ticket_number', 'title', 'company_name'],
);
