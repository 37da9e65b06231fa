import { describe, expect, it } from 'vitest';
import {
  ACTION_RULES,
  ALL_PERMISSIONS,
  canAccess,
  canAccessRoute,
  canCallEndpoint,
  canPerformAction,
  canShip,
  canUpdatePermissions,
  DEFAULT_PERMISSIONS_BY_ROLE,
  ENDPOINT_RULES,
  FEATURES,
  featuresFor,
  hasAnyPermission,
  hasPermission,
  ONLY_ADMINS_UPDATE_PERMISSIONS,
  type Permission,
  type Principal,
  requiredPermissionForEndpoint,
  RESOURCE_ACTIONS,
  RESOURCES,
  ROUTE_RULES,
} from './index';

const holding = (...permissions: string[]): Principal => ({ role: 'partner', permissions });
const nobody = holding();
const ADMINS = [['admin'], ['administrator']] as const;

describe('hasPermission', () => {
  it.each([
    [['Orders.Track'], 'Orders.Track', true],
    [['Delivery status'], 'Orders.Track', true],
    [['orders_track'], 'Orders.Track', true],
    [['Rebate'], 'Rebates.Read', true],
    [['Orders.Browse'], 'Orders.Track', false],
    [[], 'Projects.Read', false],
  ] as const)('%j holds %s: %s', (permissions, permission, expected) => {
    expect(hasPermission(holding(...permissions), permission)).toBe(expected);
  });

  it('hasAnyPermission needs one of the list', () => {
    expect(hasAnyPermission(holding('Order view'), ['Orders.Track', 'Orders.Read'])).toBe(true);
    expect(hasAnyPermission(holding('Orders.Browse'), ['Orders.Track', 'Orders.Read'])).toBe(false);
    expect(hasAnyPermission(holding('Orders.Browse'), [])).toBe(false);
  });
});

describe('route rules', () => {
  it.each([
    ['/projects', ['Projects.Read']],
    ['/orders', ['Orders.Browse', 'Orders.Track', 'Orders.Checkout', 'Orders.Shipping']],
    ['/rebates', ['Rebates.Read', 'Rebates.Create', 'Rebates.Overview']],
    ['/supportcenter', ['Support.Read']],
    ['/adminpanel', ['Users.Read', 'Users.Create', 'Users.Update', 'Users.Delete', 'Partners.Read', 'Partners.Create', 'Partners.Update', 'Partners.Delete']],
    ['/partnerdirectory', ['Partners.Read']],
  ] as const)('%s opens with any of %j and with nothing else', (route, opening) => {
    expect(ROUTE_RULES[route]).toEqual({ anyOf: opening });
    for (const permission of ALL_PERMISSIONS) {
      expect(canAccessRoute(holding(permission), route), permission).toBe((opening as readonly string[]).includes(permission));
    }
    expect(canAccessRoute(nobody, route)).toBe(false);
  });

  it("guards exactly the specification's six routes, plus the audit log, the activity feed, the leads screens, marketing funds, learning, the partner programme, webhooks and API keys", () => {
    expect(Object.keys(ROUTE_RULES)).toHaveLength(16);
    expect(Object.keys(ROUTE_RULES).slice(6)).toEqual([
      '/audit',
      '/activity',
      '/leads',
      '/lead-management',
      '/funds',
      '/learning',
      '/programme',
      '/scorecards',
      '/webhooks',
      '/api-keys',
    ]);
  });

  it.each([
    ['/orders?tab=recent', false],
    ['/orders/', false],
    ['/orders/123', false],
    ['/orders#top', false],
    ['/Orders', false],
    ['orders', false],
    ['/order/shipping', true],
    ['/order/confirmation', true],
    ['/order/track/42', true],
    ['/ordersx', true],
    ['/', true],
    ['', true],
    ['/catalogue', true],
    ['/partnerdashboard', true],
    ['/constructor', true],
    ['/__proto__', true],
    ['/project/details', true],
  ])('%s open to someone without permissions: %s', (path, open) => {
    expect(canAccessRoute(nobody, path)).toBe(open);
  });

  it.each(['/orders?tab=recent', '/orders/', '/orders/123'])('%s opens with Orders.Track', (path) => {
    expect(canAccessRoute(holding('Orders.Track'), path)).toBe(true);
  });

  it('accepts legacy names', () => {
    expect(canAccessRoute(holding('Delivery status'), '/orders')).toBe(true);
    expect(canAccessRoute(holding('Rebate'), '/rebates')).toBe(true);
    expect(canAccessRoute(holding('projects_read'), '/projects')).toBe(true);
  });
});

