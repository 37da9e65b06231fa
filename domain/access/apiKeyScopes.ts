/**
 * What an API key may do: each scope names an area of the API (path prefixes of API_ROUTES) and whether
 * it reads (GET) or writes (every other method) there. The routes a scope allows are derived from
 * API_ROUTES, so a route added to an area is covered by its scope with no second list to keep.
 *
 * A scope is necessary, never sufficient: the request still passes the route's own rule in API_ROUTES
 * as the key's principal, whose permissions are at most the owner's (an organisation key) or the
 * scope's vendor grant (a vendor key). Administrators-only routes belong to no scope.
 */

import { API_ROUTES, mayCallApi, type ApiAccess, type ApiRouteKey } from './api';
import type { Permission } from './permissions';

export const API_KEY_OWNER_KINDS = ['vendor', 'organisation'] as const;
export type ApiKeyOwnerKind = (typeof API_KEY_OWNER_KINDS)[number];

interface ScopeGrant {
  /** The permissions a key of this owner kind may use under the scope (an organisation key: intersected with its owner's). */
  readonly permissions: readonly Permission[];
  /** Only these routes of the area (a narrower grant than the whole area). */
  readonly only?: readonly ApiRouteKey[];
}

export interface ApiKeyScopeDefinition {
  readonly label: string;
  readonly description: string;
  /** Path prefixes (without /api) of the area. */
  readonly areas: readonly string[];
  readonly access: 'read' | 'write';
  /** Who may hold the scope, and what it grants each: a scope without an owner kind is not offered to it. */
  readonly vendor?: ScopeGrant;
  readonly organisation?: ScopeGrant;
}

export const API_KEY_SCOPE_DEFINITIONS = {
  'projects:read': {
    label: 'Read deal registrations',
    description: 'List and read deal registrations (projects), their team, orders and milestones.',
    areas: ['/projects'],
    access: 'read',
    vendor: { permissions: ['Projects.Read'] },
    organisation: { permissions: ['Projects.Read'] },
  },
  'projects:write': {
    label: 'Register and update deals',
    description: "Register deals (POST /api/projects) and change the organisation's own registrations.",
    areas: ['/projects'],
    access: 'write',
    organisation: { permissions: ['Projects.Read', 'Projects.Create', 'Projects.Update', 'Projects.Delete'] },
  },
  'orders:read': {
    label: 'Read orders',
    description: 'List, export and read orders and their tracking.',
    areas: ['/orders'],
    access: 'read',
    vendor: { permissions: ['Orders.Read', 'Orders.Browse'] },
    organisation: { permissions: ['Orders.Read', 'Orders.Track', 'Orders.Browse'] },
  },
  'orders:write': {
    label: 'Place orders',
    description: 'Place orders for the organisation (POST /api/orders).',
    areas: ['/orders'],
    access: 'write',
    organisation: { permissions: ['Orders.Create', 'Orders.Checkout', 'Orders.Shipping', 'Orders.Browse'] },
  },
  'catalogue:read': {
    label: 'Read the catalogue',
    description: 'List and read products.',
    areas: ['/products'],
    access: 'read',
    vendor: { permissions: ['Orders.Browse'] },
    organisation: { permissions: ['Orders.Browse'] },
  },
  'leads:read': {
    label: 'Read leads',
    description: 'List, export and read leads.',
    areas: ['/leads'],
    access: 'read',
    vendor: { permissions: ['Leads.Read'] },
    organisation: { permissions: ['Leads.Read'] },
  },
  'leads:write': {
    label: 'Create or work leads',
    description: 'Vendor keys create and import leads; organisation keys accept, decline and update the leads offered to them.',
    areas: ['/leads'],
    access: 'write',
    vendor: { permissions: ['Leads.Create'], only: ['POST /leads', 'POST /leads/import'] },
    organisation: { permissions: ['Leads.Read', 'Leads.Update', 'Projects.Create'] },
  },
  'tickets:read': {
    label: 'Read support cases',
    description: 'List and read support cases and their comments.',
    areas: ['/tickets'],
    access: 'read',
    vendor: { permissions: ['Support.Read'] },
    organisation: { permissions: ['Support.Read'] },
  },
  'tickets:write': {
    label: 'Open and answer support cases',
    description: 'Open support cases and returns, check warranties and comment on cases.',
    areas: ['/tickets', '/warranty'],
    access: 'write',
    organisation: { permissions: ['Support.Read', 'Support.Create'] },
  },
  'rebates:read': {
    label: 'Read rebate claims',
    description: 'List, export and read rebate claims and progress.',
    areas: ['/rebates'],
    access: 'read',
    vendor: { permissions: ['Rebates.Read'] },
    organisation: { permissions: ['Rebates.Read', 'Rebates.Overview'] },
  },
  'partners:read': {
    label: 'Read the partner directory',
    description: 'List and read partner organisations.',
    areas: ['/partner/partners'],
    access: 'read',
    vendor: { permissions: ['Partners.Read'] },
  },
  'funds:read': {
    label: 'Read marketing funds',
    description: 'Read funds, fund requests and claims.',
    areas: ['/funds', '/fund-requests', '/fund-claims'],
    access: 'read',
    vendor: { permissions: ['MDF.Read'] },
    organisation: { permissions: ['MDF.Read'] },
  },
} as const satisfies Record<string, ApiKeyScopeDefinition>;

