/**
 * The access rules, as data tables, and the one evaluator that reads them.
 * Admins (`admin`, `administrator`) pass every rule. Everyone else needs the listed permission.
 *
 * Support staff get no extra rights: an older helper gave the support role full access, but the
 * permission list is the safer and clearer rule, so support users hold only the permissions they
 * are granted.
 */

import { normalizePermissions } from './legacy';
import type { Permission } from './permissions';
import { isAdminRole } from './roles';

/** Who is asking. `permissions` may hold legacy names; they are normalized before any check. */
export interface Principal {
  readonly role: string;
  readonly permissions: readonly string[];
}

/** What a rule asks for: any one of the permissions, an admin, or nothing at all. */
export type Requirement =
  | { readonly anyOf: readonly Permission[] }
  | { readonly allOf: readonly Requirement[] }
  | { readonly roles: readonly string[] }
  | { readonly adminOnly: true }
  | { readonly open: true };

export const anyOf = (...permissions: Permission[]): Requirement => ({ anyOf: permissions });
export const ADMIN_ONLY: Requirement = { adminOnly: true };
export const OPEN: Requirement = { open: true };
/** One of these roles (for what belongs to a kind of account, such as a partner's own team). */
export const roleIs = (...roles: string[]): Requirement => ({ roles });
/** Every one of the requirements (for example a checkout permission and the shipping permission). */
export const allOf = (...requirements: Requirement[]): Requirement => ({ allOf: requirements });

export function meetsRequirement(principal: Principal, requirement: Requirement | null | undefined): boolean {
  if (!requirement || 'open' in requirement || isAdminRole(principal.role)) return true;
  if ('adminOnly' in requirement) return false;
  if ('allOf' in requirement) return requirement.allOf.every((part) => meetsRequirement(principal, part));
  if ('roles' in requirement) return requirement.roles.includes(principal.role);
  const held = new Set(normalizePermissions(principal.permissions));
  return requirement.anyOf.some((permission) => held.has(permission));
}

export function hasPermission(principal: Principal, permission: Permission): boolean {
  return meetsRequirement(principal, anyOf(permission));
}

export function hasAnyPermission(principal: Principal, permissions: readonly Permission[]): boolean {
  return meetsRequirement(principal, anyOf(...permissions));
}

const lookup = <T>(table: Readonly<Record<string, T>>, name: string): T | undefined => (Object.hasOwn(table, name) ? table[name] : undefined);

// ---------------------------------------------------------------------------------------------
// Screens (routes). A rule covers its path and everything below it; other routes are open.

export const ROUTE_RULES: Readonly<Record<string, Requirement>> = {
  '/projects': anyOf('Projects.Read'),
  '/orders': anyOf('Orders.Browse', 'Orders.Track', 'Orders.Checkout', 'Orders.Shipping'),
  '/rebates': anyOf('Rebates.Read', 'Rebates.Create', 'Rebates.Overview'),
  '/supportcenter': anyOf('Support.Read'),
  '/adminpanel': anyOf('Users.Read', 'Users.Create', 'Users.Update', 'Users.Delete', 'Partners.Read', 'Partners.Create', 'Partners.Update', 'Partners.Delete'),
  '/partnerdirectory': anyOf('Partners.Read'),
  // The audit log is the admins'; an organisation's activity feed is its own users'.
  '/audit': ADMIN_ONLY,
  '/activity': roleIs('partner', 'distributor', 'partner_user', 'distributor_user'),
  '/leads': anyOf('Leads.Read'),
  // Lead Management: those who create leads (admins, manufacturers) route, import and reassign them.
  '/lead-management': anyOf('Leads.Create'),
  // Market development funds.
  '/funds': anyOf('MDF.Read', 'MDF.Create'),
  // Learning: the catalogue, courses, certifications; course editing is checked per action.
  '/learning': anyOf('Learning.Read', 'Learning.Update'),
  // The partner programme's editor, evaluation runs and overrides (manufacturers read them); the ranked scorecards.
  '/programme': roleIs('manufacturer'),
  '/scorecards': roleIs('manufacturer', 'partner', 'partner_user'),
  // Webhook endpoints: admins (the vendor's) and organisation owner accounts (their organisation's).
  '/webhooks': roleIs('partner', 'distributor'),
  // An organisation's API keys: its owner account's.
  '/api-keys': roleIs('partner', 'distributor'),
};

