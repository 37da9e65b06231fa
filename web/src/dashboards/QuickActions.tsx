import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import { NO_QUICK_ACTIONS_MESSAGE } from '@domain/dashboards/quickActions';
import { Link } from 'react-router-dom';
import type { QuickAction } from '@contracts/dashboards';

/** The quick-action cards the user's permissions allow, or the spec's empty text. */
export function QuickActions({ actions }: { actions: QuickAction[] }) {
  return (
    <Box component="section" aria-labelledby="quick-actions-heading" sx={{ mt: 3 }}>
      <Typography id="quick-actions-heading" variant="h6" component="h2" sx={{ mb: 1.5 }}>
        Quick Actions
      </Typography>
      {actions.length === 0 ? (
        <Typography color="text.secondary">{NO_QUICK_ACTIONS_MESSAGE}</Typography>
      ) : (
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))', lg: 'repeat(2, minmax(0, 1fr))' },
          }}
          data-testid="quick-actions"
        >
          {actions.map((action) => (
            <Card key={action.key} variant="outlined">
              <CardActionArea component={Link} to={action.to} sx={{ height: '100%' }} data-action={action.key}>
                <CardContent sx={{ p: { xs: 1.5, sm: 2 } }}>
                  <Typography variant="subtitle2" component="h3" sx={{ fontWeight: 600 }}>
                    {action.label}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ fontSize: { xs: '0.75rem', sm: '0.875rem' } }}>
                    {action.description}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          ))}
        </Box>
      )}
    </Box>
  );
}
