import AssignmentIcon from '@mui/icons-material/Assignment';
import GroupsIcon from '@mui/icons-material/Groups';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import PaidIcon from '@mui/icons-material/Paid';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import VerifiedIcon from '@mui/icons-material/Verified';
import { Box, Button, Link, List, ListItem, ListItemIcon, ListItemText, Pagination, Paper, Typography } from '@mui/material';
import { useState, type ReactElement } from 'react';
import { useGetList } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { formatDateTime } from '../formatting';
import { LoadError, Loading } from '../layout/ListStates';
import type { ActivityLine } from './activityApi';

const ICONS: Record<ActivityLine['resource'], ReactElement> = {
  orders: <LocalShippingIcon fontSize="small" />,
  rebates: <PaidIcon fontSize="small" />,
  projects: <AssignmentIcon fontSize="small" />,
  tickets: <SupportAgentIcon fontSize="small" />,
  team: <GroupsIcon fontSize="small" />,
  organisation: <VerifiedIcon fontSize="small" />,
};

/**
 * The signed-in user's organisation's recent activity, newest first. Dashboards mount it with a small
 * `limit` and `seeAllLink`; the /activity page shows it with pages.
 */
export function ActivityFeed({
  limit = 10,
  paged = false,
  title = 'Recent activity',
  seeAllLink,
}: {
  limit?: number;
  paged?: boolean;
  title?: string | null;
  seeAllLink?: string;
}) {
  const [page, setPage] = useState(1);
  const {
    data = [],
    total = 0,
    isPending,
    error,
    refetch,
  } = useGetList<ActivityLine>('activity', {
    pagination: { page, perPage: limit },
    sort: { field: 'occurred_at', order: 'DESC' },
  });
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }} aria-label={title ?? 'Activity'} component="section">
      {title || seeAllLink ? (
        <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 1, mb: 1 }}>
          {title ? (
            <Typography variant="h6" component="h2">
              {title}
            </Typography>
          ) : (
            <span />
          )}
          {seeAllLink && total > data.length ? (
            <Button component={RouterLink} to={seeAllLink} size="small">
              See all
            </Button>
          ) : null}
        </Box>
      ) : null}
      <LoadError error={error} message="The activity could not be loaded." onRetry={refetch} />
      {isPending ? (
        <Loading />
      ) : data.length === 0 && !error ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          No activity yet. Orders, deal registrations, rebate claims and support tickets of your organisation will show up here.
        </Typography>
      ) : (
        <List dense disablePadding>
          {data.map((line) => (
            <ListItem key={line.id} disableGutters divider data-testid="activity-line" sx={{ alignItems: 'flex-start' }}>
              <ListItemIcon sx={{ minWidth: 36, mt: 0.75, color: 'primary.main' }}>{ICONS[line.resource] ?? ICONS.organisation}</ListItemIcon>
              <ListItemText
                primary={
                  line.link ? (
                    <Link component={RouterLink} to={line.link} underline="hover" color="inherit" sx={{ overflowWrap: 'anywhere' }}>
                      {line.message}
                    </Link>
                  ) : (
                    <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
                      {line.message}
                    </Box>
                  )
                }
                secondary={formatDateTime(line.occurred_at)}
              />
            </ListItem>
          ))}
        </List>
      )}
      {paged && pages > 1 ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Pagination count={pages} page={page} onChange={(_, next) => setPage(next)} size="small" siblingCount={0} />
        </Box>
      ) : null}
    </Paper>
  );
}
