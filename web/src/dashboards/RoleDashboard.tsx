import AssignmentIcon from '@mui/icons-material/Assignment';
import GroupsIcon from '@mui/icons-material/Groups';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import SavingsIcon from '@mui/icons-material/Savings';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import type { DashboardUser, KpiCard, QuickAction, RecentActivity as ActivityFeed } from '@contracts/dashboards';
import { isAdminRole } from '@domain/access';
import { DATE_RANGE_LABELS, DATE_RANGES, type DateRangeKey } from '@domain/dashboards/kpis';
import type { DashboardKind } from '@domain/dashboards/quickActions';
import { Alert, Box, MenuItem, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useGetIdentity } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { AccessRestricted } from '../orders/AccessRestricted';
import { ApiError } from '../providers/errorMapper';
import { PageTitle } from '../layout/PageTitle';
import {
  chartGrid,
  CountsByChart,
  type EmptyChartAction,
  OrdersPerWeekChart,
  OrderValuePerMonthChart,
  RebateProgressChart,
  TicketsOpenedResolvedChart,
} from './charts';
import { dashboardErrorText, fetchFigures, fetchQuickActions, fetchRecentActivity, type FiguresOf, type RangeChoice } from './dashboardApi';
import { ProgrammeTierCard } from './ProgrammeCard';
import { QuickActions } from './QuickActions';
import { RecentActivity } from './RecentActivity';
import { StatCard } from '../layout/StatCard';
import { cardGrid, Growth, money, SkeletonCards } from './StatCard';
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
  /** Null when the widget could not be loaded (it is then left out rather than shown as an error). */
  actions: QuickAction[] | null;
  activity: ActivityFeed | null;
}

/** The three calls of a dashboard, again whenever the chosen user or the range changes. */
function useDashboard<K extends DashboardKind>(kind: K, userId: string | null, range: RangeChoice) {
  const [state, setState] = useState<{ loading: boolean; error: string | null; refused: boolean; data: Loaded<K> | null }>({
    loading: true,
    error: null,
    refused: false,
    data: null,
  });
  useEffect(() => {
    let cancelled = false;
    setState((s) => ({ loading: true, error: null, refused: false, data: s.data }));
    Promise.allSettled([fetchFigures(kind, userId, range), fetchQuickActions(kind, userId), fetchRecentActivity(userId)]).then(
      ([figures, actions, activity]) => {
        if (cancelled) return;
        if (figures.status === 'rejected') {
          const refused = figures.reason instanceof ApiError && figures.reason.status === 403;
          setState({ loading: false, error: refused ? null : dashboardErrorText(figures.reason), refused, data: null });
          return;
        }
        setState({
          loading: false,
          error: null,
          refused: false,
          data: {
            figures: figures.value.data.data,
            actions: actions.status === 'fulfilled' ? actions.value.data.data : null,
            activity: activity.status === 'fulfilled' ? activity.value.data.data : null,
          },
        });
      },
    );
    return () => {
      cancelled = true;
    };
    // The range is a new object on every render; its key and dates are what change the figures.
  }, [kind, userId, range.key, range.from, range.to]);
  return state;
}

/** The range from the address (`?range=30d`, `?range=custom&from=…&to=…`), so a dashboard with a range can be shared. */
function useRange(): [RangeChoice, (next: RangeChoice) => void] {
  const [params, setParams] = useSearchParams();
  const requested = params.get('range');
  const key: DateRangeKey = (DATE_RANGES as readonly string[]).includes(requested ?? '') ? (requested as DateRangeKey) : 'month';
  const range: RangeChoice = key === 'custom' ? { key, from: params.get('from') ?? undefined, to: params.get('to') ?? undefined } : { key };
  const set = (next: RangeChoice) => {
    const query: Record<string, string> = next.key === 'month' ? {} : { range: next.key };
    if (next.key === 'custom') Object.assign(query, next.from ? { from: next.from } : {}, next.to ? { to: next.to } : {});
    setParams(query, { replace: true });
  };
  return [range, set];
}

const today = () => new Date().toISOString().slice(0, 10);