describe('action rules', () => {
  const table: Array<[string, Permission]> = [
    ['new-project', 'Projects.Create'],
    ['edit-project', 'Projects.Update'],
    ['delete-project', 'Projects.Delete'],
    ['view-project', 'Projects.Read'],
    ['browse-products', 'Orders.Browse'],
    ['track-orders', 'Orders.Track'],
    ['checkout', 'Orders.Checkout'],
    ['place-order', 'Orders.Shipping'],
    ['submit-rebate', 'Rebates.Create'],
    ['view-rebates', 'Rebates.Read'],
    ['rebate-overview', 'Rebates.Overview'],
    ['create-support-case', 'Support.Create'],
    ['view-support', 'Support.Read'],
  ];

  it('lists exactly the actions of the specification', () => {
    expect(ACTION_RULES).toEqual(Object.fromEntries(table));
  });

  it.each(table)('%s needs %s and nothing else', (action, permission) => {
    expect(canPerformAction(holding(permission), action)).toBe(true);
    expect(canPerformAction(holding(...ALL_PERMISSIONS.filter((p) => p !== permission)), action)).toBe(false);
  });

  it.each([['team-management'], ['some-new-action'], ['toString'], ['constructor'], ['']])('allows the unlisted action %j', (action) => {
    expect(canPerformAction(nobody, action)).toBe(true);
  });
});

describe('endpoint rules', () => {
  const table: Array<[string, string, Permission]> = [
    ['GET', '/projects', 'Projects.Read'],
    ['POST', '/projects', 'Projects.Create'],
    ['PUT', '/projects/7', 'Projects.Update'],
    ['DELETE', '/projects/7', 'Projects.Update'],
    ['GET', '/orders', 'Orders.Browse'],
    ['POST', '/orders', 'Orders.Checkout'],
    ['GET', '/orders/ord-1/track', 'Orders.Track'],
    ['PUT', '/orders/ord-1/shipping', 'Orders.Shipping'],
    // the specification writes Rebate.Read, Rebate.Create and Rebate.Overview here
    ['GET', '/rebates', 'Rebates.Read'],
    ['POST', '/rebates', 'Rebates.Create'],
    ['GET', '/rebates/overview', 'Rebates.Overview'],
    ['GET', '/support', 'Support.Read'],
    ['POST', '/support', 'Support.Read'],
  ];

  it.each(table)('%s %s needs %s and nothing else', (method, path, permission) => {
    expect(requiredPermissionForEndpoint(method, path)).toEqual({ anyOf: [permission] });
    expect(canCallEndpoint(holding(permission), method, path)).toBe(true);
    expect(canCallEndpoint(holding(...ALL_PERMISSIONS.filter((p) => p !== permission)), method, path)).toBe(false);
  });

  it('has one rule per line of the specification plus the users rule', () => {
    expect(ENDPOINT_RULES).toHaveLength(table.length + 1);
  });

  it.each([
    ['GET', '/users'],
    ['GET', '/users/5'],
    ['POST', '/users'],
    ['PUT', '/users/5'],
    ['PATCH', '/users/5'],
    ['DELETE', '/users/5'],
    ['POST', '/users/5/reset-password'],
    ['get', '/api/users?page=2'],
  ])('%s %s is for admins only', (method, path) => {
    expect(requiredPermissionForEndpoint(method, path)).toEqual({ adminOnly: true });
    expect(canCallEndpoint(holding(...ALL_PERMISSIONS), method, path)).toBe(false);
    expect(canCallEndpoint({ role: 'admin', permissions: [] }, method, path)).toBe(true);
  });

  it.each([
    ['GET', '/api/projects', 'Projects.Read'],
    ['get', '/api/projects?page=1&limit=10', 'Projects.Read'],
    ['GET', '/projects/', 'Projects.Read'],
    ['GET', 'projects', 'Projects.Read'],
    ['GET', 'https://portal.example/api/orders?x=1', 'Orders.Browse'],
    ['PUT', '/api/orders/9/shipping/', 'Orders.Shipping'],
    ['GET', '/API/Rebates/Overview', 'Rebates.Overview'],
    ['GET', '/api/projects/../users', null],
  ])('%s %s needs %s', (method, path, permission) => {
    const expected = permission === null ? { adminOnly: true } : { anyOf: [permission] };
    expect(requiredPermissionForEndpoint(method, path)).toEqual(expected);
  });

  it.each([
    ['GET', '/projects/7'],
    ['PATCH', '/projects/7'],
    ['GET', '/orders/9'],
    ['GET', '/rebates/user'],
    ['GET', '/usersettings'],
    ['GET', '/api'],
    ['GET', '/'],
  ])('%s %s is not in the map', (method, path) => {
    expect(requiredPermissionForEndpoint(method, path)).toBeNull();
    expect(canCallEndpoint(nobody, method, path)).toBe(true);
  });
});

