import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import { Box, Button, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle';

export interface SignpostLink {
  label: string;
  to: string;
}

export interface PlaceholderProps {
  title: string;
  /** What the portal does not have here, said plainly. */
  subtitle?: string;
  /** What the portal has instead. */
  description?: string;
  /** Where to go for it; the first is the main way. */
  links?: readonly SignpostLink[];
  children?: ReactNode;
}

const HOME: readonly SignpostLink[] = [{ label: 'Back to the home page', to: '/' }];

/**
 * The one style of a page the portal keeps without content of its own: it says plainly what is not
 * here, what exists instead, and links there. Each such page is listed in docs/decisions.md.
 */
export function Placeholder({ title, subtitle, description, links = HOME, children }: PlaceholderProps) {
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 960 }}>
      <PageTitle title={title} subtitle={subtitle} />
      {children}
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, display: 'flex', gap: 2, alignItems: 'flex-start', maxWidth: 720 }} data-testid="signpost">
        <InfoOutlinedIcon color="primary" sx={{ display: { xs: 'none', sm: 'block' } }} />
        <Box sx={{ minWidth: 0 }}>
          {description ? (
            <Typography variant="body1" sx={{ mb: 1 }}>
              {description}
            </Typography>
          ) : null}
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 2 }}>
            {links.map((link, index) => (
              <Button key={link.to} variant={index === 0 ? 'contained' : index === 1 ? 'outlined' : 'text'} component={RouterLink} to={link.to}>
                {link.label}
              </Button>
            ))}
          </Box>
        </Box>
      </Paper>
    </Box>
  );
}