/** Path segments without scheme, host, query, fragment, `.`/`..` and a leading `api`. */
function pathSegments(path: string): string[] {
  const bare = path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split(/[?#]/, 1)[0] ?? '';
  const segments: string[] = [];
  for (const segment of bare.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '' && segment !== '.') segments.push(segment.toLowerCase());
  }
  return segments;
}

export function routeRequirement(path: string): Requirement | undefined {
  const [first] = pathSegments(path);
  return first === undefined ? undefined : lookup(ROUTE_RULES, `/${first}`);
}

export function canAccessRoute(principal: Principal, path: string): boolean {
  return meetsRequirement(principal, routeRequirement(path));
}

// ---------------------------------------------------------------------------------------------
// Screen actions (buttons). Unlisted actions are allowed.

export const ACTION_RULES: Readonly<Record<string, Permission>> = {
  'new-project': 'Projects.Create',
  'edit-project': 'Projects.Update',
  'delete-project': 'Projects.Delete',
  'view-project': 'Projects.Read',
  'browse-products': 'Orders.Browse',
  'track-orders': 'Orders.Track',
  checkout: 'Orders.Checkout',
  'place-order': 'Orders.Shipping',
  'submit-rebate': 'Rebates.Create',
  'view-rebates': 'Rebates.Read',
  'rebate-overview': 'Rebates.Overview',
  'create-support-case': 'Support.Create',
  'view-support': 'Support.Read',
};

export function canPerformAction(principal: Principal, action: string): boolean {
  const permission = lookup(ACTION_RULES, action);
  return permission === undefined || hasPermission(principal, permission);
}

// ---------------------------------------------------------------------------------------------
// API endpoints. Paths are matched without the `/api` prefix; `:id` matches one segment and `**`
// any number of segments. The first matching rule wins; unlisted endpoints need no permission here.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EndpointRule {
  readonly method: HttpMethod | '*';
  readonly path: string;
  readonly requires: Requirement;
}

export const ENDPOINT_RULES: readonly EndpointRule[] = [
  { method: 'GET', path: '/projects', requires: anyOf('Projects.Read') },
  { method: 'POST', path: '/projects', requires: anyOf('Projects.Create') },
  { method: 'PUT', path: '/projects/:id', requires: anyOf('Projects.Update') },
  { method: 'DELETE', path: '/projects/:id', requires: anyOf('Projects.Update') },
  { method: 'GET', path: '/orders', requires: anyOf('Orders.Browse') },
  { method: 'POST', path: '/orders', requires: anyOf('Orders.Checkout') },
  { method: 'GET', path: '/orders/:id/track', requires: anyOf('Orders.Track') },
  { method: 'PUT', path: '/orders/:id/shipping', requires: anyOf('Orders.Shipping') },
  { method: 'GET', path: '/rebates', requires: anyOf('Rebates.Read') },
  { method: 'POST', path: '/rebates', requires: anyOf('Rebates.Create') },
  { method: 'GET', path: '/rebates/overview', requires: anyOf('Rebates.Overview') },
  { method: 'GET', path: '/support', requires: anyOf('Support.Read') },
  { method: 'POST', path: '/support', requires: anyOf('Support.Read') },
  { method: '*', path: '/users/**', requires: ADMIN_ONLY },
];

const COMPILED_ENDPOINT_RULES = ENDPOINT_RULES.map((rule) => ({ ...rule, segments: pathSegments(rule.path) }));

function matchesPattern(pattern: readonly string[], segments: readonly string[]): boolean {
  for (const [index, part] of pattern.entries()) {
    if (part === '**') return true;
    const segment = segments[index];
    if (segment === undefined || (!part.startsWith(':') && part !== segment)) return false;
  }
  return pattern.length === segments.length;
}

export function requiredPermissionForEndpoint(method: string, path: string): Requirement | null {
  const verb = method.toUpperCase();
  const segments = pathSegments(path);
  if (segments[0] === 'api') segments.shift();
  const rule = COMPILED_ENDPOINT_RULES.find(
    (candidate) => (candidate.method === '*' || candidate.method === verb) && matchesPattern(candidate.segments, segments),
  );
  return rule?.requires ?? null;
}

export function canCallEndpoint(principal: Principal, method: string, path: string): boolean {
  return meetsRequirement(principal, requiredPermissionForEndpoint(method, path));
}

// ---------------------------------------------------------------------------------------------
// Single rules.

/** Checkout and the shipping form. */
export function canShip(principal: Principal): boolean {
  return hasPermission(principal, 'Orders.Shipping');
}

/** Only an administrator may change another user's permissions (message: ONLY_ADMINS_UPDATE_PERMISSIONS). */
export function canUpdatePermissions(actorRole: string | null | undefined): boolean {
  return isAdminRole(actorRole);
}

// ---------------------------------------------------------------------------------------------
// Features: what menus and the sub-user welcome page offer.

export const FEATURES = ['projects', 'orders', 'rebates', 'support', 'products', 'shipments', 'tracking', 'create_orders', 'view_orders'] as const;
export type Feature = (typeof FEATURES)[number];

export const FEATURE_RULES: Readonly<Record<Feature, Requirement>> = {
  projects: ROUTE_RULES['/projects']!,
  orders: ROUTE_RULES['/orders']!,
  rebates: ROUTE_RULES['/rebates']!,
  support: ROUTE_RULES['/supportcenter']!,
  products: anyOf('Orders.Browse'),
  shipments: anyOf('Orders.Shipping'),
  tracking: anyOf('Orders.Track'),
  create_orders: anyOf('Orders.Create'),
  view_orders: anyOf('Orders.Read'),
};

