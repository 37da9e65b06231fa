import { z } from 'zod';
import { DATE_RANGES, KPI_LISTS } from '../domain/dashboards/kpis';
import { DASHBOARD_KINDS } from '../domain/dashboards/quickActions';
import { programmeCardSchema } from './programme';

/**
 * The dashboards: each role's figures with their KPI cards, the quick actions and the recent activity.
 *
 * Routes (all under /api; `dashboardQuery` on the five figures' routes):
 * - GET /dashboard/manufacturer/stats   `manufacturerDashboardAnswer`
 * - GET /dashboard/stats                the partner dashboard — `partnerDashboardAnswer`
 * - GET /dashboard/distributor/stats    `distributorDashboardAnswer`
 * - GET /dashboard/support/stats        `supportDashboardAnswer`
 * - GET /dashboard/admin/stats          `adminDashboardAnswer`
 * - GET /dashboard/quick-actions        `quickActionsQuery` — `quickActionsAnswer`
 * - GET /dashboard/recent-activity      `recentActivityQuery` — `recentActivityAnswer`
 * Money is in currency units; days are YYYY-MM-DD.
 */

const DAY_TEXT = z.iso.date({ error: 'Dates are written YYYY-MM-DD.' });

/** The dashboard's date range: `range` (default this month), and for `custom` the first and last day. */
export const dashboardQuery = z
  .object({
    user_id: z.uuid({ error: 'User id must be a user id.' }).optional(),
    range: z.enum(DATE_RANGES, { error: `Range must be one of ${DATE_RANGES.join(', ')}.` }).optional(),
    from: DAY_TEXT.optional(),
    to: DAY_TEXT.optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.range === 'custom' && (!q.from || !q.to))
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'A custom range needs both a first day (from) and a last day (to).' });
    else if (q.range === 'custom' && q.from! > q.to!)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'The last day of the range cannot be before its first day.' });
    else if (q.range !== 'custom' && (q.from || q.to))
      ctx.addIssue({ code: 'custom', path: ['range'], message: 'From and to are only taken with range=custom.' });
  });
export type DashboardQuery = z.output<typeof dashboardQuery>;

export const quickActionsQuery = z
  .object({
    user_id: z.uuid({ error: 'User id must be a user id.' }).optional(),
    dashboard: z.enum(DASHBOARD_KINDS).optional(),
  })
  .strict();

export const recentActivityQuery = z
  .object({
    user_id: z.uuid({ error: 'User id must be a user id.' }).optional(),
    limit: z.coerce.number().int().min(1).max(50).default(10),
  })
  .strict();

// ---- the parts the dashboards share ----

/** Whose dashboard it is. */
export const dashboardUserSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  email: z.string(),
  role: z.string(),
  company_name: z.string().nullable(),
});
export type DashboardUser = z.infer<typeof dashboardUserSchema>;

const growth = z.number().nullable();

export const weekPointSchema = z.object({ week: z.string(), count: z.number().int(), value: z.number() });
export const monthPointSchema = z.object({ month: z.string(), count: z.number().int(), value: z.number() });
export const ticketDaySchema = z.object({ day: z.string(), opened: z.number().int(), resolved: z.number().int() });
export type WeekPoint = z.infer<typeof weekPointSchema>;
export type MonthPoint = z.infer<typeof monthPointSchema>;
export type TicketDay = z.infer<typeof ticketDaySchema>;
export const projectsByStatusSchema = z.object({
  Planning: z.number().int(),
  'In Progress': z.number().int(),
  'On Hold': z.number().int(),
  Completed: z.number().int(),
});
export const projectsByRegistrationSchema = z.object({
  pending: z.number().int(),
  conflict: z.number().int(),
  approved: z.number().int(),
  rejected: z.number().int(),
  expired: z.number().int(),
});

