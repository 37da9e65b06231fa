import { Alert, Box, Chip, Paper, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { SparkLineChart } from '@mui/x-charts/SparkLineChart';
import type { ReactNode } from 'react';
import { ChartCard, chartGrid, EmptyChart } from '../dashboards/charts';
import { RANK_BAND_TEXT, type Scorecard, type ScorecardDetail } from '../programme/programmeApi';

/** Cents as whole dollars ("$18,400"): scorecards compare partners, cents would only be noise. */
export const dollars = (cents: number | null | undefined) =>
  cents === null || cents === undefined ? '—' : `$${Math.round(cents / 100).toLocaleString('en-US')}`;
export const percent = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${Math.round(value * 10) / 10}%`);
const compactDollars = (cents: number) => {
  const value = cents / 100;
  return value >= 1_000_000 ? `$${Math.round(value / 100_000) / 10}M` : value >= 1000 ? `$${Math.round(value / 1000)}k` : `$${Math.round(value)}`;
};

export function RankBandChip({ row }: { row: Pick<Scorecard, 'rank_band' | 'rank' | 'ranked_organisations'> }) {
  const colour = row.rank_band === 'top_10' ? 'success' : row.rank_band === 'top_25' ? 'primary' : row.rank_band === 'top_50' ? 'info' : 'default';
  return (
    <Chip
      size="small"
      color={colour}
      variant={row.rank_band === 'lower_half' ? 'outlined' : 'filled'}
      label={RANK_BAND_TEXT[row.rank_band]}
      data-testid="rank-band"
    />
  );
}

/** Revenue over the last quarters, as a small line beside the row (no axes, no animation). */
export function Trend({ values, label }: { values: number[]; label: string }) {
  if (values.length < 2)
    return (
      <Typography variant="caption" color="text.secondary">
        —
      </Typography>
    );
  return (
    <Box sx={{ width: 96, height: 28 }} aria-label={label} role="img" data-testid="sparkline">
      <SparkLineChart
        data={values.map((v) => v / 100)}
        height={28}
        width={96}
        curve="linear"
        showHighlight
        showTooltip
        skipAnimation
        color="#1565c0"
        valueFormatter={(v) => dollars((v ?? 0) * 100)}
      />
    </Box>
  );
}

function Figure({ label, value, note }: { label: string; value: ReactNode; note?: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5, minWidth: 0 }} data-testid="scorecard-figure" data-label={label}>
      <Typography variant="caption" color="text.secondary" component="p" noWrap>
        {label}
      </Typography>
      <Typography variant="h6" component="p" noWrap sx={{ fontSize: '1.1rem' }}>
        {value}
      </Typography>
      {note ? (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ overflowWrap: 'anywhere' }}>
          {note}
        </Typography>
      ) : null}
    </Paper>
  );
}

/** One quarter's figures: revenue, deals, rebates, funds, leads, tickets and certified people. */
export function ScorecardFigures({ row }: { row: Scorecard }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 1.5,
        gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))', lg: 'repeat(6, minmax(0, 1fr))' },
      }}
      data-testid="scorecard-figures"
    >
      <Figure
        label="Score"
        value={`${Math.round(row.score)} / 100`}
        note={row.rank !== null ? `Rank ${row.rank} of ${row.ranked_organisations}` : <RankBandChip row={row} />}
      />
      <Figure
        label="Revenue"
        value={dollars(row.revenue_cents)}
        note={
          row.growth_percent === null
            ? 'No revenue the quarter before'
            : `${row.growth_percent >= 0 ? '+' : ''}${percent(row.growth_percent)} on ${dollars(row.previous_revenue_cents)}`
        }
      />
      <Figure
        label="Deals"
        value={`${row.deals_won} won`}
        note={`${row.deals_registered} registered · ${row.deals_approved} approved · win rate ${percent(row.win_rate_percent)}`}
      />
      <Figure
        label="Days to first order"
        value={row.avg_days_to_first_order === null ? '—' : Math.round(row.avg_days_to_first_order)}
        note="From registration, on average"
      />
      <Figure
        label="Rebate attainment"
        value={percent(row.rebate_attainment_percent)}
        note={`${dollars(row.rebates_approved_cents)} of ${dollars(row.rebates_claimed_cents)} claimed`}
      />
      <Figure
        label="MDF ROI"
        value={percent(row.mdf_roi_percent)}
        note={`${dollars(row.mdf_revenue_cents)} revenue on ${dollars(row.mdf_spent_cents)} spent`}
      />
      <Figure label="Lead acceptance" value={percent(row.lead_acceptance_percent)} note={`${row.leads_accepted} of ${row.leads_received} leads`} />
      <Figure label="Lead conversion" value={percent(row.lead_conversion_percent)} note={`${row.leads_converted} converted`} />
      <Figure label="Open tickets" value={row.open_tickets} note={`${row.overdue_tickets} overdue`} />
      <Figure label="Certified people" value={row.certified_people} note="Held a valid certification in the quarter" />
    </Box>
  );
}

const HEIGHT = 230;

/** Quarter by quarter: revenue, score, and deals won with the win rate. */
export function ScorecardCharts({ detail }: { detail: ScorecardDetail }) {
  const s = detail.sparklines;
  if (s.quarters.length === 0) return <Alert severity="info">No quarter with activity yet: the charts fill in as orders, deals and leads come in.</Alert>;
  const quarters = s.quarters;
  return (
    <Box
      sx={{ ...chartGrid, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' } }}
      data-testid="scorecard-charts"
    >
      {s.revenue_cents.every((v) => v === 0) ? (
        <EmptyChart title="Revenue per quarter" message="No delivered revenue in these quarters." />
      ) : (
        <ChartCard title="Revenue per quarter">
          <BarChart
            height={HEIGHT}
            skipAnimation
            xAxis={[{ scaleType: 'band', data: quarters, tickLabelMinGap: 4 }]}
            yAxis={[{ width: 56, valueFormatter: (v: number) => compactDollars(v * 100) }]}
            series={[{ data: s.revenue_cents.map((v) => v / 100), label: 'Revenue', color: '#1565c0', valueFormatter: (v) => dollars((v ?? 0) * 100) }]}
            hideLegend
            margin={{ left: 0, right: 8 }}
          />
        </ChartCard>
      )}
      <ChartCard title="Score per quarter">
        <LineChart
          height={HEIGHT}
          skipAnimation
          xAxis={[{ scaleType: 'point', data: quarters }]}
          yAxis={[{ min: 0, max: 100, width: 36 }]}
          series={[{ data: s.score, label: 'Score', color: '#6a1b9a', curve: 'linear', valueFormatter: (v) => (v === null ? '—' : `${Math.round(v)}`) }]}
          hideLegend
          margin={{ left: 0, right: 24 }}
        />
      </ChartCard>
      {s.deals_won.every((v) => v === 0) && s.win_rate_percent.every((v) => v === null || v === 0) ? (
        <EmptyChart title="Deals won and win rate" message="No deals won or lost in these quarters." />
      ) : (
        <ChartCard title="Deals won and win rate">
          <BarChart
            height={HEIGHT}
            skipAnimation
            xAxis={[{ scaleType: 'band', data: quarters, tickLabelMinGap: 4 }]}
            yAxis={[
              { id: 'deals', tickMinStep: 1, width: 32 },
              { id: 'rate', position: 'right', min: 0, max: 100, width: 40, valueFormatter: (v: number) => `${v}%` },
            ]}
            series={[
              { data: s.deals_won, label: 'Deals won', color: '#2e7d32', yAxisId: 'deals' },
              { data: s.win_rate_percent.map((v) => v ?? 0), label: 'Win rate', color: '#ef6c00', yAxisId: 'rate', valueFormatter: (v) => percent(v) },
            ]}
            margin={{ left: 0, right: 0 }}
          />
        </ChartCard>
      )}
    </Box>
  );
}
