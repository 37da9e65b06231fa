import { Box, Button, Paper, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { Gauge, gaugeClasses } from '@mui/x-charts/Gauge';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { ReactNode } from 'react';
import type { MonthPoint, RebateProgress, TicketDay, WeekPoint } from '@contracts/dashboards';
import { money } from './StatCard';

export const chartGrid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' }, mt: 2 } as const;

const HEIGHT = 240;
const shortDate = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const shortMonth = (month: string) => new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });

/** A chart with its heading; the chart itself takes the card's width. */
export function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0 }} data-testid="chart-card">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      <Box sx={{ width: '100%', minWidth: 0 }}>{children}</Box>
    </Paper>
  );
}

/** What a chart with nothing to draw says instead of an empty axis, and the action that creates the first record. */
export interface EmptyChartAction {
  label: string;
  to: string;
}

export function EmptyChart({ title, message, action }: { title: string; message: string; action?: EmptyChartAction | null }) {
  return (
    <ChartCard title={title}>
      <Box
        sx={{ minHeight: 160, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 1.5, textAlign: 'center' }}
        data-testid="empty-chart"
      >
        <Typography variant="body2" color="text.secondary">
          {message}
        </Typography>
        {action ? (
          <Button component={RouterLink} to={action.to} variant="outlined" size="small">
            {action.label}
          </Button>
        ) : null}
      </Box>
    </ChartCard>
  );
}

export function OrdersPerWeekChart({ weeks, emptyAction }: { weeks: WeekPoint[]; emptyAction?: EmptyChartAction | null }) {
  if (weeks.every((w) => w.count === 0)) return <EmptyChart title="Orders per week" message="No orders yet in these weeks." action={emptyAction} />;
  return (
    <ChartCard title="Orders per week">
      <BarChart
        height={HEIGHT}
        xAxis={[{ scaleType: 'band', data: weeks.map((w) => shortDate(w.week)), tickLabelMinGap: 8 }]}
        yAxis={[{ tickMinStep: 1, width: 36 }]}
        series={[{ data: weeks.map((w) => w.count), label: 'Orders', color: '#1565c0' }]}
        hideLegend
        margin={{ left: 0, right: 8 }}
      />
    </ChartCard>
  );
}

export function OrderValuePerMonthChart({ months, emptyAction }: { months: MonthPoint[]; emptyAction?: EmptyChartAction | null }) {
  if (months.every((m) => m.value === 0)) return <EmptyChart title="Order value per month" message="No orders yet in these months." action={emptyAction} />;
  return (
    <ChartCard title="Order value per month">
      <LineChart
        height={HEIGHT}
        xAxis={[{ scaleType: 'point', data: months.map((m) => shortMonth(m.month)) }]}
        yAxis={[{ width: 56, valueFormatter: (v: number) => (v >= 1000 ? `$${Math.round(v / 1000)}k` : `$${v}`) }]}
        series={[
          { data: months.map((m) => m.value), label: 'Order value', area: true, curve: 'linear', color: '#2e7d32', valueFormatter: (v) => money(v ?? 0) },
        ]}
        hideLegend
        margin={{ left: 0, right: 28 }}
      />
    </ChartCard>
  );
}

export function TicketsOpenedResolvedChart({ days, emptyAction }: { days: TicketDay[]; emptyAction?: EmptyChartAction | null }) {
  if (days.every((d) => d.opened === 0 && d.resolved === 0))
    return <EmptyChart title="Tickets opened vs resolved" message="No tickets opened or resolved in the last 14 days." action={emptyAction} />;
  return (
    <ChartCard title="Tickets opened vs resolved">
      <BarChart
        height={HEIGHT}
        xAxis={[{ scaleType: 'band', data: days.map((d) => shortDate(d.day)), tickLabelMinGap: 8 }]}
        yAxis={[{ tickMinStep: 1, width: 36 }]}
        series={[
          { data: days.map((d) => d.opened), label: 'Opened', color: '#ef6c00' },
          { data: days.map((d) => d.resolved), label: 'Resolved', color: '#2e7d32' },
        ]}
        margin={{ left: 0, right: 8 }}
      />
    </ChartCard>
  );
}

/** Counts by a category (projects by stage or registration state), as horizontal bars. */
export function CountsByChart({
  title,
  counts,
  labels,
  emptyAction,
}: {
  title: string;
  counts: Record<string, number>;
  labels?: Record<string, string>;
  emptyAction?: EmptyChartAction | null;
}) {
  const keys = Object.keys(counts);
  const total = keys.reduce((sum, k) => sum + counts[k], 0);
  if (total === 0) return <EmptyChart title={title} message="No projects yet." action={emptyAction} />;
  return (
    <ChartCard title={title}>
      <BarChart
        height={HEIGHT}
        layout="horizontal"
        yAxis={[{ scaleType: 'band', data: keys.map((k) => labels?.[k] ?? k), width: 84 }]}
        xAxis={[{ tickMinStep: 1 }]}
        series={[{ data: keys.map((k) => counts[k]), label: 'Projects', color: '#6a1b9a' }]}
        hideLegend
        margin={{ right: 16 }}
      />
      <Typography variant="caption" color="text.secondary">
        {total} project{total === 1 ? '' : 's'} in all
      </Typography>
    </ChartCard>
  );
}

/** This quarter's purchases against the next rebate tier. */
export function RebateProgressChart({ progress }: { progress: RebateProgress }) {
  const percentage = progress.progressPercentage ?? 0;
  return (
    <ChartCard title={`Rebate progress · ${progress.quarterLabel}`}>
      <Gauge
        height={170}
        value={Math.min(100, percentage)}
        startAngle={-110}
        endAngle={110}
        innerRadius="72%"
        text={() => (progress.progressPercentage === null ? '—' : `${percentage}%`)}
        sx={{ [`& .${gaugeClasses.valueText}`]: { fontSize: 28, fontWeight: 700 }, [`& .${gaugeClasses.valueArc}`]: { fill: '#2e7d32' } }}
        aria-label="Rebate progress"
      />
      <Box>
        <Typography variant="body2" sx={{ textAlign: 'center', fontWeight: 600 }}>
          {progress.currentTier ? `${progress.currentTier} tier` : 'No tier yet'}
          {progress.nextTier ? ` → ${progress.nextTier}` : ''}
        </Typography>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap', mt: 1 }}>
          <Typography variant="caption" color="text.secondary">
            Purchases this quarter: {money(progress.quarterlyPurchases)}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {progress.nextTier ? `${money(progress.remainingToNextTier)} to ${progress.nextTier}` : progress.currentTier ? 'Top tier reached' : ''}
          </Typography>
        </Box>
      </Box>
    </ChartCard>
  );
}
