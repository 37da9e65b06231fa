import AssignmentIcon from '@mui/icons-material/Assignment';
import GroupsIcon from '@mui/icons-material/Groups';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import SavingsIcon from '@mui/icons-material/Savings';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { isAdminRole } from '@domain/access';
import type { DashboardKind } from '@domain/dashboards/quickActions';
import { Alert, Box } from '@mui/material';
import { useEffect, useState } from 'react';
import { useGetIdentity } from 'react-admin';
import { useAccess } from '../access/usePrincipal';
import { PageTitle } from '../layout/PageTitle';
import { chartGrid, CountsByChart, OrdersPerWeekChart, OrderValuePerMonthChart, RebateProgressChart, TicketsOpenedResolvedChart } from './charts';
import {
  dashboardErrorText,
  fetchFigures,
  fetchQuickActions,
  fetchRecentActivity,
  type AdminFigures,
  type DashboardUser,
  type DistributorFigures,
  type FiguresOf,
  type ManufacturerFigures,
  type PartnerFigures,
  type QuickActionView,
  type RecentActivityAnswer,
  type SupportFigures,
} from './dashboardApi';
import { QuickActions } from './QuickActions';
import { RecentActivity } from './RecentActivity';
import { cardGrid, Growth, money, SkeletonCards, StatCard } from './StatCard';
import { UserSelector } from './UserSelector';

export const DASHBOARD_TITLES = {
  manufacturer: 'Manufacturer Dashboard',
  distributor: 'Distributor Dashboard',
  partner: 'Partner Dashboard',
  support: 'Support Dashboard',
  admin: 'Admin Dashboard',
} as const satisfies Record<DashboardKind, string>;

export type { DashboardKind };

/** Who the figures are about when an administrator has chosen nobody. */
const EVERYONE: Readonly<Record<DashboardKind, string>> = {
  manufacturer: 'Figures across the whole channel.',
  distributor: 'Figures across every organisation; choose a distributor to see theirs.',
  partner: 'Figures across every organisation; choose a partner to see theirs.',
  support: 'Ticket figures across every organisation; choose a support user to add their assigned tickets.',
  admin: 'What awaits a decision across the portal.',
};

interface Loaded<K extends DashboardKind> {
  figures: FiguresOf[K];
  actions: QuickActionView[];
  activity: RecentActivityAnswer;
}

/** The three calls of a dashboard, again whenever the chosen user changes. */
function useDashboard<K extends DashboardKind>(kind: K, userId: string | null) {
  const [state, setState] = useState<{ loading: boolean; error: string | null; data: Loaded<K> | null }>({ loading: true, error: null, data: null });
  useEffect(() => {
    let cancelled = false;
    setState({ loading: true, error: null, data: null });
    Promise.all([fetchFigures(kind, userId), fetchQuickActions(kind, userId), fetchRecentActivity(userId)])
      .then(([figures, actions, activity]) => {
        if (!cancelled) setState({ loading: false, error: null, data: { figures: figures.data.data, actions: actions.data.data, activity: activity.data.data } });
      })
      .catch((error: unknown) => {
        if (!cancelled) setState({ loading: false, error: dashboardErrorText(error), data: null });
      });
    return () => {
      cancelled = true;
    };
  }, [kind, userId]);
  return state;
}

/** A role dashboard: title, welcome line, the admin's user selector, figures, charts, quick actions and recent activity. */
export function RoleDashboard<K extends DashboardKind>({ kind }: { kind: K }) {
  const { identity } = useGetIdentity();
  const { role } = useAccess();
  const admin = isAdminRole(role);
  const [chosen, setChosen] = useState<DashboardUser | null>(null);
  const { loading, error, data } = useDashboard(kind, chosen?.id ?? null);
  const welcome = chosen
    ? `Showing the figures of ${chosen.full_name}${chosen.company_name ? ` (${chosen.company_name})` : ''}.`
    : `Welcome back${identity?.fullName ? `, ${identity.fullName}` : ''}! ${admin && kind !== 'admin' ? EVERYONE[kind] : 'Here is what is happening today.'}`;

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 1400 }} data-testid={`dashboard-${kind}`}>
      <PageTitle title={DASHBOARD_TITLES[kind]} subtitle={welcome} />
      {admin ? <UserSelector kind={kind} value={chosen} onChange={setChosen} /> : null}
      {loading ? <SkeletonCards count={4} /> : null}
      {error ? (
        <Alert severity="error" role="alert">
          Error: {error}
        </Alert>
      ) : null}
      {data ? (
        <>
          <Box data-testid="dashboard-figures">{renderFigures(kind, data.figures)}</Box>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) minmax(0, 1fr)' } }}>
            <QuickActions actions={data.actions} />
            <RecentActivity items={data.activity.activities} />
          </Box>
        </>
      ) : null}
    </Box>
  );
}