/** The period every range-following card and link on the page counts. */
function RangeSelector({ value, onChange }: { value: RangeChoice; onChange: (next: RangeChoice) => void }) {
  const custom = value.key === 'custom';
  return (
    <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center', mb: 2 }} data-testid="range-selector">
      <TextField
        select
        size="small"
        label="Period"
        value={value.key}
        onChange={(e) => {
          const key = e.target.value as DateRangeKey;
          onChange(key === 'custom' ? { key, from: value.from ?? `${today().slice(0, 8)}01`, to: value.to ?? today() } : { key });
        }}
        sx={{ width: { xs: '100%', sm: 240 } }}
      >
        {DATE_RANGES.map((key) => (
          <MenuItem key={key} value={key}>
            {DATE_RANGE_LABELS[key]}
          </MenuItem>
        ))}
      </TextField>
      {custom ? (
        <>
          <TextField
            size="small"
            type="date"
            label="From"
            value={value.from ?? ''}
            onChange={(e) => onChange({ ...value, from: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            size="small"
            type="date"
            label="To"
            value={value.to ?? ''}
            onChange={(e) => onChange({ ...value, to: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </>
      ) : null}
    </Box>
  );
}

/** The KPI cards, each opening its list filtered to exactly what it counts. */
function KpiCards({ cards, extra }: { cards: KpiCard[]; extra?: React.ReactNode }) {
  return (
    <Box sx={cardGrid} data-testid="kpi-cards">
      {cards.map((card) => (
        <StatCard
          key={card.id}
          label={card.label}
          value={card.count}
          note={card.previousCount === null ? card.definition : <Growth value={card.growthPercentage} period="the period before" />}
          icon={KPI_ICONS[card.list]}
          to={card.link}
        />
      ))}
      {extra}
    </Box>
  );
}

const KPI_ICONS: Record<KpiCard['list'], React.ReactNode> = {
  projects: <AssignmentIcon />,
  orders: <ReceiptLongIcon />,
  tickets: <SupportAgentIcon />,
  rebates: <SavingsIcon />,
  partners: <GroupsIcon />,
  directory: <GroupsIcon />,
};

/** A role dashboard: title, welcome line, the admin's user selector, figures, charts, quick actions and recent activity. */
export function RoleDashboard<K extends DashboardKind>({ kind }: { kind: K }) {
  const { identity } = useGetIdentity();
  const { role, canDo } = useAccess();
  const admin = isAdminRole(role);
  const [chosen, setChosen] = useState<DashboardUser | null>(null);
  const [range, setRange] = useRange();
  const { loading, error, refused, data } = useDashboard(kind, chosen?.id ?? null, range);
  const welcome = chosen
    ? `Showing the figures of ${chosen.full_name}${chosen.company_name ? ` (${chosen.company_name})` : ''}.`
    : `Welcome back${identity?.fullName ? `, ${identity.fullName}` : ''}! ${admin && kind !== 'admin' ? EVERYONE[kind] : 'Here is what is happening today.'}`;

  if (refused) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 1400 }} data-testid={`dashboard-${kind}`}>
        <PageTitle title={DASHBOARD_TITLES[kind]} />
        <AccessRestricted>This dashboard is for another role. Your own dashboard is on the home page.</AccessRestricted>
      </Box>
    );
  }
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 1400 }} data-testid={`dashboard-${kind}`}>
      <PageTitle title={DASHBOARD_TITLES[kind]} subtitle={welcome} />
      {admin ? <UserSelector kind={kind} value={chosen} onChange={setChosen} /> : null}
      <RangeSelector value={range} onChange={setRange} />
      {loading && !data ? <SkeletonCards count={4} /> : null}
      {error ? (
        <Alert severity="error" role="alert">
          Error: {error}
        </Alert>
      ) : null}
      {data ? (
        <>
          <Box data-testid="dashboard-figures" sx={{ opacity: loading ? 0.6 : 1 }}>
            {renderFigures(kind, data.figures, canDo)}
          </Box>
          {data.actions || data.activity ? (
            <Box
              sx={{
                display: 'grid',
                gap: 2,
                gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: data.actions && data.activity ? 'minmax(0, 1fr) minmax(0, 1fr)' : 'minmax(0, 1fr)' },
              }}
            >
              {data.actions ? <QuickActions actions={data.actions} /> : null}
              {data.activity ? <RecentActivity items={data.activity.activities} /> : null}
            </Box>
          ) : null}
        </>
      ) : null}
    </Box>
  );
}

type CanDo = (action: string) => boolean;

function renderFigures(kind: DashboardKind, figures: FiguresOf[DashboardKind], canDo: CanDo) {
  switch (kind) {
    case 'manufacturer':
      return <ManufacturerFiguresView f={figures as FiguresOf['manufacturer']} />;
    case 'distributor':
      return <DistributorFiguresView f={figures as FiguresOf['distributor']} canDo={canDo} />;
    case 'partner':
      return <PartnerFiguresView f={figures as FiguresOf['partner']} canDo={canDo} />;
    case 'support':
      return <SupportFiguresView f={figures as FiguresOf['support']} />;
    case 'admin':
      return <AdminFiguresView f={figures as FiguresOf['admin']} />;
  }
}

const PROJECT_STATUS_LABELS = { Planning: 'Planning', 'In Progress': 'In Progress', 'On Hold': 'On Hold', Completed: 'Completed' };
const REGISTRATION_LABELS = { pending: 'Pending', conflict: 'Conflict', approved: 'Approved', rejected: 'Rejected', expired: 'Expired' };

/** The action that creates a chart's first record, for those who may take it. */
const firstOrder = (canDo: CanDo): EmptyChartAction | null => (canDo('browse-products') ? { label: 'Place the first order', to: '/catalogue' } : null);
const firstProject = (canDo: CanDo): EmptyChartAction | null => (canDo('new-project') ? { label: 'Register a project', to: '/projects?create=1' } : null);

