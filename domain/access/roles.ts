/** The roles a portal account can have, and the facts that follow from the role alone. */

export const ROLES = ['admin', 'administrator', 'partner', 'distributor', 'manufacturer', 'support', 'partner_user', 'distributor_user'] as const;

export type Role = (typeof ROLES)[number];

/** `admin` and `administrator` are two names for the same role; both pass every check. */
export const ADMIN_ROLES = ['admin', 'administrator'] as const satisfies readonly Role[];
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** Team members created by a partner or a distributor. */
export const SUB_USER_ROLES = ['partner_user', 'distributor_user'] as const satisfies readonly Role[];
export type SubUserRole = (typeof SUB_USER_ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function isAdminRole(role: string | null | undefined): role is AdminRole {
  return typeof role === 'string' && (ADMIN_ROLES as readonly string[]).includes(role);
}

export function isSubUserRole(role: string | null | undefined): role is SubUserRole {
  return typeof role === 'string' && (SUB_USER_ROLES as readonly string[]).includes(role);
}

/** Where a user lands after signing in. */
export const LANDING_ROUTES: Readonly<Record<Role, string>> = {
  admin: '/',
  administrator: '/',
  partner: '/partnerdashboard',
  distributor: '/distributordashboard',
  manufacturer: '/manufacturerdashboard',
  support: '/support-dashboard',
  partner_user: '/sub-user-dashboard',
  distributor_user: '/sub-user-dashboard',
};

/** The landing route of any role not in the table. */
export const DEFAULT_LANDING_ROUTE = '/';

export function landingRouteFor(role: string | null | undefined): string {
  return isRole(role) ? LANDING_ROUTES[role] : DEFAULT_LANDING_ROUTE;
}

export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  admin: 'Admin',
  administrator: 'Administrator',
  partner: 'Partner',
  distributor: 'Distributor',
  manufacturer: 'Manufacturer',
  support: 'Support',
  partner_user: 'Partner Team Member',
  distributor_user: 'Distributor Team Member',
};

/** The account role that creates and manages each kind of sub-user. */
export const PARENT_ROLE_OF_SUB_USER = {
  partner_user: 'partner',
  distributor_user: 'distributor',
} as const satisfies Readonly<Record<SubUserRole, Role>>;

/** The sub-user role a partner or distributor creates for its team. */
export const SUB_USER_ROLE_OF_PARENT = {
  partner: 'partner_user',
  distributor: 'distributor_user',
} as const satisfies Readonly<Partial<Record<Role, SubUserRole>>>;

/**
 * Record scope: these roles see every organisation's records; partners, distributors and their
 * sub-users see only their own organisation's records.
 */
export const ROLES_SEEING_ALL_ORGANISATIONS = ['admin', 'administrator', 'support', 'manufacturer'] as const satisfies readonly Role[];

/**
 * Not an account role: the caller of a request made with an API key (an analysts' tool). It reads
 * lists across every organisation and never writes.
 */
export const INTEGRATION_ROLE = 'integration';

export function seesAllOrganisations(role: string | null | undefined): boolean {
  return typeof role === 'string' && ((ROLES_SEEING_ALL_ORGANISATIONS as readonly string[]).includes(role) || role === INTEGRATION_ROLE);
}
