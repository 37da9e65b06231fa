import { meetsRequirement, anyOf, OPEN, ADMIN_ONLY, type Principal, type Requirement } from '../access/rules';
import { isAdminRole } from '../access/roles';

/** The dashboards, by the role whose landing page each is. */
export const DASHBOARD_KINDS = ['manufacturer', 'distributor', 'partner', 'support', 'admin'] as const;
export type DashboardKind = (typeof DASHBOARD_KINDS)[number];

export interface QuickAction {
  readonly key: string;
  readonly label: string;
  readonly description: string;
  readonly to: string;
  readonly requires: Requirement;
}

/**
 * Quick-action cards per dashboard. The partner's four are the specification's, with its permission
 * rules (Team Management always shown); the other roles' lead to what each role does most.
 */
export const QUICK_ACTIONS: Readonly<Record<DashboardKind, readonly QuickAction[]>> = {
  partner: [
    { key: 'new-project', label: 'New Project', description: 'Register a new deal.', to: '/projects?create=1', requires: anyOf('Projects.Create') },
    { key: 'place-order', label: 'Place Order', description: 'Browse the catalogue and order.', to: '/catalogue', requires: anyOf('Orders.Browse') },
    { key: 'check-rebates', label: 'Check Rebates', description: 'Claims and quarterly progress.', to: '/rebates', requires: anyOf('Rebates.Read') },
    { key: 'team-management', label: 'Team Management', description: 'Invite and manage your team.', to: '/partner/team-management', requires: OPEN },
  ],
  distributor: [
    { key: 'place-order', label: 'Place Order', description: 'Browse the catalogue and order.', to: '/catalogue', requires: anyOf('Orders.Browse') },
    {
      key: 'track-orders',
      label: 'Track Orders',
      description: 'Follow orders and deliveries.',
      to: '/orders',
      requires: anyOf('Orders.Track', 'Orders.Browse', 'Orders.Read'),
    },
    { key: 'inventory', label: 'Inventory', description: 'Stock levels of the catalogue.', to: '/distributor/inventory', requires: OPEN },
    { key: 'check-rebates', label: 'Check Rebates', description: 'Claims and quarterly progress.', to: '/rebates', requires: anyOf('Rebates.Read') },
    { key: 'team-management', label: 'Team Management', description: 'Invite and manage your team.', to: '/distributor/team-management', requires: OPEN },
  ],
  manufacturer: [
    { key: 'projects', label: 'Projects', description: 'Deal registrations across partners.', to: '/projects', requires: anyOf('Projects.Read') },
    {
      key: 'orders',
      label: 'Orders',
      description: 'Orders across the channel.',
      to: '/orders',
      requires: anyOf('Orders.Read', 'Orders.Browse', 'Orders.Track'),
    },
    {
      key: 'partner-directory',
      label: 'Partner Directory',
      description: 'Find partners and their details.',
      to: '/partnerdirectory',
      requires: anyOf('Partners.Read'),
    },
    { key: 'catalogue', label: 'Catalogue', description: 'Products, prices and stock.', to: '/catalogue', requires: anyOf('Orders.Browse') },
  ],
  support: [
    {
      key: 'ticket-queue',
      label: 'Ticket Queue',
      description: 'Work open and overdue tickets.',
      to: '/supportcenter?tab=cases',
      requires: anyOf('Support.Update'),
    },
    {
      key: 'support-center',
      label: 'Support Center',
      description: 'Cases, downloads and warranty checks.',
      to: '/supportcenter',
      requires: anyOf('Support.Read'),
    },
    {
      key: 'orders',
      label: 'Orders',
      description: 'Look up an order and its delivery.',
      to: '/orders',
      requires: anyOf('Orders.Read', 'Orders.Browse', 'Orders.Track'),
    },
  ],
  admin: [
    { key: 'partner-approvals', label: 'Partner Approvals', description: 'Applications awaiting a decision.', to: '/adminpanel', requires: ADMIN_ONLY },
    {
      key: 'deal-registrations',
      label: 'Deal Registrations',
      description: 'Conflicts and extension requests.',
      to: '/adminpanel?tab=registrations',
      requires: ADMIN_ONLY,
    },
    { key: 'rebate-review', label: 'Rebate Review', description: 'Claims awaiting review.', to: '/adminpanel?tab=rebates', requires: ADMIN_ONLY },
    { key: 'users', label: 'User Management', description: 'Accounts, roles and permissions.', to: '/adminpanel?tab=users', requires: ADMIN_ONLY },
  ],
};

export const NO_QUICK_ACTIONS_MESSAGE = 'No quick actions available with your current permissions.';

/** The dashboard a role lands on; sub-users and unknown roles have none. */
export function dashboardKindOf(role: string): DashboardKind | null {
  if (isAdminRole(role)) return 'admin';
  return (DASHBOARD_KINDS as readonly string[]).includes(role) ? (role as DashboardKind) : null;
}

/** The quick actions of a dashboard the principal may use. */
export function quickActionsFor(principal: Principal, kind: DashboardKind): QuickAction[] {
  return QUICK_ACTIONS[kind].filter((action) => meetsRequirement(principal, action.requires));
}
