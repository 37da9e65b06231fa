import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminDashboardAnswer,
  dashboardQuery as userQuery,
  distributorDashboardAnswer,
  manufacturerDashboardAnswer,
  partnerDashboardAnswer,
  quickActionsAnswer,
  quickActionsQuery,
  recentActivityAnswer,
  recentActivityQuery as activityQuery,
  supportDashboardAnswer,
  type DashboardQuery as UserQuery,
} from '../../contracts/dashboards';
import { API_ROUTES, isAdminRole, mayCallApi, meetsRequirement, RESOURCE_RULES, seesAllOrganisations } from '../../domain/access';
import { chartSpan, growthPercentage, monthToDate, percentOf, todayPeriod, type Period } from '../../domain/dashboards/periods';
import { dashboardKindOf, NO_QUICK_ACTIONS_MESSAGE, quickActionsFor, type DashboardKind } from '../../domain/dashboards/quickActions';
import { recentActivity, recentRecords, type ActivityItem } from '../../projections/recentActivity';
import { activityPage, visibleActivityResources, type ActivityView } from '../../projections/activity';
import {
  adminQueues,
  approvedPartners,
  catalogueStock,
  orderCounters,
  orderFigures,
  orderingPartners,
  projectFigures,
  recipients,
  ticketCounts,
  ticketsOpenedResolved,
} from '../../projections/dashboards';
import { fundCard } from '../../projections/funds';
import { programmeCard } from '../../projections/programme';
import { rebateFigures, toStats } from '../../projections/rebates';
import { supportDashboardFigures } from '../../projections/tickets';
import { findUser, type UserRow } from '../../projections/users';
import { closeQueues, createQueues, QUEUE_NAMES, type Queues } from '../../platform/queues';
import { DATE_RANGE_LABELS, lastDayOf, periodOf, type DateRangeKey, type KpiContext } from '../../domain/dashboards/kpis';
import { HttpError } from '../plugins/errors';
import { kpiCards } from './kpis';
import type { Queryable } from '../../platform/db';
import { readBatch } from '../../platform/readBatch';
import type { Services } from '../../platform/services';

export const DASHBOARD_MESSAGES = {
  fetched: 'Dashboard data fetched successfully',
  otherUser: "You may only see your own dashboard figures; only administrators may choose another user's.",
  userNotFound: 'User not found.',
  wrongRole: (kind: DashboardKind) => `The chosen user has no ${kind === 'admin' ? 'administrator' : kind} dashboard.`,
} as const;

/** Whose dashboard is asked for: the user and the organisation whose records count (undefined: all). */
interface Subject {
  user: Pick<UserRow, 'id' | 'full_name' | 'email' | 'role' | 'company_name'> | null;
  organisationId: string | undefined;
  /** The subject's permissions, for quick actions. */
  principal: { role: string; permissions: readonly string[] };
}

const ROLES_OF: Readonly<Record<DashboardKind, readonly string[]>> = {
  manufacturer: ['manufacturer'],
  distributor: ['distributor'],
  partner: ['partner'],
  support: ['support'],
  admin: ['admin', 'administrator'],
};

// The charts follow the dashboard's range (chartSpan): their usual bars, and the most they draw.
const orderCharts = (now: Date, range?: Period) => ({ weeks: chartSpan(range, now, 'week', 12, 60), months: chartSpan(range, now, 'month', 6, 36) });
const dailyTickets = (db: Queryable, organisationId: string | undefined, now: Date, range?: Period) => {
  const span = chartSpan(range, now, 'day', 14, 92);
  return ticketsOpenedResolved(db, organisationId, span.anchor, span.count);
};

