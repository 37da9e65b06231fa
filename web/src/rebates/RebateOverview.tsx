import type { RebateOverview as Overview } from '@contracts/rebates';
import { formatUsd } from '@domain/money';
import EmojiEventsIcon from '@mui/icons-material/EmojiEvents';
import FlagIcon from '@mui/icons-material/Flag';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import { Alert, Box, Button, Link, Paper, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import type { ReactElement, ReactNode } from 'react';
import { overviewPlaceholder, type OverviewTabProps } from './overviewPlaceholder';
import { RebateProgressBar } from './RebateProgressBar';

function Kpi({ label, value, hint, icon, testId }: { label: string; value: ReactNode; hint?: ReactNode; icon: ReactElement; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, display: 'flex', gap: 1.5, alignItems: 'flex-start', minWidth: 0 }}>
      <Box sx={{ color: 'primary.main', display: { xs: 'none', sm: 'flex' }, pt: 0.5 }}>{icon}</Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary" sx={{ lineHeight: 1.3 }}>
          {label}
        </Typography>
        <Typography
          variant="h6"
          component="p"
          sx={{ fontWeight: 700, lineHeight: 1.3, fontSize: { xs: '1.05rem', sm: '1.25rem' }, overflowWrap: 'anywhere' }}
          data-testid={testId}
        >
          {value}
        </Typography>
        {hint ? (
          <Typography variant="caption" color="text.secondary" component="p">
            {hint}
          </Typography>
        ) : null}
      </Box>
    </Paper>
  );
}

/** Approved purchases and rebates for each month of the quarter, as bars. */
function QuarterChart({ overview }: { overview: Overview }) {
  const max = Math.max(1, ...overview.monthly.map((m) => m.purchases));
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label={`${overview.quarter.label} by month`}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {overview.quarter.label} by month
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 2 }}>
        Approved purchases and the rebates earned on them, by month of purchase.
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 2, alignItems: 'end', height: 180 }} data-testid="quarter-chart">
        {overview.monthly.map((m) => (
          <Box
            key={m.month}
            sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', height: '100%', justifyContent: 'flex-end', minWidth: 0 }}
            data-testid="chart-month"
            data-month={m.month}
          >
            <Box sx={{ display: 'flex', gap: 0.75, alignItems: 'flex-end', height: '100%', width: '100%', justifyContent: 'center' }}>
              <Box
                title={`Purchases ${formatUsd(m.purchases)}`}
                sx={{
                  width: '40%',
                  maxWidth: 40,
                  bgcolor: 'primary.main',
                  borderRadius: '4px 4px 0 0',
                  height: `${(m.purchases / max) * 100}%`,
                  minHeight: m.purchases ? 4 : 0,
                }}
              />
              <Box
                title={`Rebates ${formatUsd(m.rebates)}`}
                sx={{
                  width: '40%',
                  maxWidth: 40,
                  bgcolor: 'success.main',
                  borderRadius: '4px 4px 0 0',
                  height: `${(m.rebates / max) * 100}%`,
                  minHeight: m.rebates ? 4 : 0,
                }}
              />
            </Box>
            <Typography variant="body2" sx={{ mt: 0.5, fontWeight: 600 }}>
              {m.label}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap sx={{ maxWidth: '100%' }}>
              {formatUsd(m.purchases)}
            </Typography>
            <Typography variant="caption" color="success.dark" noWrap sx={{ maxWidth: '100%' }}>
              {formatUsd(m.rebates)}
            </Typography>
          </Box>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 2, mt: 1.5, justifyContent: 'center' }}>
        <Typography variant="caption" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <Box component="span" sx={{ width: 10, height: 10, bgcolor: 'primary.main', borderRadius: 0.5 }} /> Purchases
        </Typography>
        <Typography variant="caption" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <Box component="span" sx={{ width: 10, height: 10, bgcolor: 'success.main', borderRadius: 0.5 }} /> Rebates
        </Typography>
      </Box>
    </Paper>
  );
}

function Counts({ overview }: { overview: Overview }) {
  const c = overview.summary_counts;
  const f = overview.financial_summary;
  const rows: Array<[string, ReactNode]> = [
    ['Total requests', c.total],
    ['Approved', c.approved],
    ['Processing', c.processing],
    ['Pending', c.pending],
    ['Rejected', c.rejected],
  ];
  const money: Array<[string, number]> = [
    ['Total purchases (approved)', f.total_purchase],
    ['Total rebates earned', f.total_rebate],
    [`${overview.quarter.label} purchases`, f.quarterly_purchase],
    [`${overview.quarter.label} rebates`, f.quarterly_rebate],
  ];
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Summary">
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          Summary
        </Typography>
        {rows.map(([label, value]) => (
          <Box key={label} sx={{ display: 'flex', justifyContent: 'space-between', py: 0.5 }}>
            <Typography variant="body2">{label}</Typography>
            <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid={`count-${label}`}>
              {value}
            </Typography>
          </Box>
        ))}
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Financial summary">
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          Financial summary
        </Typography>
        {money.map(([label, value]) => (
          <Box key={label} sx={{ display: 'flex', justifyContent: 'space-between', py: 0.5, gap: 2 }}>
            <Typography variant="body2">{label}</Typography>
            <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid={`money-${label}`}>
              {formatUsd(value)}
            </Typography>
          </Box>
        ))}
      </Paper>
    </Box>
  );
}

