import { Box, Button, Paper, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle';

interface LearningPage {
  title: string;
  /** What the portal does not have, said plainly. */
  absent: string;
}

/** /learn-earn, /training-videos and /tech-gallery: what exists instead, with the way to it. */
const LEARNING_PAGES: Record<string, LearningPage> = {
  '/learn-earn': { title: 'Learn & Earn', absent: 'PartnerHub has no training programme with rewards.' },
  '/training-videos': { title: 'Training Videos', absent: 'PartnerHub does not host training videos.' },
  '/tech-gallery': { title: 'Tech Gallery', absent: 'PartnerHub has no gallery of installations.' },
};

export default function LearningPage({ path }: { path: string }) {
  const page = LEARNING_PAGES[path];
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle title={page.title} subtitle={page.absent} />
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, maxWidth: 720 }}>
        <Typography variant="body1" sx={{ mb: 1 }}>
          What the portal has: product datasheets, manuals, firmware notes and price lists in the Downloads library, and the support team for anything they do not answer.
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 2 }}>
          <Button variant="contained" component={RouterLink} to="/supportcenter?tab=downloads">
            Open Downloads
          </Button>
          <Button variant="outlined" component={RouterLink} to="/faqs">
            Read the FAQs
          </Button>
          <Button component={RouterLink} to="/supportcenter?tab=contact">
            Contact support
          </Button>
        </Box>
      </Paper>
    </Box>
  );
}
