import type {
  AdminDashboard,
  DistributorDashboard,
  ManufacturerDashboard,
  PartnerDashboard,
  QuickActionsAnswer,
  RecentActivityAnswer,
  SupportDashboard,
} from '@contracts/dashboards';
import type { UserView } from '@contracts/identity';
import type { DateRangeKey } from '@domain/dashboards/kpis';
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

export interface FiguresOf {
  manufacturer: ManufacturerDashboard;
  distributor: DistributorDashboard;
  partner: PartnerDashboard;
  support: SupportDashboard;
  admin: AdminDashboard;
}

/** Every dashboard route answers as the quick actions do: its own figures under `data.data`, whose dashboard it is under `data.user`. */
type DashboardAnswer<Figures> = Omit<QuickActionsAnswer, 'data'> & { data: Omit<QuickActionsAnswer['data'], 'data'> & { data: Figures } };

/** The dashboard's date range as the stats routes take it. */
export interface RangeChoice {
  key: DateRangeKey;
  from?: string;
  to?: string;
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

async function read<Answer extends { success: boolean; message: string }>(url: string): Promise<Answer> {
  const { json } = await httpClient<Answer>(url);
  if (!json?.success) throw new ApiError({ message: json?.message || DASHBOARD_FAILED, code: 'DASHBOARD', status: 500, fieldErrors: {} });
  return json;
}

export const fetchFigures = <K extends DashboardKind>(kind: K, userId: string | null, range: RangeChoice = { key: 'month' }) =>
  read<DashboardAnswer<FiguresOf[K]>>(
    withUser(STATS_PATHS[kind], userId, { range: range.key, ...(range.key === 'custom' && range.from && range.to ? { from: range.from, to: range.to } : {}) }),
  );
export const fetchQuickActions = (kind: DashboardKind, userId: string | null) =>
  read<QuickActionsAnswer>(withUser('/dashboard/quick-actions', userId, { dashboard: kind }));
export const fetchRecentActivity = (userId: string | null) => read<RecentActivityAnswer>(withUser('/dashboard/recent-activity', userId, { limit: '8' }));

/** `GET /users` without react-admin's sort/range answers the paged envelope. */
type UserPage = { data: { users: UserView[] } };

/** Users of a role for the admin's selector; the server matches name, e-mail and company case-insensitively. */
export async function searchUsers(roles: readonly string[], search: string): Promise<UserView[]> {
  const lists = await Promise.all(
    roles.map((role) =>
      httpClient<UserPage>(`${API_URL}/users?${new URLSearchParams({ role, limit: '25', ...(search ? { search } : {}) })}`).then(({ json }) => json.data.users),
    ),
  );
  return lists.flat();
}