describe('single rules', () => {
  it.each([
    [holding('Orders.Shipping'), true],
    [holding('Shipment details'), true],
    [holding('Orders.Checkout', 'Orders.Browse'), false],
    [{ role: 'admin', permissions: [] }, true],
    [{ role: 'support', permissions: ['Support.Read'] }, false],
  ])('canShip(%j) is %s', (principal, expected) => {
    expect(canShip(principal)).toBe(expected);
  });

  it.each([
    ['admin', true],
    ['administrator', true],
    ['partner', false],
    ['distributor', false],
    ['support', false],
    ['manufacturer', false],
    ['partner_user', false],
    ['', false],
    [null, false],
  ])('canUpdatePermissions(%j) is %s', (role, expected) => {
    expect(canUpdatePermissions(role)).toBe(expected);
  });

  it('carries the refusal message of the specification', () => {
    expect(ONLY_ADMINS_UPDATE_PERMISSIONS).toBe('Only administrators can update user permissions');
  });
});

describe('features', () => {
  it.each([
    ['projects', 'Projects.Read'],
    ['orders', 'Orders.Browse'],
    ['orders', 'Orders.Track'],
    ['orders', 'Orders.Checkout'],
    ['orders', 'Orders.Shipping'],
    ['rebates', 'Rebates.Read'],
    ['rebates', 'Rebates.Create'],
    ['rebates', 'Rebates.Overview'],
    ['support', 'Support.Read'],
    ['products', 'Orders.Browse'],
    ['shipments', 'Orders.Shipping'],
    ['tracking', 'Orders.Track'],
    ['create_orders', 'Orders.Create'],
    ['view_orders', 'Orders.Read'],
  ])('%s comes with %s', (feature, permission) => {
    expect(featuresFor(holding(permission))).toContain(feature);
  });

  it('derives the features of a sub-user from its permissions', () => {
    expect(featuresFor({ role: 'partner_user', permissions: ['projects_read', 'orders_track', 'orders_browse'] })).toEqual([
      'projects',
      'orders',
      'products',
      'tracking',
    ]);
  });

  it('gives none without permissions', () => {
    expect(featuresFor(nobody)).toEqual([]);
  });
});

