import GroupIcon from '@mui/icons-material/Group';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import VerifiedIcon from '@mui/icons-material/Verified';
import { Box, Paper, Tab, Tabs, Typography } from '@mui/material';
import type { ReactElement } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle';
import { ProductManagement } from '../products/ProductList';
import { PartnerApprovals } from '../partners/PartnerApprovals';
import { DealRegistrations } from '../projects/DealRegistrations';
import { usePartnerCounts } from '../partners/partnersApi';
import { RebateManagement } from '../rebates/RebateManagement';
import { SystemSettings } from './SystemSettings';
import { useAdminSummary } from './useAdminSummary';
import users from '../users';
import { canAccess, isAdminRole, type Principal } from '@domain/access';
import { usePrincipal } from '../access/usePrincipal';

/**
 * The tabs, each shown to those who may use it: anyone who opens the panel (any Users or
 * Partners permission) sees Partner Approvals; the others manage things the server lets only
 * administrators manage (every /users endpoint, products, rebate reviews, settings).
 */
export const ADMIN_TABS = [
  { key: 'approvals', label: 'Partner Approvals', allowed: (_: Principal) => true },
  { key: 'users', label: 'User Management', allowed: (p: Principal) => isAdminRole(p.role) },
  { key: 'registrations', label: 'Deal Registrations', allowed: (p: Principal) => isAdminRole(p.role) },
  { key: 'products', label: 'Product Management', allowed: (p: Principal) => canAccess(p, { action: 'create', resource: 'products' }) },
  { key: 'rebates', label: 'Rebate Management', allowed: (p: Principal) => isAdminRole(p.role) },
  { key: 'settings', label: 'System Settings', allowed: (p: Principal) => isAdminRole(p.role) },
] as const;
type TabKey = (typeof ADMIN_TABS)[number]['key'];

function SummaryCard({ label, value, icon, note }: { label: string; value: number | null; icon: ReactElement; note?: string }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.25, sm: 2 }, display: 'flex', alignItems: 'center', gap: 2, minWidth: 0 }}>
      <Box sx={{ color: 'primary.main', display: { xs: 'none', md: 'flex' } }}>{icon}</Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary" sx={{ fontSize: { xs: '0.75rem', sm: '0.875rem' }, lineHeight: 1.3 }}>
          {label}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontWeight: 700 }} aria-label={label}>
          {value ?? '—'}
        </Typography>
        {note && value === null ? (
          <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'none', sm: 'block' } }}>
            {note}
          </Typography>
        ) : null}
      </Box>
    </Paper>
  );
}

/** /adminpanel: header, summary cards and the five tabs (Partner Approvals first). */
export default function AdminPanel() {
  const [params, setParams] = useSearchParams();
  const principal = usePrincipal();
  const tabs = ADMIN_TABS.filter((t) => principal && t.allowed(principal));
  const requested = params.get('tab');
  const tab: TabKey = tabs.some((t) => t.key === requested) ? (requested as TabKey) : 'approvals';
  const managesUsers = Boolean(principal && isAdminRole(principal.role));
  const summary = { ...useAdminSummary(managesUsers), ...usePartnerCounts() };
  const UserList = users.list;

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <PageTitle title="Admin Panel" subtitle="Manage users, partner approvals, products, rebates and settings." />
      <Box sx={{ display: 'grid', gridTemplateColumns: `repeat(${managesUsers ? 3 : 2}, minmax(0, 1fr))`, gap: { xs: 1, sm: 2 }, mb: 3 }}>
        {managesUsers ? <SummaryCard label="Total Users" value={summary.totalUsers} icon={<GroupIcon />} /> : null}
        <SummaryCard label="Pending Approvals" value={summary.pendingApprovals} icon={<HourglassTopIcon />} />
        <SummaryCard label="Active Partners" value={summary.activePartners} icon={<VerifiedIcon />} />
      </Box>
      <Paper variant="outlined" sx={{ mb: 2, minWidth: 0, maxWidth: '100%' }}>
        <Tabs
          value={tab}
          onChange={(_, value: TabKey) => setParams(value === 'approvals' ? {} : { tab: value }, { replace: true })}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
          aria-label="Admin panel sections"
        >
          {tabs.map((t) => (
            <Tab key={t.key} value={t.key} label={t.label} id={`admin-tab-${t.key}`} aria-controls={`admin-tabpanel-${t.key}`} />
          ))}
        </Tabs>
      </Paper>
      <Box role="tabpanel" id={`admin-tabpanel-${tab}`} aria-labelledby={`admin-tab-${tab}`}>
        {tab === 'approvals' ? (
          <PartnerApprovals />
        ) : tab === 'users' ? (
          <>
            <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
              User Management
            </Typography>
            <UserList />
          </>
        ) : tab === 'registrations' ? (
          <DealRegistrations />
        ) : tab === 'products' ? (
          <ProductManagement />
        ) : tab === 'rebates' ? (
          <RebateManagement />
        ) : (
          <SystemSettings />
        )}
      </Box>
    </Box>
  );
}
