import { formatUsd } from '@domain/money';
import { Box, Chip, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { overviewPlaceholder, type OverviewTabProps } from './overviewPlaceholder';
import { ProgrammeNext } from './RebateOverview';
import { RebateProgressBar } from './RebateProgressBar';

/** The Progress tab: the real quarter, days remaining, rate and tier (spec 002 §3 showed fixed strings). */
export function RebateProgress(tab: OverviewTabProps) {
  const placeholder = overviewPlaceholder(tab);
  if (placeholder) return placeholder;
  const { overview } = tab;
  if (!overview) return <Typography color="text.secondary">No dashboard data available</Typography>;
  const p = overview.quarterly_progress;
  const tier = overview.current_tier.tier ?? 'Bronze';
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, alignItems: 'start' }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 2 }}>
          <Typography variant="h6" component="h2" data-testid="progress-title">
            {overview.quarter.progress_label}
          </Typography>
          {overview.scope === 'organisation' ? <Chip label={tier} color="primary" data-testid="progress-tier" /> : null}
        </Box>
        {overview.tier_source === 'programme' ? (
          <ProgrammeNext overview={overview} />
        ) : p.percentage !== null ? (
          <RebateProgressBar percentage={p.percentage} label={`${formatUsd(p.current)} of ${formatUsd(p.target ?? 0)}`} />
        ) : (
          <Typography color="text.secondary">Progress is measured per organisation.</Typography>
        )}
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(3, minmax(0, 1fr))' },
            gap: 2,
            mt: 3,
            '& .MuiTypography-h6': { fontSize: { xs: '1.05rem', sm: '1.25rem' }, overflowWrap: 'anywhere' },
          }}
        >
          <Box>
            <Typography variant="caption" color="text.secondary">
              Days remaining
            </Typography>
            <Typography variant="h6" component="p" data-testid="progress-days">
              {overview.quarter.days_remaining} {overview.quarter.days_remaining === 1 ? 'day' : 'days'} remaining
            </Typography>
          </Box>
          <Box>
            <Typography variant="caption" color="text.secondary">
              Current rebate rate
            </Typography>
            <Typography variant="h6" component="p" data-testid="progress-rate">
              {overview.rate === null ? '—' : `${overview.rate}%`}
            </Typography>
          </Box>
          <Box>
            <Typography variant="caption" color="text.secondary">
              {overview.current_tier.next && overview.tier_source !== 'programme' ? `To ${overview.current_tier.next}` : 'Next tier'}
            </Typography>
            <Typography variant="h6" component="p" data-testid="progress-remaining">
              {overview.tier_source === 'programme'
                ? (overview.current_tier.next ?? 'Top tier')
                : overview.remaining_to_next_tier === null
                  ? '—'
                  : overview.current_tier.next
                    ? formatUsd(overview.remaining_to_next_tier)
                    : 'Top tier'}
            </Typography>
          </Box>
        </Box>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 2 }}>
          Approved purchases count in the quarter of their purchase date ({overview.quarter.start} to {overview.quarter.end}).
        </Typography>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Tiers">
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          Tiers
        </Typography>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>Tier</TableCell>
              {overview.tier_source === 'programme' ? null : <TableCell align="right">Quarterly purchases</TableCell>}
              <TableCell align="right">Rate</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {overview.tiers.map((t) => (
              <TableRow key={t.name} selected={t.name === overview.current_tier.tier}>
                <TableCell sx={{ fontWeight: t.name === overview.current_tier.tier ? 700 : 400 }}>{t.name}</TableCell>
                {t.threshold === null ? null : <TableCell align="right">{t.threshold === 0 ? 'from $0' : `from ${formatUsd(t.threshold)}`}</TableCell>}
                <TableCell align="right">{t.rate}%</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {overview.tier_source === 'programme' ? (
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
            Tiers are earned in the partner programme, evaluated each quarter.
          </Typography>
        ) : null}
      </Paper>
    </Box>
  );
}
