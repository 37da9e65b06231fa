import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  ASSIGNABLE_PERMISSIONS_BY_ROLE,
  DEFAULT_PERMISSIONS_BY_ROLE,
  isPermission,
  PARTNER_APPROVAL_PERMISSION_GROUPS,
  PERMISSION_CATALOGUE,
  PERMISSION_GROUPS,
  PERMISSION_LABELS,
  permissionLabel,
  ROLES,
} from './index';

describe('permission catalogue', () => {
  it.each([
    ['Projects', ['Read', 'Create', 'Update', 'Delete']],
    ['Orders', ['Read', 'Create', 'Update', 'Delete', 'Track', 'Browse', 'Checkout', 'Shipping']],
    ['Rebates', ['Read', 'Create', 'Update', 'Delete', 'Overview']],
    ['Support', ['Read', 'Create', 'Update', 'Delete']],
    ['Users', ['Read', 'Create', 'Update', 'Delete']],
    ['Partners', ['Read', 'Create', 'Update', 'Delete']],
    ['Leads', ['Read', 'Create', 'Update']],
    ['Learning', ['Read', 'Update']],
  ] as const)('%s has actions %j', (category, actions) => {
    expect(PERMISSION_CATALOGUE[category]).toEqual(actions);
  });

  it('lists 37 permissions, each once', () => {
    expect(ALL_PERMISSIONS).toHaveLength(37);
    expect(new Set(ALL_PERMISSIONS).size).toBe(37);
  });

  it.each([
    ['Orders.Track', true],
    ['Rebates.Overview', true],
    ['Rebate.Read', false],
    ['orders.track', false],
    ['Orders.Overview', false],
    ['', false],
    [42, false],
    [null, false],
  ])('isPermission(%j) is %s', (value, expected) => {
    expect(isPermission(value)).toBe(expected);
  });
});

describe('labels', () => {
  it.each([
    ['Orders.Read', 'View Orders'],
    ['Orders.Shipping', 'Manage Shipping'],
    ['Support.Read', 'Access Support'],
    ['Projects.Read', 'View Projects'],
    ['Projects.Create', 'Create Projects'],
    ['Orders.Track', 'Track Orders'],
    ['Orders.Browse', 'Browse Products'],
    ['Orders.Checkout', 'Checkout'],
    ['Rebates.Create', 'Submit Rebates'],
    ['Rebates.Overview', 'Rebate Overview'],
  ] as const)('%s reads %s', (permission, label) => {
    expect(permissionLabel(permission)).toBe(label);
  });

  it('labels every permission, each differently', () => {
    expect(Object.keys(PERMISSION_LABELS).sort()).toEqual([...ALL_PERMISSIONS].sort());
    expect(new Set(Object.values(PERMISSION_LABELS)).size).toBe(ALL_PERMISSIONS.length);
  });
});

describe('permission groups', () => {
  it('have one group per category, together covering the catalogue in order', () => {
    expect(Object.keys(PERMISSION_GROUPS)).toEqual(['PROJECTS', 'ORDERS', 'REBATES', 'SUPPORT', 'USERS', 'PARTNERS', 'LEADS', 'MDF', 'LEARNING']);
    expect(Object.values(PERMISSION_GROUPS).flatMap((group) => group.permissions)).toEqual(ALL_PERMISSIONS);
  });

  it('offer the partner approval picker of the specification', () => {
    expect(PARTNER_APPROVAL_PERMISSION_GROUPS.map((group) => [group.title, group.permissions])).toEqual([
      ['Projects', ['Projects.Read', 'Projects.Create', 'Projects.Update']],
      ['Orders', ['Orders.Track', 'Orders.Browse', 'Orders.Checkout', 'Orders.Shipping']],
      ['Rebate', ['Rebates.Read', 'Rebates.Create', 'Rebates.Overview']],
      ['Support', ['Support.Read']],
      ['Leads', ['Leads.Read', 'Leads.Update']],
      ['Marketing Funds', ['MDF.Read', 'MDF.Create', 'MDF.Update']],
      ['Learning', ['Learning.Read']],
    ]);
  });
});

describe('assignable and default permissions', () => {
  it.each(['partner', 'distributor', 'manufacturer', 'support'] as const)('%s may get anything but Users.*', (role) => {
    expect(ASSIGNABLE_PERMISSIONS_BY_ROLE[role]).toEqual(ALL_PERMISSIONS.filter((p) => !p.startsWith('Users.')));
  });

  it.each(['partner_user', 'distributor_user'] as const)('%s may get neither Users.* nor Partners.*', (role) => {
    expect(ASSIGNABLE_PERMISSIONS_BY_ROLE[role]).toEqual(ALL_PERMISSIONS.filter((p) => !/^(Users|Partners)\./.test(p)));
  });

  it.each(['admin', 'administrator'] as const)('%s may get and has everything', (role) => {
    expect(ASSIGNABLE_PERMISSIONS_BY_ROLE[role]).toEqual(ALL_PERMISSIONS);
    expect(DEFAULT_PERMISSIONS_BY_ROLE[role]).toEqual(ALL_PERMISSIONS);
  });

  it.each(ROLES.map((role) => [role]))('the defaults of %s are assignable to it', (role) => {
    for (const permission of DEFAULT_PERMISSIONS_BY_ROLE[role]) expect(ASSIGNABLE_PERMISSIONS_BY_ROLE[role]).toContain(permission);
  });

  it.each([
    ['partner_user', 'partner'],
    ['distributor_user', 'distributor'],
  ] as const)('the defaults of %s are a subset of those of %s', (subUser, parent) => {
    for (const permission of DEFAULT_PERMISSIONS_BY_ROLE[subUser]) expect(DEFAULT_PERMISSIONS_BY_ROLE[parent]).toContain(permission);
  });

  it.each([
    ['partner', 19],
    ['distributor', 13],
    ['manufacturer', 7],
    ['support', 6],
    ['partner_user', 4],
    ['distributor_user', 3],
  ] as const)('%s starts with %i permissions', (role, count) => {
    expect(DEFAULT_PERMISSIONS_BY_ROLE[role]).toHaveLength(count);
  });
});
