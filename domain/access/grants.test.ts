import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, ASSIGNABLE_PERMISSIONS_BY_ROLE, canGrantPermissions, grantablePermissions, type Principal } from './index';

const admin: Principal = { role: 'administrator', permissions: [] };
const partner: Principal = { role: 'partner', permissions: ['Projects.Read', 'Delivery status', 'Orders.Browse', 'Partners.Read', 'Users.Read'] };
const distributor: Principal = { role: 'distributor', permissions: ['orders_track', 'Support.Read'] };

describe('grantablePermissions', () => {
  it.each(['partner', 'distributor', 'manufacturer', 'support', 'partner_user', 'admin'] as const)('an admin may grant a %s everything assignable', (role) => {
    expect(grantablePermissions(admin, role)).toEqual(ASSIGNABLE_PERMISSIONS_BY_ROLE[role]);
  });

  it('a partner may grant its sub-users only what it holds, within the sub-user ceiling', () => {
    expect(grantablePermissions(partner, 'partner_user')).toEqual(['Projects.Read', 'Orders.Track', 'Orders.Browse']);
  });

  it('a distributor may grant its sub-users only what it holds', () => {
    expect(grantablePermissions(distributor, 'distributor_user')).toEqual(['Orders.Track', 'Support.Read']);
  });

  it.each([
    [partner, 'distributor_user'],
    [partner, 'partner'],
    [distributor, 'partner_user'],
    [{ role: 'support', permissions: ALL_PERMISSIONS }, 'partner_user'],
    [{ role: 'partner_user', permissions: ALL_PERMISSIONS }, 'partner_user'],
    [admin, 'guest'],
    [admin, 'constructor'],
    [{ role: 'constructor', permissions: ALL_PERMISSIONS }, 'partner_user'],
  ] as const)('%j may grant nothing to a %s', (actor, role) => {
    expect(grantablePermissions(actor, role)).toEqual([]);
  });
});

describe('canGrantPermissions', () => {
  it.each([
    [partner, 'partner_user', ['projects_read', 'orders_track'], true],
    [partner, 'partner_user', [], true],
    [partner, 'partner_user', ['Projects.Create'], false],
    [partner, 'partner_user', ['Partners.Read'], false],
    [partner, 'partner_user', ['Users.Read'], false],
    [partner, 'partner_user', ['orders_track', 'nonsense'], false],
    [admin, 'support', ['Support.Read', 'Rebate'], true],
    [admin, 'support', ['Users.Read'], false],
    [admin, 'admin', ['Users.Delete'], true],
  ] as const)('%j to %s of %j: %s', (actor, role, requested, expected) => {
    expect(canGrantPermissions(actor, role, requested)).toBe(expected);
  });
});