describe('canAccess', () => {
  const table: Array<[string, string, Permission | 'admin' | 'open']> = [
    ['users', 'list', 'Users.Read'],
    ['users', 'show', 'Users.Read'],
    ['users', 'create', 'Users.Create'],
    ['users', 'edit', 'Users.Update'],
    ['users', 'delete', 'Users.Delete'],
    ['partners', 'list', 'Partners.Read'],
    ['partners', 'show', 'Partners.Read'],
    ['partners', 'create', 'Partners.Create'],
    ['partners', 'edit', 'Partners.Update'],
    ['partners', 'delete', 'Partners.Delete'],
    ['projects', 'list', 'Projects.Read'],
    ['projects', 'show', 'Projects.Read'],
    ['projects', 'create', 'Projects.Create'],
    ['projects', 'edit', 'Projects.Update'],
    ['projects', 'delete', 'Projects.Delete'],
    ['orders', 'list', 'Orders.Read'],
    ['orders', 'list', 'Orders.Browse'],
    ['orders', 'list', 'Orders.Track'],
    ['orders', 'show', 'Orders.Read'],
    ['orders', 'create', 'Orders.Create'],
    ['orders', 'create', 'Orders.Checkout'],
    ['orders', 'edit', 'Orders.Update'],
    ['orders', 'delete', 'Orders.Delete'],
    ['products', 'list', 'Orders.Browse'],
    ['products', 'show', 'Orders.Browse'],
    ['products', 'create', 'admin'],
    ['products', 'edit', 'admin'],
    ['products', 'delete', 'admin'],
    ['rebates', 'list', 'Rebates.Read'],
    ['rebates', 'show', 'Rebates.Read'],
    ['rebates', 'create', 'Rebates.Create'],
    ['rebates', 'edit', 'Rebates.Update'],
    ['rebates', 'delete', 'Rebates.Delete'],
    ['tickets', 'list', 'Support.Read'],
    ['tickets', 'show', 'Support.Read'],
    ['tickets', 'create', 'Support.Create'],
    ['tickets', 'edit', 'Support.Update'],
    ['tickets', 'delete', 'Support.Delete'],
    ['notifications', 'list', 'open'],
    ['notifications', 'show', 'open'],
    ['notifications', 'create', 'admin'],
    ['notifications', 'edit', 'open'],
    ['notifications', 'delete', 'open'],
    ['leads', 'list', 'Leads.Read'],
    ['leads', 'show', 'Leads.Read'],
    ['leads', 'create', 'Leads.Create'],
    ['leads', 'edit', 'Leads.Update'],
    ['leads', 'delete', 'admin'],
    ['funds', 'list', 'MDF.Read'],
    ['funds', 'show', 'MDF.Read'],
    ['funds', 'create', 'MDF.Create'],
    ['funds', 'edit', 'MDF.Update'],
    ['courses', 'list', 'Learning.Read'],
    ['courses', 'show', 'Learning.Read'],
    ['courses', 'create', 'Learning.Update'],
    ['courses', 'edit', 'Learning.Update'],
    ['courses', 'delete', 'admin'],
    ['certifications', 'list', 'Learning.Read'],
    ['certifications', 'show', 'Learning.Read'],
    ['certifications', 'create', 'admin'],
    ['certifications', 'edit', 'admin'],
    ['certifications', 'delete', 'admin'],
    ['funds', 'delete', 'admin'],
  ];

  it.each(table)('%s.%s: %s', (resource, action, needs) => {
    const request = { resource, action };
    expect(canAccess(nobody, request)).toBe(needs === 'open');
    if (needs === 'admin') expect(canAccess(holding(...ALL_PERMISSIONS), request)).toBe(false);
    else if (needs !== 'open') expect(canAccess(holding(needs), request)).toBe(true);
  });

  it('covers every resource and action', () => {
    const covered = new Set(table.map(([resource, action]) => `${resource}.${action}`));
    for (const resource of RESOURCES) for (const action of RESOURCE_ACTIONS) expect(covered).toContain(`${resource}.${action}`);
  });

  it.each([
    ['orders', 'list', 'Orders.Shipping'],
    ['orders', 'create', 'Orders.Shipping'],
    ['products', 'list', 'Orders.Track'],
    ['tickets', 'create', 'Support.Read'],
    ['rebates', 'list', 'Rebates.Overview'],
  ] as const)('%s.%s is refused with only %s', (resource, action, permission) => {
    expect(canAccess(holding(permission), { resource, action })).toBe(false);
  });

  it.each([
    ['invoices', 'list'],
    ['projects', 'export'],
    ['projects', 'constructor'],
    ['constructor', 'list'],
    ['__proto__', 'list'],
  ])('refuses unknown %s.%s to non-admins', (resource, action) => {
    expect(canAccess(holding(...ALL_PERMISSIONS), { resource, action })).toBe(false);
    expect(canAccess({ role: 'admin', permissions: [] }, { resource, action })).toBe(true);
  });

  it('refuses a missing principal', () => {
    expect(canAccess(null, { resource: 'notifications', action: 'list' })).toBe(false);
    expect(canAccess(undefined, { resource: 'projects', action: 'list' })).toBe(false);
  });

  it('accepts legacy names and ignores the record', () => {
    expect(canAccess(holding('Order view'), { resource: 'orders', action: 'show', record: { id: 1 } })).toBe(true);
  });
});

