import { isAdminRole, isSubUserRole, landingRouteFor } from '@domain/access';

/** One entry of the side menu. `route` is checked with the shared route rules before it is shown. */
export interface NavEntry {
  key: string;
  label: string;
  to: string;
  icon: string;
  /** Screen action that must be allowed too, e.g. `browse-products` for the catalogue. */
  action?: string;
  /** Roles the entry is meant for; absent means every role. */
  roles?: readonly string[];
  /** Hidden from sub-users, who get only their welcome page plus the features they hold. */
  notForSubUsers?: boolean;
}

const PARTNER = ['partner'];
const DISTRIBUTOR = ['distributor'];

export const NAV_ENTRIES: readonly NavEntry[] = [
  { key: 'projects', label: 'Projects', to: '/projects', icon: 'projects' },
  { key: 'orders', label: 'Orders', to: '/orders', icon: 'orders' },
  { key: 'catalogue', label: 'Catalogue', to: '/catalogue', icon: 'catalogue', action: 'browse-products' },
  { key: 'rebates', label: 'Rebates', to: '/rebates', icon: 'rebates' },
  // Leads the vendor routed to the organisation; the admins' and manufacturers' side is Lead Management.
  { key: 'leads', label: 'Leads', to: '/leads', icon: 'leads', roles: ['partner', 'distributor', 'partner_user', 'distributor_user'] },
  { key: 'lead-management', label: 'Lead Management', to: '/lead-management', icon: 'leads' },
  { key: 'funds', label: 'Marketing Funds', to: '/funds', icon: 'funds' },
  { key: 'learning', label: 'Learning', to: '/learning', icon: 'learning' },
  { key: 'supportcenter', label: 'Support Center', to: '/supportcenter', icon: 'support' },
  // The ranked scorecards, tier ladder and evaluations; partners find their own on Partnership Governance.
  { key: 'programme', label: 'Partner Programme', to: '/programme', icon: 'programme', roles: ['admin', 'administrator', 'manufacturer'] },
  { key: 'partnerdirectory', label: 'Partner Directory', to: '/partnerdirectory', icon: 'directory' },
  { key: 'partner-team', label: 'Team Management', to: '/partner/team-management', icon: 'team', roles: PARTNER },
  { key: 'distributor-team', label: 'Team Management', to: '/distributor/team-management', icon: 'team', roles: DISTRIBUTOR },
  { key: 'partner-governance', label: 'Partnership Governance', to: '/partnership-governance', icon: 'governance', roles: PARTNER },
  { key: 'distributor-governance', label: 'Partnership Governance', to: '/distributor/partnership-governance', icon: 'governance', roles: DISTRIBUTOR },
  { key: 'distributor-inventory', label: 'Inventory', to: '/distributor/inventory', icon: 'inventory', roles: DISTRIBUTOR },
  { key: 'partner-solutions', label: 'Solutions', to: '/partner-solutions', icon: 'solutions', roles: PARTNER },
  { key: 'distributor-solutions', label: 'Solutions', to: '/distributor-solutions', icon: 'solutions', roles: DISTRIBUTOR },
  { key: 'solutions', label: 'Solutions', to: '/solutions', icon: 'solutions', roles: ['admin', 'administrator', 'manufacturer', 'support'] },
  // The static portfolio page; 'Catalogue' is where products are priced and ordered.
  { key: 'products', label: 'Product Portfolio', to: '/products', icon: 'products', notForSubUsers: true },
  { key: 'downloads', label: 'Downloads', to: '/downloads', icon: 'downloads', notForSubUsers: true },
  { key: 'adminpanel', label: 'Admin Panel', to: '/adminpanel', icon: 'admin' },
  // The vendor's endpoints for admins, the organisation's for its owner account.
  { key: 'webhooks', label: 'Webhooks', to: '/webhooks', icon: 'webhooks', roles: ['admin', 'administrator', 'partner', 'distributor'] },
  { key: 'audit', label: 'Audit Log', to: '/audit', icon: 'audit', roles: ['admin', 'administrator'] },
  { key: 'activity', label: 'Activity', to: '/activity', icon: 'activity', roles: ['partner', 'distributor', 'partner_user', 'distributor_user'] },
  { key: 'api-keys', label: 'API Keys', to: '/api-keys', icon: 'apikeys', roles: ['partner', 'distributor'] },
];

/** The home entry: the role's landing screen. */
export function homeEntryFor(role: string | null): NavEntry {
  if (isAdminRole(role)) return { key: 'home', label: 'Home', to: '/', icon: 'home' };
  if (isSubUserRole(role)) return { key: 'home', label: 'Welcome', to: '/sub-user-dashboard', icon: 'home' };
  return { key: 'home', label: 'Dashboard', to: landingRouteFor(role), icon: 'home' };
}

export function visibleEntries(role: string | null, canOpen: (path: string) => boolean, canDo: (action: string) => boolean): NavEntry[] {
  const subUser = isSubUserRole(role);
  const admin = isAdminRole(role);
  const entries = NAV_ENTRIES.filter((entry) => {
    if (subUser && entry.notForSubUsers) return false;
    if (entry.roles && !admin && !entry.roles.includes(role ?? '')) return false;
    if (entry.roles && admin && !entry.roles.includes('admin')) return false;
    if (!canOpen(entry.to)) return false;
    if (entry.action && !canDo(entry.action)) return false;
    return true;
  });
  const extras: NavEntry[] = admin ? [{ key: 'admin-dashboard', label: 'Admin Dashboard', to: '/administratordashboard', icon: 'dashboard' }] : [];
  return [homeEntryFor(role), ...extras, ...entries];
}