/** A KPI card: the count of a list as the viewer would read it, and the screen filtered to those records. */
export const kpiCardSchema = z.object({
  id: z.string(),
  label: z.string(),
  definition: z.string(),
  count: z.number().int(),
  /** The same count over the period just before, for cards that follow the date range; else null. */
  previousCount: z.number().int().nullable(),
  growthPercentage: growth,
  list: z.enum(Object.keys(KPI_LISTS) as [keyof typeof KPI_LISTS, ...Array<keyof typeof KPI_LISTS>]),
  /** The list's API route and the filter it is called with: its total is `count`. */
  api: z.string(),
  filter: z.record(z.string(), z.union([z.string(), z.boolean()])),
  /** The screen the card opens, filtered to exactly the records counted. */
  link: z.string(),
});
export type KpiCard = z.infer<typeof kpiCardSchema>;

export const dashboardRangeSchema = z.object({ key: z.string(), from: z.string(), to: z.string() });

export const rebateProgressSchema = z.object({
  progressPercentage: z.number().nullable(),
  remainingToNextTier: z.number().nullable(),
  nextTier: z.string().nullable(),
  currentTier: z.string().nullable(),
  quarterlyPurchases: z.number(),
  quarterlyTarget: z.number().nullable(),
  quarterLabel: z.string(),
});
export type RebateProgress = z.infer<typeof rebateProgressSchema>;

/** The funds card: the balance over every fund the organisation holds (all organisations' for admins) and what awaits a decision. */
export const fundCardSchema = z.object({
  allocated: z.number(),
  accrued: z.number(),
  reserved: z.number(),
  claimed: z.number(),
  paid: z.number(),
  expired: z.number(),
  available: z.number(),
  pending_requests: z.number().int(),
  pending_claims: z.number().int(),
});
export type FundCard = z.infer<typeof fundCardSchema>;

/** What every dashboard's figures end with: its KPI cards and the range they follow. */
const withKpis = { kpis: z.array(kpiCardSchema), range: dashboardRangeSchema };

const dashboardAnswer = <Figures extends z.ZodType>(figures: Figures) =>
  z.object({ success: z.literal(true), message: z.string(), data: z.object({ data: figures, user: dashboardUserSchema.nullable() }) });

// ---- each role's figures ----

export const manufacturerDashboardSchema = z.object({
  managedPartners: z.object({ count: z.number().int(), newThisMonth: z.number().int() }),
  activePartners: z.object({ count: z.number().int(), previousCount: z.number().int(), growthPercentage: growth }),
  monthlyOrders: z.object({ count: z.number().int(), value: z.number(), growthPercentage: growth }),
  activeProjects: z.object({ count: z.number().int(), dueThisWeek: z.number().int() }),
  charts: z.object({ ordersPerWeek: z.array(weekPointSchema), orderValuePerMonth: z.array(monthPointSchema), projectsByStatus: projectsByStatusSchema }),
  ...withKpis,
});
export type ManufacturerDashboard = z.infer<typeof manufacturerDashboardSchema>;

export const distributorDashboardSchema = z.object({
  inventoryItems: z.object({ items: z.number().int(), inStock: z.number(), lowStock: z.number().int() }),
  ordersToday: z.object({ count: z.number().int(), growthPercentage: growth }),
  partnersServed: z.object({ count: z.number().int(), newThisMonth: z.number().int() }),
  pendingShipments: z.object({ count: z.number().int(), onTime: z.number() }),
  ordersThisMonth: z.number().int(),
  orderValueThisMonth: z.number(),
  /** Null for those who may not read the rebate figures. */
  rebateProgress: rebateProgressSchema.nullable(),
  charts: z.object({ ordersPerWeek: z.array(weekPointSchema), orderValuePerMonth: z.array(monthPointSchema) }),
  ...withKpis,
});
export type DistributorDashboard = z.infer<typeof distributorDashboardSchema>;