function renderFigures(kind: DashboardKind, figures: FiguresOf[DashboardKind]) {
  switch (kind) {
    case 'manufacturer':
      return <ManufacturerFiguresView f={figures as ManufacturerFigures} />;
    case 'distributor':
      return <DistributorFiguresView f={figures as DistributorFigures} />;
    case 'partner':
      return <PartnerFiguresView f={figures as PartnerFigures} />;
    case 'support':
      return <SupportFiguresView f={figures as SupportFigures} />;
    case 'admin':
      return <AdminFiguresView f={figures as AdminFigures} />;
  }
}

const PROJECT_STATUS_LABELS = { Planning: 'Planning', 'In Progress': 'In Progress', 'On Hold': 'On Hold', Completed: 'Completed' };
const REGISTRATION_LABELS = { pending: 'Pending', conflict: 'Conflict', approved: 'Approved', rejected: 'Rejected', expired: 'Expired' };

function ManufacturerFiguresView({ f }: { f: ManufacturerFigures }) {
  return (
    <>
      <Box sx={cardGrid}>
        <StatCard label="Managed Partners" value={f.managedPartners.count} note={`${f.managedPartners.newThisMonth} approved this month`} icon={<GroupsIcon />} />
        <StatCard label="Active Partners" value={f.activePartners.count} note={<Growth value={f.activePartners.growthPercentage} period="the period before" />} icon={<GroupsIcon />} />
        <StatCard label="Monthly Orders" value={f.monthlyOrders.count} note={<Growth value={f.monthlyOrders.growthPercentage} period="the period before" />} icon={<ReceiptLongIcon />} />
        <StatCard label="Active Projects" value={f.activeProjects.count} note={`${f.activeProjects.dueThisWeek} due this week`} icon={<AssignmentIcon />} />
      </Box>
      <Box sx={chartGrid}>
        <OrdersPerWeekChart weeks={f.charts.ordersPerWeek} />
        <OrderValuePerMonthChart months={f.charts.orderValuePerMonth} />
        <CountsByChart title="Projects by stage" counts={f.charts.projectsByStatus} labels={PROJECT_STATUS_LABELS} />
      </Box>
    </>
  );
}

function DistributorFiguresView({ f }: { f: DistributorFigures }) {
  return (
    <>
      <Box sx={cardGrid}>
        <StatCard label="Inventory Items" value={f.inventoryItems.items} note={`${f.inventoryItems.inStock}% in stock`} icon={<Inventory2Icon />} />
        <StatCard label="Orders Today" value={f.ordersToday.count} note={<Growth value={f.ordersToday.growthPercentage} period="yesterday" />} icon={<ReceiptLongIcon />} />
        <StatCard label="Partners Served" value={f.partnersServed.count} note={`${f.partnersServed.newThisMonth} new this month`} icon={<GroupsIcon />} />
        <StatCard label="Pending Shipments" value={f.pendingShipments.count} note={`${f.pendingShipments.onTime}% delivered on time`} icon={<LocalShippingIcon />} />
        <StatCard label="Orders This Month" value={f.ordersThisMonth} note={money(f.orderValueThisMonth)} icon={<ReceiptLongIcon />} />
      </Box>
      <Box sx={chartGrid}>
        <OrdersPerWeekChart weeks={f.charts.ordersPerWeek} />
        <OrderValuePerMonthChart months={f.charts.orderValuePerMonth} />
        <RebateProgressChart progress={f.rebateProgress} />
      </Box>
    </>
  );
}

