import { isAdminRole } from '@domain/access';
import { initialRebateTab, REBATE_TABS, rebateTabsFor, type RebateTabKey } from '@domain/rebates/tabs';
import { hasAnyPermission } from '@domain/access';
import { Alert, Box, Paper, Tab, Tabs } from '@mui/material';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { usePrincipal } from '../access/usePrincipal';
import { PageTitle } from '../layout/PageTitle';
import { RebateHistory } from './RebateHistory';
import { RebateOverview } from './RebateOverview';
import { RebateProgress } from './RebateProgress';
import { RebateSubmit } from './RebateSubmit';
import { useOverview } from './useOverview';

/** /rebates: Overview, Submit Rebate, History and Progress, each for those holding its permission (spec 002 §2, §6). */
export default function RebatesPage() {
  const principal = usePrincipal();
  const [params, setParams] = useSearchParams();
  const overview = useOverview();
  const [version, setVersion] = useState(0);
  const allowed = principal ? rebateTabsFor(principal) : [];
  const tab = principal ? initialRebateTab(principal, params.get('tab')) : null;
  const select = (key: RebateTabKey) => setParams(key === initialRebateTab(principal!) ? {} : { tab: key }, { replace: true });
  const changed = () => {
    overview.reload();
    setVersion((v) => v + 1);
  };

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <PageTitle title="Rebates" subtitle="Submit rebate requests with their documents and follow your quarterly progress." />
      {principal && isAdminRole(principal.role) ? (
        <Alert severity="success" sx={{ mb: 2 }} data-testid="admin-access-note">
          Admin Access - Full permissions granted
        </Alert>
      ) : null}
      {tab === null ? (
        <Alert severity="warning" sx={{ maxWidth: 640 }}>
          <strong>Access restricted.</strong> Rebates need the View Rebates, Submit Rebates or Rebate Overview permission. Please contact your administrator.
        </Alert>
      ) : (
        <>
          <Paper variant="outlined" sx={{ mb: 2, minWidth: 0 }}>
            <Tabs
              value={tab}
              onChange={(_, key: RebateTabKey) => select(key)}
              variant="scrollable"
              scrollButtons="auto"
              allowScrollButtonsMobile
              aria-label="Rebate sections"
            >
              {REBATE_TABS.filter((t) => allowed.includes(t.key)).map((t) => (
                <Tab key={t.key} value={t.key} label={t.label} id={`rebates-tab-${t.key}`} aria-controls={`rebates-tabpanel-${t.key}`} />
              ))}
            </Tabs>
          </Paper>
          <Box role="tabpanel" id={`rebates-tabpanel-${tab}`} aria-labelledby={`rebates-tab-${tab}`}>
            {tab === 'overview' ? (
              <RebateOverview
                overview={overview.data}
                error={overview.error}
                loading={overview.loading}
                onRetry={overview.reload}
                onSubmit={allowed.includes('submit') ? () => select('submit') : undefined}
              />
            ) : tab === 'submit' ? (
              <RebateSubmit onSubmitted={changed} />
            ) : tab === 'history' ? (
              <RebateHistory
                canWithdraw={Boolean(principal && hasAnyPermission(principal, ['Rebates.Create', 'Rebates.Delete']))}
                version={version}
                onChanged={changed}
              />
            ) : (
              <RebateProgress overview={overview.data} error={overview.error} loading={overview.loading} onRetry={overview.reload} />
            )}
          </Box>
        </>
      )}
    </Box>
  );
}
