import { Box, Link as MuiLink, List, ListItem, ListItemText, Paper, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../formatting';
import type { ActivityItem } from '@contracts/dashboards';

/** "5 minutes ago", "3 days ago". */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  const units: Array<[number, string]> = [
    [86_400 * 365, 'year'],
    [86_400 * 30, 'month'],
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `${n} ${name}${n === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

/** Newest first: what changed, who changed it and when, each linking to its record. */
export function RecentActivity({ items }: { items: ActivityItem[] }) {
  return (
    <Box component="section" aria-labelledby="recent-activity-heading" sx={{ mt: 3 }}>
      <Typography id="recent-activity-heading" variant="h6" component="h2" sx={{ mb: 1.5 }}>
        Recent Activity
      </Typography>
      <Paper variant="outlined">
        {items.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            No recent activity yet.
          </Typography>
        ) : (
          <List dense disablePadding data-testid="recent-activity">
            {items.map((item, index) => (
              <ListItem key={item.id} divider={index < items.length - 1} sx={{ alignItems: 'flex-start' }}>
                <ListItemText
                  primary={
                    item.link ? (
                      <MuiLink component={Link} to={item.link} underline="hover" sx={{ wordBreak: 'break-word' }}>
                        {item.message}
                      </MuiLink>
                    ) : (
                      item.message
                    )
                  }
                  secondary={
                    <span title={formatDateTime(item.occurred_at)}>
                      {item.actor_name ? `${item.actor_name} · ` : ''}
                      {timeAgo(item.occurred_at)}
                    </span>
                  }
                />
              </ListItem>
            ))}
          </List>
        )}
      </Paper>
    </Box>
  );
}
