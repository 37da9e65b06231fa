import type { DateRangeKey, KpiFilter, KpiList } from '@domain/dashboards/kpis';
import type { DashboardKind } from '@domain/dashboards/quickActions';
import { ApiError } from '../providers/errorMapper';
import { API_URL, httpClient } from '../providers/httpClient';

/** The spec's dashboard error texts (001 §8). */
export const DASHBOARD_FAILED = 'Failed to fetch dashboard data';
export const DASHBOARD_EXCEPTION = 'An error occurred while fetching dashboard data.';

export const STATS_PATHS: Readonly<Record<DashboardKind, string>> = {
  manufacturer: '/dashboard/manufacturer/stats',
  distributor: '/dashboard/distributor/stats',
  partner: '/dashboard/stats',
  support: '/dashboard/support/stats',
  admin: '/dashboard/admin/stats',
};

export interface DashboardUser {
  id: string;
  full_name: string;
  email: string;
  role: string;
  company_name: string | null;
}

interface Answer<T> {
  success: boolean;
  message: string;
  data: { data: T; user: DashboardUser | null };
}

export interface WeekPoint { week: string; count: number; value: number }
export interface MonthPoint { month: string; count: number; value: number }
export interface TicketDay { day: string; opened: number; resolved: number }

export interface RebateProgressFigures {
  progressPercentage: number | null;
  remainingToNextTier: number | null;
  nextTier: string | null;
  currentTier: string | null;
  quarterlyPurchases: number;
  quarterlyTarget: number | null;
  quarterLabel: string;
}

export interface ManufacturerFigures {
  managedPartners: { count: number; newThisMonth: number };
  activePartners: { count: number; previousCount: number; growthPercentage: number | null };
  monthlyOrders: { count: number; value: number; growthPercentage: number | null };
  activeProjects: { count: number; dueThisWeek: number };
  charts: { ordersPerWeek: WeekPoint[]; orderValuePerMonth: MonthPoint[]; projectsByStatus: Record<string, number> };
}

export interface DistributorFigures {
  inventoryItems: { items: number; inStock: number; lowStock: number };
  ordersToday: { count: number; growthPercentage: number | null };
  partnersServed: { count: number; newThisMonth: number };
  pendingShipments: { count: number; onTime: number };
  ordersThisMonth: number;
  orderValueThisMonth: number;
  /** Null for those who may not read the rebate figures. */
  rebateProgress: RebateProgressFigures | null;
  charts: { ordersPerWeek: WeekPoint[]; orderValuePerMonth: MonthPoint[] };
}

/** The funds card: the balance as `/api/funds/balance` answers it, and what awaits review as the lists count it. */
export interface FundsCard {
  allocated: number;
  accrued: number;
  reserved: number;
  claimed: number;
  paid: number;
  available: number;
  pending_requests: number;
  pending_claims: number;
}

export interface PartnerFigures {
  projects: { total: number; active: number; expiringSoon: number; byRegistration: Record<string, number> };
  orders: { thisMonth: number; valueThisMonth: number; growthPercentage: number | null; open: number };
  /** Null for those who may not read the rebate figures. */
  rebateProgress: RebateProgressFigures | null;
  openTickets: { count: number; overdue: number };
  funds: FundsCard | null;
  charts: { ordersPerWeek: WeekPoint[]; orderValuePerMonth: MonthPoint[]; projectsByRegistration: Record<string, number> };
}

export interface SupportFigures {
  totalTickets: { count: number; active: number };
  statusBreakdown: { open: number; in_progress: number };
  urgentTickets: { highPriority: number; overdue: number };
  todayStats: { resolved: number; created: number; netChange: number };
  weeklyStats: { created: number };
  assignedToUser: { active: number; overdue: number } | null;
  charts: { ticketsOpenedResolved: TicketDay[] };
}

export interface AdminFigures {
  pendingApprovals: number;
  conflicts: number;
  extensionRequests: number;
  openRebates: number;
  overdueTickets: number;
  ordersThisMonth: { count: number; value: number; growthPercentage: number | null };
  failedJobs: number | null;
  funds: FundsCard | null;
  charts: { ordersPerWeek: WeekPoint[]; ticketsOpenedResolved: TicketDay[]; projectsByStatus: Record<string, number> };
}

/** A KPI card as the server counted it: its number is the total of `api` under `filter`; `link` opens that list. */
export interface KpiCardView {
  id: string;
  label: string;
  definition: string;
  count: number;
  previousCount: number | null;
  growthPercentage: number | null;
  list: KpiList;
  api: string;
  filter: KpiFilter;
  link: string;
}

/** What every dashboard answers besides its own figures: the KPI cards and the range they follow. */
export interface WithKpis {
  kpis: KpiCardView[];
  range: { key: DateRangeKey; from: string; to: string };
}

export interface FiguresOf {
  manufacturer: ManufacturerFigures & WithKpis;
  distributor: DistributorFigures & WithKpis;
  partner: PartnerFigures & WithKpis;
  support: SupportFigures & WithKpis;
  admin: AdminFigures & WithKpis;
}

/** The dashboard's date range as the stats routes take it. */
export interface RangeChoice {
  key: DateRangeKey;
  from?: string;
  to?: string;
}

export interface QuickActionView { key: string; label: string; description: string; to: string }

export interface ActivityView {
  id: string;
  record_type: string;
  title: string;
  message: string;
  actor_name: string | null;
  occurred_at: string;
  link: string | null;
}

export interface RecentActivityAnswer {
  activities: ActivityView[];
  recentPartners: Array<{ id: string; name: string; message: string; createdAt: string; link: string }>;
  recentProjects: Array<{ id: string; title: string; message: string; createdAt: string; link: string }>;
}

const withUser = (path: string, userId: string | null, extra: Record<string, string> = {}) => {
  const query = new URLSearchParams({ ...extra, ...(userId ? { user_id: userId } : {}) }).toString();
  return `${API_URL}${path}${query ? `?${query}` : ''}`;
};

/** The server's message, or the spec's fallbacks: one for a refused call, one for anything else. */
export function dashboardErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status > 0) return error.message || DASHBOARD_FAILED;
  return DASHBOARD_EXCEPTION;
}

async function read<T>(url: string): Promise<Answer<T>> {
  const { json } = await httpClient<Answer<T>>(url);
  if (!json?.success) throw new ApiError({ message: json?.message || DASHBOARD_FAILED, code: 'DASHBOARD', status: 500, fieldErrors: {} });
  return json;
}

export const fetchFigures = <K extends DashboardKind>(kind: K, userId: string | null, range: RangeChoice = { key: 'month' }) =>
  read<FiguresOf[K]>(withUser(STATS_PATHS[kind], userId, { range: range.key, ...(range.key === 'custom' && range.from && range.to ? { from: range.from, to: range.to } : {}) }));
export const fetchQuickActions = (kind: DashboardKind, userId: string | null) => read<QuickActionView[]>(withUser('/dashboard/quick-actions', userId, { dashboard: kind }));
export const fetchRecentActivity = (userId: string | null) => read<RecentActivityAnswer>(withUser('/dashboard/recent-activity', userId, { limit: '8' }));

/** Users of a role for the admin's selector; the server matches name, e-mail and company case-insensitively. */
export async function searchUsers(roles: readonly string[], search: string): Promise<DashboardUser[]> {
  const lists = await Promise.all(
    roles.map((role) => httpClient<{ data: { users: DashboardUser[] } }>(`${API_URL}/users?${new URLSearchParams({ role, limit: '25', ...(search ? { search } : {}) })}`).then(({ json }) => json.data.users)),
  );
  return lists.flat();
}
