import { Box, Button, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle';
import { SupportContactCard } from './SupportContactCard';

/** /live-chat: the portal has no chat; it says so and offers the ways that reach support. */
export default function LiveChat() {
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle title="Live Chat" subtitle="Live chat is not offered in the portal." />
      <SupportContactCard>
        <Typography variant="body2" sx={{ mb: 1.5 }}>
          Call or e-mail the support team, or open a support case: every case gets a number you can quote and is answered within the time its priority sets.
        </Typography>
        <Button variant="contained" component={RouterLink} to="/supportcenter?tab=cases">
          Open a support case
        </Button>
      </SupportContactCard>
    </Box>
  );
}
