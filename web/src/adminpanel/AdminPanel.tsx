import GroupIcon from '@mui/icons-material/Group';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import VerifiedIcon from '@mui/icons-material/Verified';
import { Box, MenuItem, Paper, TextField, Typography, useMediaQuery, type Theme } from '@mui/material';
import type { ReactElement } from 'react';
import { PageTitle } from '../layout/PageTitle';
import { SectionTabs, useUrlSection } from '../layout/SectionTabs';
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
  // Others than administrators see the approved partners there (the server lists them nothing else).
  { key: 'approvals', label: 'Partner Approvals', allowed: (_: Principal) => true },
  { key: 'users', label: 'User Management', allowed: (p: Principal) => isAdminRole(p.role) },
  { key: 'registrations', label: 'Deal Registrations', allowed: (p: Principal) => isAdminRole(p.role) },
  { key: 'products', label: 'Product Management', allowed: (p: Principal) => canAccess(p, { action: 'create', resource: 'products' }) },
  { key: 'rebates', label: 'Rebate Management', allowed: (p: Principal) => isAdminRole(p.role) },
  { key: 'settings', label: 'System Settings', allowed: (p: Principal) => isAdminRole(p.role) },
] as const;
type TabKey = (typeof ADMIN_TABS)[number]['key'];

/** What each tab lets the caller manage, for the subtitle. */
const TAB_SUBJECTS: Record<TabKey, string> = {
  approvals: 'partner approvals',
  users: 'users',
  registrations: 'deal registrations',
  products: 'products',
  rebates: 'rebate claims',
  settings: 'settings',
};

/** The subtitle names only what the caller's tabs offer: an admin manages all, others may only see applications. */
export function adminPanelSubtitle(tabs: readonly { key: TabKey }[], isAdmin: boolean): string {
  const subjects = tabs.filter((t) => isAdmin || t.key !== 'approvals').map((t) => TAB_SUBJECTS[t.key]);
  const list = subjects.length > 1 ? `${subjects.slice(0, -1).join(', ')} and ${subjects.at(-1)}` : (subjects[0] ?? '');
  if (isAdmin) return `Manage ${list}.`;
  return list
    ? `Follow partner applications and manage ${list}. Administrators decide applications.`
    : 'Follow partner applications. Administrators decide them.';
}

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
  const principal = usePrincipal();
  const tabs = ADMIN_TABS.filter((t) => principal && t.allowed(principal));
  const [tab, choose] = useUrlSection(tabs, 'approvals');
  const managesUsers = Boolean(principal && isAdminRole(principal.role));
  const summary = { ...useAdminSummary(managesUsers), ...usePartnerCounts() };
  const UserList = users.list;
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <PageTitle title="Admin Panel" subtitle={adminPanelSubtitle(tabs, managesUsers)} />
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: managesUsers ? 'repeat(3, minmax(0, 1fr))' : { xs: 'minmax(0, 1fr)', sm: 'minmax(0, 360px)' },
          gap: { xs: 1, sm: 2 },
          mb: 3,
        }}
      >
        {managesUsers ? <SummaryCard label="Total Users" value={summary.totalUsers} icon={<GroupIcon />} /> : null}
        {/* Applications in progress are for administrators only: the server counts none for anyone else. */}
        {managesUsers ? <SummaryCard label="Pending Approvals" value={summary.pendingApprovals} icon={<HourglassTopIcon />} /> : null}
        <SummaryCard label="Active Partners" value={summary.activePartners} icon={<VerifiedIcon />} />
      </Box>
      {phone ? (
        // A phone has no room for six tab labels: the sections are a menu there, never a clipped "USER MA…".
        <TextField
          select
          fullWidth
          size="small"
          label="Section"
          value={tab}
          onChange={(event) => choose(event.target.value as TabKey)}
          sx={{ mb: 2 }}
          slotProps={{ htmlInput: { 'data-testid': 'admin-section-select' } }}
        >
          {tabs.map((t) => (
            <MenuItem key={t.key} value={t.key}>
              {t.label}
            </MenuItem>
          ))}
        </TextField>
      ) : (
        <SectionTabs
          sections={tabs}
          value={tab}
          onChange={choose}
          label="Admin panel sections"
          tabProps={(t) => ({ id: `admin-tab-${t.key}`, 'aria-controls': `admin-tabpanel-${t.key}` })}
        />
      )}
      <Box
        role="tabpanel"
        id={`admin-tabpanel-${tab}`}
        aria-labelledby={phone ? undefined : `admin-tab-${tab}`}
        aria-label={phone ? tabs.find((t) => t.key === tab)?.label : undefined}
      >
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
