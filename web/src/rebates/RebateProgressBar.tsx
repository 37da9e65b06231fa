import { Box, LinearProgress, Typography } from '@mui/material';

/** The quarter's progress to the target, capped at 100 and green once reached (spec 002 §3, §9). */
export function RebateProgressBar({ percentage, label }: { percentage: number; label: string }) {
  const value = Math.min(100, Math.max(0, percentage));
  const reached = value >= 100;
  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', mb: 0.5 }}>
        <Typography variant="body2">{label}</Typography>
        <Typography variant="body2" sx={{ fontWeight: 700 }} data-testid="progress-percentage">
          {value}%
        </Typography>
      </Box>
      <LinearProgress
        variant="determinate"
        value={value}
        color={reached ? 'success' : 'primary'}
        data-testid="progress-bar"
        data-reached={reached}
        aria-label={label}
        sx={{ height: 12, borderRadius: 6 }}
      />
    </Box>
  );
}