function PartnerFiguresView({ f }: { f: PartnerFigures }) {
  return (
    <>
      <Box sx={cardGrid}>
        <StatCard label="Active Projects" value={f.projects.active} note={`${f.projects.expiringSoon} registration${f.projects.expiringSoon === 1 ? '' : 's'} expiring within 14 days`} icon={<AssignmentIcon />} />
        <StatCard label="Orders This Month" value={f.orders.thisMonth} note={<Growth value={f.orders.growthPercentage} period="the period before" />} icon={<ReceiptLongIcon />} />
        <StatCard label="Rebate Progress" value={f.rebateProgress.progressPercentage === null ? '—' : `${f.rebateProgress.progressPercentage}%`} note={f.rebateProgress.nextTier ? `${money(f.rebateProgress.remainingToNextTier)} to ${f.rebateProgress.nextTier}` : f.rebateProgress.quarterLabel} icon={<SavingsIcon />} />
        <StatCard label="Open Tickets" value={f.openTickets.count} note={`${f.openTickets.overdue} overdue`} icon={<SupportAgentIcon />} />
        {f.funds ? (
          <StatCard label="Marketing Funds Available" value={money(f.funds.available)} note={`${money(f.funds.reserved)} reserved · ${f.funds.pending_requests} request${f.funds.pending_requests === 1 ? '' : 's'} awaiting review`} icon={<SavingsIcon />} to="/funds" />
        ) : null}
      </Box>
      <Box sx={chartGrid}>
        <OrdersPerWeekChart weeks={f.charts.ordersPerWeek} />
        <OrderValuePerMonthChart months={f.charts.orderValuePerMonth} />
        <CountsByChart title="Projects by registration" counts={f.charts.projectsByRegistration} labels={REGISTRATION_LABELS} />
        <RebateProgressChart progress={f.rebateProgress} />
      </Box>
    </>
  );
}

function SupportFiguresView({ f }: { f: SupportFigures }) {
  return (
    <>
      <Box sx={cardGrid}>
        <StatCard label="Total Tickets" value={f.totalTickets.count} note={`${f.totalTickets.active} active`} icon={<SupportAgentIcon />} />
        <StatCard label="Open / In Progress" value={`${f.statusBreakdown.open} / ${f.statusBreakdown.in_progress}`} note={f.assignedToUser ? `${f.assignedToUser.active} assigned, ${f.assignedToUser.overdue} overdue` : undefined} icon={<AssignmentIcon />} />
        <StatCard label="Urgent Tickets" value={f.urgentTickets.highPriority} note={`${f.urgentTickets.overdue} overdue`} icon={<WarningAmberIcon />} />
        <StatCard label="Today" value={`${f.todayStats.created} new`} note={`${f.todayStats.resolved} resolved · net ${f.todayStats.netChange >= 0 ? '+' : ''}${f.todayStats.netChange} · ${f.weeklyStats.created} this week`} icon={<ReceiptLongIcon />} />
      </Box>
      <Box sx={chartGrid}>
        <TicketsOpenedResolvedChart days={f.charts.ticketsOpenedResolved} />
      </Box>
    </>
  );
}

function AdminFiguresView({ f }: { f: AdminFigures }) {
  return (
    <>
      <Box sx={cardGrid}>
        <StatCard label="Pending Approvals" value={f.pendingApprovals} note="Partner applications" icon={<GroupsIcon />} />
        <StatCard label="Registration Conflicts" value={f.conflicts} note={`${f.extensionRequests} extension request${f.extensionRequests === 1 ? '' : 's'}`} icon={<AssignmentIcon />} />
        <StatCard label="Open Rebates" value={f.openRebates} note="Pending or processing" icon={<ReceiptLongIcon />} />
        <StatCard label="Overdue Tickets" value={f.overdueTickets} icon={<SupportAgentIcon />} />
        <StatCard label="Orders This Month" value={f.ordersThisMonth.count} note={<Growth value={f.ordersThisMonth.growthPercentage} period="the period before" />} icon={<ReceiptLongIcon />} />
        {f.funds ? (
          <StatCard label="Fund Requests to Review" value={f.funds.pending_requests} note={`${f.funds.pending_claims} claim${f.funds.pending_claims === 1 ? '' : 's'} to review · ${money(f.funds.available)} unspent`} icon={<SavingsIcon />} to="/funds" />
        ) : null}
        <StatCard label="Failed Jobs" value={f.failedJobs ?? '—'} note={f.failedJobs === null ? 'The job queue is unreachable' : 'Jobs that gave up'} icon={<WarningAmberIcon />} />
      </Box>
      <Box sx={chartGrid}>
        <OrdersPerWeekChart weeks={f.charts.ordersPerWeek} />
        <TicketsOpenedResolvedChart days={f.charts.ticketsOpenedResolved} />
        <CountsByChart title="Projects by stage" counts={f.charts.projectsByStatus} labels={PROJECT_STATUS_LABELS} />
      </Box>
    </>
  );
}

export const ManufacturerDashboard = () => <RoleDashboard kind="manufacturer" />;
export const DistributorDashboard = () => <RoleDashboard kind="distributor" />;
export const PartnerDashboard = () => <RoleDashboard kind="partner" />;
export const SupportDashboard = () => <RoleDashboard kind="support" />;
export const AdminDashboard = () => <RoleDashboard kind="admin" />;
