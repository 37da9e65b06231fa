import { SERVICE_LEVEL_HOURS, TICKET_PRIORITIES } from '@domain/tickets/tickets';
import { Box, Button, List, ListItem, ListItemText, Tab, Tabs, Typography } from '@mui/material';
import { useSearchParams } from 'react-router-dom';
import { RouteGuard } from '../access/RouteGuard';
import { PageTitle } from '../layout/PageTitle';
import { MyCases } from './MyCases';
import { WarrantyRma } from './WarrantyRma';
import { Downloads } from './Downloads';
import { SupportContactCard } from './SupportContactCard';
import { useAccess } from '../access/usePrincipal';

export const SUPPORT_TABS = [
  { key: 'downloads', label: 'Downloads' },
  { key: 'warranty', label: 'Warranty/RMA' },
  { key: 'cases', label: 'My Cases' },
  { key: 'contact', label: 'Contact' },
] as const;
type TabKey = (typeof SUPPORT_TABS)[number]['key'];

const hours = (n: number) => (n % 24 === 0 ? `${n / 24} day${n === 24 ? '' : 's'}` : `${n} hours`);

function ServiceLevels() {
  return (
    <List dense disablePadding>
      {[...TICKET_PRIORITIES].reverse().map((priority) => (
        <ListItem key={priority} disableGutters>
          <ListItemText primary={`${priority}: answered within ${hours(SERVICE_LEVEL_HOURS[priority])}`} />
        </ListItem>
      ))}
    </List>
  );
}

function SupportCenterTabs() {
  const { role } = useAccess();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabKey = SUPPORT_TABS.some((t) => t.key === requested) ? (requested as TabKey) : 'cases';
  const select = (key: TabKey) => setParams(key === 'cases' ? {} : { tab: key });

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle title="Support Center" subtitle="Downloads, warranty and returns, your support cases and how to reach us." />
      <Tabs
        value={tab}
        onChange={(_, value: TabKey) => select(value)}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label="Support Center sections"
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {SUPPORT_TABS.map((t) => (
          <Tab key={t.key} value={t.key} label={t.label} />
        ))}
      </Tabs>
      {tab === 'cases' ? <MyCases /> : null}
      {tab === 'downloads' ? <Downloads admin={role === 'admin' || role === 'administrator'} /> : null}
      {tab === 'warranty' ? <WarrantyRma onTicket={(ticketId) => setParams({ ticket: ticketId })} /> : null}
      {tab === 'contact' ? (
        <SupportContactCard>
          <Typography variant="body2" sx={{ mb: 1 }}>
            A support case has a number you can quote on the phone, and its priority sets when it is due:
          </Typography>
          <ServiceLevels />
          <Button variant="contained" sx={{ mt: 2 }} onClick={() => select('cases')}>
            Open a support case
          </Button>
        </SupportContactCard>
      ) : null}
    </Box>
  );
}

/** /supportcenter: needs Support.Read (spec 000 §6). */
export default function SupportCenter() {
  return (
    <RouteGuard path="/supportcenter" title="Support Center">
      <SupportCenterTabs />
    </RouteGuard>
  );
}
