import TrendingDownIcon from '@mui/icons-material/TrendingDown';
import TrendingFlatIcon from '@mui/icons-material/TrendingFlat';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import { Box, Paper, Skeleton, Typography } from '@mui/material';

export const cardGrid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' } } as const;

/** Money as the portal shows totals: $1,234.50. */
export const money = (value: number | null | undefined) =>
  value === null || value === undefined
    ? '—'
    : value.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: value >= 10_000 ? 0 : 2 });

/** A growth percentage against the previous period of the same length; none when there was nothing before. */
export function Growth({ value, period }: { value: number | null; period: string }) {
  if (value === null) {
    return (
      <Typography variant="caption" color="text.secondary">
        New since {period}
      </Typography>
    );
  }
  const Icon = value > 0 ? TrendingUpIcon : value < 0 ? TrendingDownIcon : TrendingFlatIcon;
  const color = value > 0 ? 'success.main' : value < 0 ? 'error.main' : 'text.secondary';
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color, flexWrap: 'wrap' }}>
      <Icon fontSize="small" aria-hidden />
      <Typography variant="caption" sx={{ color: 'inherit' }}>
        {value > 0 ? '+' : ''}
        {value}% vs {period}
      </Typography>
    </Box>
  );
}

/** Placeholder cards while the figures load. */
export function SkeletonCards({ count = 4 }: { count?: number }) {
  return (
    <Box sx={cardGrid} aria-busy="true" aria-label="Loading dashboard">
      {Array.from({ length: count }, (_, i) => (
        <Paper key={i} variant="outlined" sx={{ p: 2 }} data-testid="skeleton-card">
          <Skeleton width="60%" />
          <Skeleton variant="text" sx={{ fontSize: '2rem' }} width="40%" />
          <Skeleton width="80%" />
        </Paper>
      ))}
    </Box>
  );
}