/** The dashboards' figures, each from read models only (see docs/decisions.md, "Dashboards"). */
export const dashboardFigures = {
  async manufacturer(db: Queryable, now: Date, range?: Period) {
    const month = monthToDate(now);
    const [partners, active, orders, projects] = await Promise.all([
      approvedPartners(db, month),
      orderingPartners(db, month),
      orderFigures(db, undefined, { periods: { month }, ...orderCharts(now, range) }),
      projectFigures(db, undefined, now),
    ]);
    const monthly = orders.periods.month;
    return {
      managedPartners: { count: partners.count, newThisMonth: partners.newIn },
      activePartners: { count: active.count, previousCount: active.previousCount, growthPercentage: growthPercentage(active.count, active.previousCount) },
      monthlyOrders: { count: monthly.count, value: monthly.value, growthPercentage: monthly.growthPercentage },
      activeProjects: { count: projects.active, dueThisWeek: projects.dueThisWeek },
      charts: { ordersPerWeek: orders.perWeek, orderValuePerMonth: orders.perMonth, projectsByStatus: projects.byStatus },
    };
  },

  async distributor(db: Queryable, organisationId: string | undefined, now: Date, range?: Period) {
    const month = monthToDate(now);
    const [stock, orders, served, counters, rebates] = await Promise.all([
      catalogueStock(db),
      orderFigures(db, organisationId, { periods: { today: todayPeriod(now), month }, ...orderCharts(now, range) }),
      recipients(db, organisationId, month),
      orderCounters(db, organisationId),
      rebateFigures(db, { organisationId }, now),
    ]);
    const { today, month: thisMonth } = orders.periods;
    const stats = toStats(rebates, now);
    return {
      inventoryItems: { items: stock.items, inStock: percentOf(stock.inStock, stock.items), lowStock: stock.lowStock },
      ordersToday: { count: today.count, growthPercentage: today.growthPercentage },
      partnersServed: { count: served.count, newThisMonth: served.newIn },
      pendingShipments: { count: counters.pending + counters.approved, onTime: percentOf(counters.deliveredOnTime, counters.delivered) },
      ordersThisMonth: thisMonth.count,
      orderValueThisMonth: thisMonth.value,
      rebateProgress: rebateProgressOf(stats),
      charts: { ordersPerWeek: orders.perWeek, orderValuePerMonth: orders.perMonth },
    };
  },

  async partner(db: Queryable, organisationId: string | undefined, now: Date, range?: Period) {
    const month = monthToDate(now);
    const [projects, figures, counters, tickets, rebates, funds, programme] = await Promise.all([
      projectFigures(db, organisationId, now),
      orderFigures(db, organisationId, { periods: { month }, ...orderCharts(now, range) }),
      orderCounters(db, organisationId),
      ticketCounts(db, organisationId),
      rebateFigures(db, { organisationId }, now),
      fundCard(db, { organisationId }),
      // The partner programme's tier card: the tier in force and the first requirement of the next tier still missing.
      programmeCard(db, organisationId, now),
    ]);
    const orders = figures.periods.month;
    return {
      funds,
      programme,
      projects: { total: projects.total, active: projects.active, expiringSoon: projects.expiringSoon, byRegistration: projects.byRegistration },
      orders: {
        thisMonth: orders.count,
        valueThisMonth: orders.value,
        growthPercentage: orders.growthPercentage,
        open: counters.pending + counters.approved + counters.shipped,
      },
      rebateProgress: rebateProgressOf(toStats(rebates, now)),
      openTickets: { count: tickets.active, overdue: tickets.overdue },
      charts: { ordersPerWeek: figures.perWeek, orderValuePerMonth: figures.perMonth, projectsByRegistration: projects.byRegistration },
    };
  },

  async support(db: Queryable, assignee: string | undefined, now: Date, range?: Period) {
    const [figures, mine, openedResolved] = await Promise.all([
      supportDashboardFigures(db, now),
      assignee ? ticketCounts(db, undefined, assignee) : Promise.resolve(null),
      dailyTickets(db, undefined, now, range),
    ]);
    return { ...figures, assignedToUser: mine, charts: { ticketsOpenedResolved: openedResolved } };
  },

  async admin(db: Queryable, now: Date, failedJobs: number | null, range?: Period) {
    const month = monthToDate(now);
    const [queues, figures, tickets, projects, openedResolved, funds] = await Promise.all([
      adminQueues(db),
      orderFigures(db, undefined, { periods: { month }, weeks: orderCharts(now, range).weeks }),
      ticketCounts(db, undefined),
      projectFigures(db, undefined, now),
      dailyTickets(db, undefined, now, range),
      fundCard(db, { organisationId: undefined }),
    ]);
    const orders = figures.periods.month;
    return {
      pendingApprovals: queues.pendingApprovals,
      conflicts: queues.conflicts,
      extensionRequests: queues.extensionRequests,
      openRebates: queues.openRebates,
      overdueTickets: tickets.overdue,
      ordersThisMonth: { count: orders.count, value: orders.value, growthPercentage: orders.growthPercentage },
      failedJobs,
      funds,
      charts: { ordersPerWeek: figures.perWeek, ticketsOpenedResolved: openedResolved, projectsByStatus: projects.byStatus },
    };
  },
};

function rebateProgressOf(stats: ReturnType<typeof toStats>) {
  return {
    progressPercentage: stats.progressPercentage,
    remainingToNextTier: stats.remainingToNextTier,
    nextTier: stats.nextTier,
    currentTier: stats.currentTier,
    quarterlyPurchases: stats.quarterlyPurchases,
    quarterlyTarget: stats.quarterlyTarget,
    quarterLabel: stats.quarterLabel,
  };
}