export type ApiKeyScope = keyof typeof API_KEY_SCOPE_DEFINITIONS;
export const API_KEY_SCOPES = Object.keys(API_KEY_SCOPE_DEFINITIONS) as [ApiKeyScope, ...ApiKeyScope[]];

const definitionOf = (scope: ApiKeyScope): ApiKeyScopeDefinition => API_KEY_SCOPE_DEFINITIONS[scope];

/** The scopes a key of this owner kind may be given. */
export const scopesFor = (owner: ApiKeyOwnerKind): ApiKeyScope[] => API_KEY_SCOPES.filter((scope) => definitionOf(scope)[owner] !== undefined);

/**
 * What keys made before scopes named their reads could read: the lists of projects, orders, the
 * catalogue, rebates, tickets and partners (their `leads:write` came on top).
 */
export const LEGACY_READ_SCOPES: readonly ApiKeyScope[] = ['projects:read', 'orders:read', 'catalogue:read', 'rebates:read', 'tickets:read', 'partners:read'];

const READ_METHODS = new Set(['GET', 'HEAD']);

const isAdminOnly = (access: ApiAccess) => 'requires' in access && 'adminOnly' in access.requires;
const signedIn = (access: ApiAccess) => 'requires' in access;

function inArea(path: string, areas: readonly string[]): boolean {
  return areas.some((area) => path === area || path.startsWith(`${area}/`));
}

/** The routes (API_ROUTES keys) a scope allows a key of this owner kind. */
export function routesOfScope(scope: ApiKeyScope, owner: ApiKeyOwnerKind): readonly ApiRouteKey[] {
  // The route table is fixed, so each scope's routes are worked out once (key checks and the options screen ask often).
  const key = `${owner} ${scope}`;
  let routes = scopeRoutes.get(key);
  if (!routes) scopeRoutes.set(key, (routes = Object.freeze(scopeRoutesOf(scope, owner))));
  return routes;
}
const scopeRoutes = new Map<string, readonly ApiRouteKey[]>();

function scopeRoutesOf(scope: ApiKeyScope, owner: ApiKeyOwnerKind): ApiRouteKey[] {
  const definition = definitionOf(scope);
  const grant = definition[owner];
  if (!grant) return [];
  return (Object.entries(API_ROUTES) as Array<[ApiRouteKey, ApiAccess]>)
    .filter(([key, access]) => {
      const [method, path] = key.split(' ') as [string, string];
      if (READ_METHODS.has(method) !== (definition.access === 'read')) return false;
      if (!inArea(path, definition.areas) || !signedIn(access) || isAdminOnly(access)) return false;
      return !grant.only || grant.only.includes(key);
    })
    .map(([key]) => key);
}

/** The scopes that would allow a route (`GET /orders/:id`), for any owner: what OpenAPI documents. */
export function scopesForRoute(route: string): ApiKeyScope[] {
  return API_KEY_SCOPES.filter((scope) => API_KEY_OWNER_KINDS.some((owner) => routesOfScope(scope, owner).includes(route as ApiRouteKey)));
}

const ROUTES_BY_OWNER_AND_SCOPE = new Map<string, Set<string>>();
function allowedRoutes(scope: ApiKeyScope, owner: ApiKeyOwnerKind): Set<string> {
  const key = `${owner}:${scope}`;
  let routes = ROUTES_BY_OWNER_AND_SCOPE.get(key);
  if (!routes) ROUTES_BY_OWNER_AND_SCOPE.set(key, (routes = new Set(routesOfScope(scope, owner))));
  return routes;
}

/** Whether a key of this owner holding these scopes may call the route (`POST /projects`, HEAD as GET). */
export function scopesAllow(scopes: readonly ApiKeyScope[], owner: ApiKeyOwnerKind, method: string, path: string): boolean {
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  return scopes.some((scope) => allowedRoutes(scope, owner).has(`${verb} ${path}`));
}

/**
 * The permissions a key acts with: for a vendor key, what its scopes grant vendor keys; for an organisation
 * key, what its scopes grant organisation keys and its owner holds now (never more than the owner).
 */
export function apiKeyPermissions(scopes: readonly ApiKeyScope[], owner: ApiKeyOwnerKind, ownerPermissions?: readonly Permission[]): Permission[] {
  const granted = new Set(scopes.flatMap((scope) => definitionOf(scope)[owner]?.permissions ?? []));
  if (owner === 'organisation') {
    const held = new Set(ownerPermissions ?? []);
    return [...granted].filter((permission) => held.has(permission));
  }
  return [...granted];
}

/**
 * Scopes an organisation's owner cannot be given: a key holding one could call none of its routes, with
 * the permissions it would act with (the scope's, as far as the owner holds them).
 */
export function scopesBeyond(scopes: readonly ApiKeyScope[], ownerPermissions: readonly Permission[], ownerRole = 'partner'): ApiKeyScope[] {
  return scopes.filter((scope) => {
    const principal = { role: ownerRole, permissions: apiKeyPermissions([scope], 'organisation', ownerPermissions) };
    return !routesOfScope(scope, 'organisation').some((route) => mayCallApi(principal, API_ROUTES[route]));
  });
}
