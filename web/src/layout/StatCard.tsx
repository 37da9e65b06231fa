import { Box, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';

/** One headline figure: the dashboards', the orders list's and a project's overview cards are all this one. */
export function StatCard({
  label,
  value,
  note,
  icon,
  to,
  children,
}: {
  label: string;
  value: ReactNode;
  note?: ReactNode;
  icon?: ReactNode;
  /** The list the figure counts. */
  to?: string;
  /** Below the figure, such as a progress bar. */
  children?: ReactNode;
}) {
  const link = to ? { component: RouterLink, to, title: 'Open the list of what this card counts' } : {};
  return (
    <Paper
      variant="outlined"
      {...link}
      sx={{
        p: { xs: 1.5, sm: 2 },
        minWidth: 0,
        display: 'flex',
        flexDirection: 'column',
        gap: 0.5,
        textDecoration: 'none',
        ...(to ? { '&:hover': { borderColor: 'primary.main' } } : {}),
      }}
      data-testid="stat-card"
    >
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="body2" color="text.secondary" sx={{ fontSize: { xs: '0.75rem', sm: '0.875rem' }, lineHeight: 1.3 }}>
          {label}
        </Typography>
        {icon ? <Box sx={{ color: 'primary.main', display: { xs: 'none', sm: 'flex' } }}>{icon}</Box> : null}
      </Box>
      <Typography variant="h5" component="p" sx={{ fontWeight: 700, wordBreak: 'break-word' }} aria-label={label} data-testid={`stat-${label}`}>
        {value}
      </Typography>
      {note ? (
        typeof note === 'string' ? (
          <Typography variant="caption" color="text.secondary">
            {note}
          </Typography>
        ) : (
          note
        )
      ) : null}
      {children}
    </Paper>
  );
}