/** GET /dashboard/*: each role's figures, the quick actions and the recent activity. */
export async function dashboardRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { reads } = services;
  // Opened on first use, like the failed-jobs route's.
  let queues: Queues | undefined;
  app.addHook('onClose', async () => {
    if (queues) await closeQueues(queues);
  });

  /**
   * The caller, or with `user_id` the chosen user (administrators only; anyone else naming another
   * user is refused). Partners and distributors count their organisation's records.
   */
  async function subjectOf(request: FastifyRequest, userId: string | undefined, kind: DashboardKind | null): Promise<Subject> {
    const { principal } = request;
    if (!userId || userId === principal.id) {
      return {
        user: { id: principal.id, full_name: principal.fullName, email: principal.email, role: principal.role, company_name: principal.companyName },
        organisationId: seesAllOrganisations(principal.role) ? undefined : principal.organisationId,
        principal,
      };
    }
    if (!isAdminRole(principal.role)) throw new HttpError(403, 'FORBIDDEN', DASHBOARD_MESSAGES.otherUser);
    const user = await findUser(reads, userId);
    if (!user) throw new HttpError(404, 'NOT_FOUND', DASHBOARD_MESSAGES.userNotFound);
    if (kind && !ROLES_OF[kind].includes(user.role))
      throw new HttpError(400, 'VALIDATION_ERROR', DASHBOARD_MESSAGES.wrongRole(kind), [{ field: 'user_id', message: DASHBOARD_MESSAGES.wrongRole(kind) }]);
    return {
      user: { id: user.id, full_name: user.full_name, email: user.email, role: user.role, company_name: user.company_name },
      organisationId: seesAllOrganisations(user.role) ? undefined : (user.parent_user_id ?? user.id),
      principal: user,
    };
  }

  const answer = <Data>(subject: Subject, data: Data) => ({ success: true as const, message: DASHBOARD_MESSAGES.fetched, data: { data, user: subject.user } });

  /** The range the figures follow, and the KPI cards of the dashboard counted by their lists as the caller sees them. */
  function contextOf(query: UserQuery, now: Date): KpiContext & { key: string } {
    const key = query.range ?? 'month';
    return { key, now, range: periodOf(key, now, query.range === 'custom' ? { from: query.from!, to: query.to! } : undefined) };
  }
  function kpisOf(request: FastifyRequest, kind: DashboardKind, subject: Subject, ctx: KpiContext & { key: string }, db: Queryable) {
    const rangeLabel =
      ctx.key === 'custom'
        ? `${ctx.range.start} – ${lastDayOf(ctx.range)}`
        : DATE_RANGE_LABELS[ctx.key as DateRangeKey].replace(/\b\w/g, (c) => c.toUpperCase());
    return kpiCards(db, kind, { principal: request.principal, subjectOrganisationId: subject.organisationId }, { ...ctx, rangeLabel });
  }

  /** One role's dashboard: whose figures, over which range, with the KPI cards, in the answer's envelope. */
  async function dashboardOf<F extends object>(
    request: FastifyRequest,
    query: UserQuery,
    kind: DashboardKind,
    figuresOf: (subject: Subject, ctx: KpiContext & { key: string }, db: Queryable) => Promise<F>,
  ) {
    const subject = await subjectOf(request, query.user_id, kind);
    const ctx = contextOf(query, new Date());
    // The figures and the KPI cards are read side by side, in one round trip (readBatch).
    const db = readBatch(reads);
    const [figures, kpis] = await Promise.all([figuresOf(subject, ctx, db), kpisOf(request, kind, subject, ctx, db)]);
    return answer(subject, { ...figures, kpis, range: { key: ctx.key, from: ctx.range.start, to: lastDayOf(ctx.range) } });
  }

  /** The rebate card and chart only for those who may read the rebate figures themselves (the Rebates page's overview). */
  const withRebatesFor = <F extends { rebateProgress: unknown }>(
    subject: Subject,
    figures: F,
  ): Omit<F, 'rebateProgress'> & { rebateProgress: F['rebateProgress'] | null } =>
    mayCallApi(subject.principal, API_ROUTES['GET /rebates/stats/user']) ? figures : { ...figures, rebateProgress: null };

  /** The funds card only for those who may read the funds. */
  const withFundsFor = <F extends { funds: unknown }>(subject: Subject, figures: F): F =>
    isAdminRole(subject.principal.role) || subject.principal.permissions.includes('MDF.Read') ? figures : { ...figures, funds: null };

  async function failedJobCount(): Promise<number | null> {
    try {
      queues ??= createQueues(services.config);
      const counts = await Promise.all(QUEUE_NAMES.map((name) => queues![name].getFailedCount()));
      return counts.reduce((sum, n) => sum + n, 0);
    } catch {
      // The queue store is down: the other figures still answer, this one says it is unknown.
      return null;
    }
  }

  app.get(
    '/dashboard/manufacturer/stats',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'The manufacturer dashboard: partners, orders and projects across the channel',
        querystring: userQuery,
        response: { 200: manufacturerDashboardAnswer },
      },
    },
    async (request) => dashboardOf(request, request.query, 'manufacturer', (_subject, ctx, db) => dashboardFigures.manufacturer(db, ctx.now, ctx.range)),
  );

  app.get(
    '/dashboard/stats',
    {
      schema: {
        tags: ['dashboard'],
        summary: "The partner dashboard: the organisation's projects, orders, rebate progress and tickets",
        querystring: userQuery,
        response: { 200: partnerDashboardAnswer },
      },
    },
    async (request) =>
      dashboardOf(request, request.query, 'partner', async (subject, ctx, db) =>
        withFundsFor(subject, withRebatesFor(subject, await dashboardFigures.partner(db, subject.organisationId, ctx.now, ctx.range))),
      ),
  );

  app.get(
    '/dashboard/distributor/stats',
    {
      schema: {
        tags: ['dashboard'],
        summary: "The distributor dashboard: stock, the organisation's orders, shipments and rebate progress",
        querystring: userQuery,
        response: { 200: distributorDashboardAnswer },
      },
    },
    async (request) =>
      dashboardOf(request, request.query, 'distributor', async (subject, ctx, db) =>
        withRebatesFor(subject, await dashboardFigures.distributor(db, subject.organisationId, ctx.now, ctx.range)),
      ),
  );

  app.get(
    '/dashboard/support/stats',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'The support dashboard: tickets across every organisation, and those assigned to the user',
        querystring: userQuery,
        response: { 200: supportDashboardAnswer },
      },
    },
    async (request) => dashboardOf(request, request.query, 'support', (subject, ctx, db) => dashboardFigures.support(db, subject.user?.id, ctx.now, ctx.range)),
  );

  app.get(
    '/dashboard/admin/stats',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'The administrator dashboard: what awaits a decision, orders this month and failed jobs',
        querystring: userQuery,
        response: { 200: adminDashboardAnswer },
      },
    },
    async (request) =>
      dashboardOf(request, request.query, 'admin', async (subject, ctx, db) => {
        // The failed jobs are counted in the queue store meanwhile, so the figures' reads leave together.
        const [figures, failedJobs] = await Promise.all([dashboardFigures.admin(db, ctx.now, null, ctx.range), failedJobCount()]);
        return withFundsFor(subject, { ...figures, failedJobs });
      }),
  );

  app.get(
    '/dashboard/quick-actions',
    {
      schema: {
        tags: ['dashboard'],
        summary: "Quick actions of a dashboard that the user's permissions allow",
        querystring: quickActionsQuery,
        response: { 200: quickActionsAnswer },
      },
    },
    async (request) => {
      const subject = await subjectOf(request, request.query.user_id, null);
      // Administrators look at any dashboard; everyone else gets their own role's actions.
      const kind = isAdminRole(request.principal.role)
        ? (request.query.dashboard ?? dashboardKindOf(subject.principal.role))
        : dashboardKindOf(subject.principal.role);
      const actions = kind ? quickActionsFor(subject.principal, kind).map(({ requires: _requires, ...action }) => action) : [];
      return {
        success: true as const,
        message: actions.length ? DASHBOARD_MESSAGES.fetched : NO_QUICK_ACTIONS_MESSAGE,
        data: { data: actions, user: subject.user },
      };
    },
  );

  app.get(
    '/dashboard/recent-activity',
    {
      schema: {
        tags: ['dashboard'],
        summary: "Recent changes to the organisation's records (every organisation's for those who see all), newest first",
        querystring: activityQuery,
        response: { 200: recentActivityAnswer },
      },
    },
    async (request) => {
      const subject = await subjectOf(request, request.query.user_id, null);
      const scope = { organisationId: subject.organisationId, partnerApplications: meetsRequirement(subject.principal, RESOURCE_RULES.partners.list) };
      // An organisation's own dashboard reads its activity feed (what its people may see of its records);
      // those who see every organisation get the status changes across all of them.
      // The feed and the recent records leave together (readBatch): one round trip.
      const db = readBatch(reads);
      const activities = subject.organisationId
        ? activityPage(db, subject.organisationId, visibleActivityResources(subject.principal), { limit: request.query.limit, offset: 0 }).then(({ rows }) =>
            rows.map(feedLineAsActivity),
          )
        : recentActivity(db, scope, request.query.limit);
      const [lines, records] = await Promise.all([activities, recentRecords(db, scope)]);
      return answer(subject, { activities: lines, ...records });
    },
  );
}

/** A line of an organisation's feed in the shape of the dashboards' recent activity; the line itself says who acted. */
function feedLineAsActivity(line: ActivityView): ActivityItem {
  return {
    id: line.id,
    record_type: line.resource,
    record_id: line.record_id,
    title: line.message,
    message: line.message,
    status: line.event_type,
    previous_status: null,
    actor_id: null,
    actor_name: null,
    occurred_at: line.occurred_at,
    link: line.link,
  };
}