/** The Overview tab: the quarter's progress, target, tier and pending claims, the counts and money, and the quarter by month. */
export function RebateOverview({ onSubmit, ...tab }: OverviewTabProps & { onSubmit?: () => void }) {
  const placeholder = overviewPlaceholder(tab);
  if (placeholder) return placeholder;
  const { overview } = tab;
  if (!overview || overview.summary_counts.total === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 3, textAlign: 'center' }}>
        <Typography color="text.secondary">No dashboard data available</Typography>
        {onSubmit ? (
          <Button sx={{ mt: 2 }} variant="contained" onClick={onSubmit}>
            Submit your first rebate
          </Button>
        ) : null}
      </Paper>
    );
  }
  const all = overview.scope === 'all';
  const p = overview.quarterly_progress;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {all ? (
        <Alert severity="info">
          Figures across all organisations. Tiers and rates belong to each organisation: the review dialog suggests each claim's rebate.
        </Alert>
      ) : null}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, minmax(0, 1fr))' } }}>
        {overview.tier_source === 'programme' ? (
          <Kpi
            label="Rebate rate"
            icon={<TrendingUpIcon />}
            testId="kpi-rate"
            value={`${overview.rate}%`}
            hint={`of your ${overview.current_tier.tier} programme tier`}
          />
        ) : (
          <Kpi
            label="Quarterly progress"
            icon={<TrendingUpIcon />}
            testId="kpi-progress"
            value={p.percentage === null ? '—' : `${p.percentage}%`}
            hint={overview.quarter.label}
          />
        )}
        <Kpi
          label="Quarterly target"
          icon={<FlagIcon />}
          testId="kpi-target"
          value={overview.quarterly_target.target === null ? formatUsd(overview.quarterly_target.current) : formatUsd(overview.quarterly_target.target)}
          hint={
            overview.quarterly_target.target === null ? 'approved purchases this quarter' : `${formatUsd(overview.quarterly_target.current)} purchased so far`
          }
        />
        <Kpi
          label="Current tier"
          icon={<EmojiEventsIcon />}
          testId="kpi-tier"
          value={overview.current_tier.tier ?? 'Per organisation'}
          hint={overview.current_tier.tier ? (overview.current_tier.next ? `Next: ${overview.current_tier.next}` : 'Top tier reached') : undefined}
        />
        <Kpi
          label="Pending rebates"
          icon={<HourglassTopIcon />}
          testId="kpi-pending"
          value={overview.pending_rebates.count}
          hint={`${formatUsd(overview.pending_rebates.total)} of purchases awaiting review`}
        />
      </Box>
      {overview.tier_source === 'programme' ? <ProgrammeNext overview={overview} /> : null}
      {p.percentage !== null ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <RebateProgressBar percentage={p.percentage} label={`${overview.quarter.progress_label}: ${formatUsd(p.current)} of ${formatUsd(p.target ?? 0)}`} />
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
            {overview.current_tier.next
              ? `${formatUsd(overview.remaining_to_next_tier ?? 0)} more in approved purchases this quarter reaches ${overview.current_tier.next}. ${overview.quarter.days_remaining} days remaining.`
              : `Top tier reached. ${overview.quarter.days_remaining} days remaining.`}
          </Typography>
        </Paper>
      ) : null}
      <QuarterChart overview={overview} />
      <Counts overview={overview} />
    </Box>
  );
}

/** For an organisation in the partner programme: its tier sets the rebate rate, and the programme says what the next tier needs. */
export function ProgrammeNext({ overview }: { overview: Overview }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="programme-next">
      <Typography variant="body2">
        {overview.current_tier.next
          ? `${overview.current_tier.next} (a higher rebate rate) needs ${overview.next_tier_missing ?? 'nothing more: it comes with the next evaluation'}.`
          : `${overview.current_tier.tier} is the top tier of the partner programme.`}
      </Typography>
      <Link component={RouterLink} to="/partnership-governance" variant="body2">
        See the partner programme
      </Link>
    </Paper>
  );
}
