import ConstructionIcon from '@mui/icons-material/Construction';
import { Box, Button, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle';

export interface PlaceholderProps {
  title: string;
  subtitle?: string;
  /** What the finished screen will offer. */
  description?: string;
  children?: ReactNode;
}

/** A titled screen whose content is still being built; it says so plainly. */
export function Placeholder({ title, subtitle, description, children }: PlaceholderProps) {
  const navigate = useNavigate();
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 960 }}>
      <PageTitle title={title} subtitle={subtitle} />
      {children}
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' } }} data-testid="coming-soon">
        <ConstructionIcon color="action" />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            Coming soon
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {description ?? `The ${title} screen is being built and will be available in an upcoming release.`}
          </Typography>
          <Button size="small" sx={{ mt: 1, ml: -1 }} onClick={() => navigate('/')}>
            Back to the home page
          </Button>
        </Box>
      </Paper>
    </Box>
  );
}