export function featuresFor(principal: Principal): Feature[] {
  return FEATURES.filter((feature) => meetsRequirement(principal, FEATURE_RULES[feature]));
}

// ---------------------------------------------------------------------------------------------
// Resources: the one function the react-admin auth provider and the server routes call.

export const RESOURCES = [
  'users',
  'partners',
  'projects',
  'orders',
  'products',
  'rebates',
  'tickets',
  'notifications',
  'leads',
  'funds',
  'courses',
  'certifications',
] as const;
export type Resource = (typeof RESOURCES)[number];

export const RESOURCE_ACTIONS = ['list', 'show', 'create', 'edit', 'delete'] as const;
export type ResourceAction = (typeof RESOURCE_ACTIONS)[number];

/**
 * Resource × action → requirement. Mostly Category.Read for list and show, Category.Create,
 * Category.Update and Category.Delete for the rest. Departures:
 * - orders: list/show also with Orders.Browse (the endpoint map lets GET /orders through with it)
 *   or Orders.Track (the orders screen lists orders to track); create with Orders.Checkout (POST
 *   /orders) or Orders.Create (the distributors' 'Order create').
 * - products: the catalogue needs Orders.Browse; changing products is for administrators.
 * - notifications: each signed-in user reads, marks and dismisses their own (record scope is the
 *   server's); only administrators create them by hand.
 * Unknown resources and actions are refused, except to admins.
 */
export const RESOURCE_RULES: Readonly<Record<Resource, Readonly<Record<ResourceAction, Requirement>>>> = {
  users: {
    list: anyOf('Users.Read'),
    show: anyOf('Users.Read'),
    create: anyOf('Users.Create'),
    edit: anyOf('Users.Update'),
    delete: anyOf('Users.Delete'),
  },
  partners: {
    list: anyOf('Partners.Read'),
    show: anyOf('Partners.Read'),
    create: anyOf('Partners.Create'),
    edit: anyOf('Partners.Update'),
    delete: anyOf('Partners.Delete'),
  },
  projects: {
    list: anyOf('Projects.Read'),
    show: anyOf('Projects.Read'),
    create: anyOf('Projects.Create'),
    edit: anyOf('Projects.Update'),
    delete: anyOf('Projects.Delete'),
  },
  orders: {
    list: anyOf('Orders.Read', 'Orders.Browse', 'Orders.Track'),
    show: anyOf('Orders.Read', 'Orders.Browse', 'Orders.Track'),
    create: anyOf('Orders.Create', 'Orders.Checkout'),
    edit: anyOf('Orders.Update'),
    delete: anyOf('Orders.Delete'),
  },
  products: {
    list: anyOf('Orders.Browse'),
    show: anyOf('Orders.Browse'),
    create: ADMIN_ONLY,
    edit: ADMIN_ONLY,
    delete: ADMIN_ONLY,
  },
  rebates: {
    list: anyOf('Rebates.Read'),
    show: anyOf('Rebates.Read'),
    create: anyOf('Rebates.Create'),
    edit: anyOf('Rebates.Update'),
    delete: anyOf('Rebates.Delete'),
  },
  funds: {
    list: anyOf('MDF.Read'),
    show: anyOf('MDF.Read'),
    create: anyOf('MDF.Create'),
    edit: anyOf('MDF.Create', 'MDF.Update'),
    delete: ADMIN_ONLY,
  },
  tickets: {
    list: anyOf('Support.Read'),
    show: anyOf('Support.Read'),
    create: anyOf('Support.Create'),
    edit: anyOf('Support.Update'),
    delete: anyOf('Support.Delete'),
  },
  leads: {
    list: anyOf('Leads.Read'),
    show: anyOf('Leads.Read'),
    create: anyOf('Leads.Create'),
    edit: anyOf('Leads.Update'),
    delete: ADMIN_ONLY,
  },
  courses: {
    list: anyOf('Learning.Read', 'Learning.Update'),
    show: anyOf('Learning.Read', 'Learning.Update'),
    create: anyOf('Learning.Update'),
    edit: anyOf('Learning.Update'),
    delete: ADMIN_ONLY,
  },
  certifications: {
    list: anyOf('Learning.Read', 'Learning.Update'),
    show: anyOf('Learning.Read', 'Learning.Update'),
    create: ADMIN_ONLY,
    edit: ADMIN_ONLY,
    delete: ADMIN_ONLY,
  },
  notifications: {
    list: OPEN,
    show: OPEN,
    create: ADMIN_ONLY,
    edit: OPEN,
    delete: OPEN,
  },
};

export interface AccessRequest {
  readonly action: string;
  readonly resource: string;
  /** Accepted for react-admin's signature; record scope (own organisation) is applied by the server's queries. */
  readonly record?: unknown;
}

export function canAccess(principal: Principal | null | undefined, { action, resource }: AccessRequest): boolean {
  if (!principal) return false;
  const rules = lookup<Readonly<Record<string, Requirement>>>(RESOURCE_RULES, resource);
  const requirement = rules && lookup(rules, action);
  return meetsRequirement(principal, requirement ?? ADMIN_ONLY);
}