function ManufacturerFiguresView({ f }: { f: FiguresOf['manufacturer'] }) {
  return (
    <>
      <KpiCards
        cards={f.kpis}
        extra={
          <StatCard
            label="Active Partners"
            value={f.activePartners.count}
            note={<Growth value={f.activePartners.growthPercentage} period="the period before" />}
            icon={<GroupsIcon />}
          />
        }
      />
      <Box sx={chartGrid}>
        <OrdersPerWeekChart weeks={f.charts.ordersPerWeek} />
        <OrderValuePerMonthChart months={f.charts.orderValuePerMonth} />
        <CountsByChart title="Projects by stage" counts={f.charts.projectsByStatus} labels={PROJECT_STATUS_LABELS} />
      </Box>
    </>
  );
}

function DistributorFiguresView({ f, canDo }: { f: FiguresOf['distributor']; canDo: CanDo }) {
  return (
    <>
      <KpiCards
        cards={f.kpis}
        extra={
          <>
            <StatCard
              label="Inventory Items"
              value={f.inventoryItems.items}
              note={`${f.inventoryItems.inStock}% in stock`}
              icon={<Inventory2Icon />}
              to="/distributor/inventory"
            />
            <StatCard label="Partners Served" value={f.partnersServed.count} note={`${f.partnersServed.newThisMonth} new this month`} icon={<GroupsIcon />} />
            <StatCard label="Delivered On Time" value={`${f.pendingShipments.onTime}%`} note="Of delivered orders" icon={<LocalShippingIcon />} />
          </>
        }
      />
      <Box sx={chartGrid}>
        <OrdersPerWeekChart weeks={f.charts.ordersPerWeek} emptyAction={firstOrder(canDo)} />
        <OrderValuePerMonthChart months={f.charts.orderValuePerMonth} emptyAction={firstOrder(canDo)} />
        {f.rebateProgress ? <RebateProgressChart progress={f.rebateProgress} /> : null}
      </Box>
    </>
  );
}

function PartnerFiguresView({ f, canDo }: { f: FiguresOf['partner']; canDo: CanDo }) {
  // One tier system: where the programme card shows the tier, the quarterly rebate ladder's tier names are left out.
  const rebateLadder = f.programme === null ? f.rebateProgress : null;
  return (
    <>
      <KpiCards
        cards={f.kpis}
        extra={
          <>
            <ProgrammeTierCard card={f.programme} to="/partnership-governance" />
            {rebateLadder ? (
              <StatCard
                label="Rebate Progress"
                value={rebateLadder.progressPercentage === null ? '—' : `${rebateLadder.progressPercentage}%`}
                note={rebateLadder.nextTier ? `${money(rebateLadder.remainingToNextTier)} to ${rebateLadder.nextTier}` : rebateLadder.quarterLabel}
                icon={<SavingsIcon />}
                to="/rebates"
              />
            ) : null}
            {f.funds ? (
              <StatCard
                label="Marketing Funds Available"
                value={money(f.funds.available)}
                note={`${money(f.funds.reserved)} reserved · ${f.funds.pending_requests} request${f.funds.pending_requests === 1 ? '' : 's'} awaiting review`}
                icon={<SavingsIcon />}
                to="/funds"
              />
            ) : null}
          </>
        }
      />
      <Box sx={chartGrid}>
        <OrdersPerWeekChart weeks={f.charts.ordersPerWeek} emptyAction={firstOrder(canDo)} />
        <OrderValuePerMonthChart months={f.charts.orderValuePerMonth} emptyAction={firstOrder(canDo)} />
        <CountsByChart
          title="Projects by registration"
          counts={f.charts.projectsByRegistration}
          labels={REGISTRATION_LABELS}
          emptyAction={firstProject(canDo)}
        />
        {rebateLadder ? <RebateProgressChart progress={rebateLadder} /> : null}
      </Box>
    </>
  );
}

function SupportFiguresView({ f }: { f: FiguresOf['support'] }) {
  return (
    <>
      <KpiCards
        cards={f.kpis}
        extra={
          <StatCard
            label="Today"
            value={`${f.todayStats.created} new`}
            note={`${f.todayStats.resolved} resolved · net ${f.todayStats.netChange >= 0 ? '+' : ''}${f.todayStats.netChange} · ${f.weeklyStats.created} this week${f.assignedToUser ? ` · ${f.assignedToUser.active} assigned to you` : ''}`}
            icon={<WarningAmberIcon />}
          />
        }
      />
      <Box sx={chartGrid}>
        <TicketsOpenedResolvedChart days={f.charts.ticketsOpenedResolved} />
      </Box>
    </>
  );
}

function AdminFiguresView({ f }: { f: FiguresOf['admin'] }) {
  return (
    <>
      <KpiCards
        cards={f.kpis}
        extra={
          <>
            {f.funds ? (
              <StatCard
                label="Fund Requests to Review"
                value={f.funds.pending_requests}
                note={`${f.funds.pending_claims} claim${f.funds.pending_claims === 1 ? '' : 's'} to review · ${money(f.funds.available)} unspent`}
                icon={<SavingsIcon />}
                to="/funds"
              />
            ) : null}
            <StatCard
              label="Failed Jobs"
              value={f.failedJobs ?? '—'}
              note={f.failedJobs === null ? 'The job queue is unreachable' : 'Jobs that gave up'}
              icon={<WarningAmberIcon />}
            />
          </>
        }
      />
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