describe.each(ADMINS)('%s without any permission', (role) => {
  const admin: Principal = { role, permissions: [] };

  it('passes every permission, route, action, endpoint and resource', () => {
    for (const permission of ALL_PERMISSIONS) expect(hasPermission(admin, permission)).toBe(true);
    for (const route of Object.keys(ROUTE_RULES)) expect(canAccessRoute(admin, route)).toBe(true);
    for (const action of Object.keys(ACTION_RULES)) expect(canPerformAction(admin, action)).toBe(true);
    for (const rule of ENDPOINT_RULES) {
      const path = rule.path.replace(':id', '1').replace('/**', '/1');
      expect(canCallEndpoint(admin, rule.method === '*' ? 'DELETE' : rule.method, path)).toBe(true);
    }
    for (const resource of RESOURCES) for (const action of RESOURCE_ACTIONS) expect(canAccess(admin, { resource, action })).toBe(true);
    expect(featuresFor(admin)).toEqual([...FEATURES]);
    expect(canShip(admin)).toBe(true);
    expect(canUpdatePermissions(role)).toBe(true);
  });
});

describe('support staff hold only their own permissions (no blanket access)', () => {
  const support: Principal = { role: 'support', permissions: DEFAULT_PERMISSIONS_BY_ROLE.support };

  it.each([
    ['/supportcenter', true],
    ['/projects', false],
    // Orders read-only, to answer order questions: the list and tracking, not the catalogue or checkout.
    ['/orders', true],
    ['/rebates', false],
    ['/adminpanel', false],
    ['/partnerdirectory', false],
  ])('route %s: %s', (route, allowed) => {
    expect(canAccessRoute(support, route)).toBe(allowed);
  });

  it.each([
    ['GET', '/support', true],
    ['GET', '/projects', false],
    ['POST', '/orders', false],
    ['GET', '/rebates', false],
    ['GET', '/users', false],
  ])('endpoint %s %s: %s', (method, path, allowed) => {
    expect(canCallEndpoint(support, method, path)).toBe(allowed);
  });

  it.each([
    ['tickets', 'list', true],
    ['tickets', 'create', true],
    ['tickets', 'edit', true],
    ['tickets', 'delete', false],
    ['users', 'list', false],
    ['projects', 'list', false],
    ['products', 'create', false],
    ['orders', 'list', true],
    ['orders', 'show', true],
    ['orders', 'create', false],
    ['orders', 'edit', false],
    ['products', 'list', false],
  ])('%s.%s: %s', (resource, action, allowed) => {
    expect(canAccess(support, { resource, action })).toBe(allowed);
  });

  it('cannot ship, change permissions, or see features beyond support and reading orders', () => {
    expect(canShip(support)).toBe(false);
    expect(canUpdatePermissions('support')).toBe(false);
    expect(featuresFor(support)).toEqual(['orders', 'support', 'tracking', 'view_orders']);
  });
});

describe('demo accounts', () => {
  it.each([
    ['partner', ['/projects', '/orders', '/rebates', '/supportcenter', '/activity', '/leads', '/funds', '/learning', '/scorecards', '/webhooks', '/api-keys']],
    ['distributor', ['/orders', '/supportcenter', '/adminpanel', '/partnerdirectory', '/activity', '/funds', '/learning', '/webhooks', '/api-keys']],
    ['manufacturer', ['/projects', '/orders', '/adminpanel', '/partnerdirectory', '/leads', '/lead-management', '/learning', '/programme', '/scorecards']],
    ['support', ['/orders', '/supportcenter', '/learning']],
    ['partner_user', ['/projects', '/orders', '/activity', '/learning', '/scorecards']],
    ['distributor_user', ['/orders', '/activity', '/learning']],
  ] as const)('%s reaches exactly %j of the guarded routes', (role, routes) => {
    const principal = { role, permissions: DEFAULT_PERMISSIONS_BY_ROLE[role] };
    expect(Object.keys(ROUTE_RULES).filter((route) => canAccessRoute(principal, route))).toEqual(routes);
  });
});