export const partnerDashboardSchema = z.object({
  /** Null for those who may not read the funds. */
  funds: fundCardSchema.nullable(),
  /** The partner programme's tier card; null outside the programme. */
  programme: programmeCardSchema.nullable(),
  projects: z.object({ total: z.number().int(), active: z.number().int(), expiringSoon: z.number().int(), byRegistration: projectsByRegistrationSchema }),
  orders: z.object({ thisMonth: z.number().int(), valueThisMonth: z.number(), growthPercentage: growth, open: z.number().int() }),
  /** Null for those who may not read the rebate figures. */
  rebateProgress: rebateProgressSchema.nullable(),
  openTickets: z.object({ count: z.number().int(), overdue: z.number().int() }),
  charts: z.object({
    ordersPerWeek: z.array(weekPointSchema),
    orderValuePerMonth: z.array(monthPointSchema),
    projectsByRegistration: projectsByRegistrationSchema,
  }),
  ...withKpis,
});
export type PartnerDashboard = z.infer<typeof partnerDashboardSchema>;

export const supportDashboardSchema = z.object({
  totalTickets: z.object({ count: z.number().int(), active: z.number().int() }),
  statusBreakdown: z.object({ open: z.number().int(), in_progress: z.number().int() }),
  urgentTickets: z.object({ highPriority: z.number().int(), overdue: z.number().int() }),
  todayStats: z.object({ resolved: z.number().int(), created: z.number().int(), netChange: z.number().int() }),
  weeklyStats: z.object({ created: z.number().int() }),
  /** The tickets assigned to the dashboard's user. */
  assignedToUser: z.object({ active: z.number().int(), overdue: z.number().int() }).nullable(),
  charts: z.object({ ticketsOpenedResolved: z.array(ticketDaySchema) }),
  ...withKpis,
});
export type SupportDashboard = z.infer<typeof supportDashboardSchema>;

export const adminDashboardSchema = z.object({
  pendingApprovals: z.number().int(),
  conflicts: z.number().int(),
  extensionRequests: z.number().int(),
  openRebates: z.number().int(),
  overdueTickets: z.number().int(),
  ordersThisMonth: z.object({ count: z.number().int(), value: z.number(), growthPercentage: growth }),
  /** Null when the queue store does not answer. */
  failedJobs: z.number().int().nullable(),
  funds: fundCardSchema.nullable(),
  charts: z.object({ ordersPerWeek: z.array(weekPointSchema), ticketsOpenedResolved: z.array(ticketDaySchema), projectsByStatus: projectsByStatusSchema }),
  ...withKpis,
});
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;

export const manufacturerDashboardAnswer = dashboardAnswer(manufacturerDashboardSchema);
export const distributorDashboardAnswer = dashboardAnswer(distributorDashboardSchema);
export const partnerDashboardAnswer = dashboardAnswer(partnerDashboardSchema);
export const supportDashboardAnswer = dashboardAnswer(supportDashboardSchema);
export const adminDashboardAnswer = dashboardAnswer(adminDashboardSchema);

// ---- quick actions and recent activity ----

export const quickActionSchema = z.object({ key: z.string(), label: z.string(), description: z.string(), to: z.string() });
export type QuickAction = z.infer<typeof quickActionSchema>;
export const quickActionsAnswer = dashboardAnswer(z.array(quickActionSchema));
export type QuickActionsAnswer = z.infer<typeof quickActionsAnswer>;

/** A line of recent activity: a status change (or, on an organisation's dashboard, a line of its feed). */
export const activityItemSchema = z.object({
  id: z.string(),
  record_type: z.string(),
  record_id: z.string(),
  title: z.string(),
  message: z.string(),
  status: z.string(),
  previous_status: z.string().nullable(),
  actor_id: z.string().nullable(),
  actor_name: z.string().nullable(),
  occurred_at: z.string(),
  link: z.string().nullable(),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

export const recentPartnerSchema = z.object({ id: z.string(), name: z.string(), message: z.string(), createdAt: z.string(), link: z.string() });
export const recentProjectSchema = z.object({ id: z.string(), title: z.string(), message: z.string(), createdAt: z.string(), link: z.string() });
export const recentActivitySchema = z.object({
  activities: z.array(activityItemSchema),
  recentPartners: z.array(recentPartnerSchema),
  recentProjects: z.array(recentProjectSchema),
});
export type RecentActivity = z.infer<typeof recentActivitySchema>;
export const recentActivityAnswer = dashboardAnswer(recentActivitySchema);
export type RecentActivityAnswer = z.infer<typeof recentActivityAnswer>;
