import { Box } from '@mui/material';
import { PageTitle } from '../layout/PageTitle';
import { ActivityFeed } from './ActivityFeed';

/** /activity: the whole feed of the user's organisation, a page at a time. */
export default function ActivityPage() {
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 900 }}>
      <PageTitle title="Activity" subtitle="What happened to your organisation's orders, deal registrations, rebate claims, support tickets and team." />
      <ActivityFeed limit={20} paged title={null} />
    </Box>
  );
}
