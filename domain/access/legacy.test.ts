import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, normalizePermission, normalizePermissions, toSubUserPermission, toSubUserPermissions } from './index';

describe('normalizePermission', () => {
  it.each(ALL_PERMISSIONS.map((permission) => [permission]))('keeps %s', (permission) => {
    expect(normalizePermission(permission)).toBe(permission);
  });

  it.each([
    // legacy names of the specification
    ['Rebate.Read', 'Rebates.Read'],
    ['Order.Track', 'Orders.Track'],
    ['Order create', 'Orders.Create'],
    ['Order view', 'Orders.Read'],
    ['Shipment details', 'Orders.Shipping'],
    ['Delivery status', 'Orders.Track'],
    ['Rebate', 'Rebates.Read'],
    // the older category spelling in general
    ['Rebate.Create', 'Rebates.Create'],
    ['Rebate.Update', 'Rebates.Update'],
    ['Rebate.Delete', 'Rebates.Delete'],
    ['Rebate.Overview', 'Rebates.Overview'],
    ['Order.Browse', 'Orders.Browse'],
    // partner legacy names the specification leaves unmapped
    ['Product Access', 'Orders.Browse'],
    ['Item delivery', 'Orders.Track'],
    // sub-user form
    ['orders_track', 'Orders.Track'],
    ['projects_read', 'Projects.Read'],
    ['rebates_overview', 'Rebates.Overview'],
    ['orders_shipping', 'Orders.Shipping'],
    ['support_create', 'Support.Create'],
    ['partners_read', 'Partners.Read'],
    ['users_delete', 'Users.Delete'],
    ['rebate_read', 'Rebates.Read'],
    // case and spaces
    ['ORDERS_TRACK', 'Orders.Track'],
    ['Projects_Read', 'Projects.Read'],
    ['orders.browse', 'Orders.Browse'],
    ['  Orders.Track  ', 'Orders.Track'],
    ['order CREATE', 'Orders.Create'],
    ['shipment  details', 'Orders.Shipping'],
    ['product access', 'Orders.Browse'],
    ['REBATE', 'Rebates.Read'],
  ])('maps %j to %s', (raw, permission) => {
    expect(normalizePermission(raw)).toBe(permission);
  });

  it.each([
    [''],
    ['Orders'],
    ['Rebates'],
    ['Orders.Overview'],
    ['Projects.Track'],
    ['orders-track'],
    ['orders__track'],
    ['Orders.Track.Extra'],
    ['Projects.*'],
    ['Admin'],
    ['constructor'],
    ['__proto__'],
    ['toString'],
    [null],
    [undefined],
    [7],
    [{}],
  ])('drops %j', (raw) => {
    expect(normalizePermission(raw)).toBeNull();
  });
});

describe('normalizePermissions', () => {
  it('maps, dedupes, drops unknowns and sorts in catalogue order', () => {
    expect(
      normalizePermissions(['Support.Read', 'Delivery status', 'orders_track', 'nonsense', 'Rebate', 'Projects.Read', 'Order.Track', 'Rebates.Read']),
    ).toEqual(['Projects.Read', 'Orders.Track', 'Rebates.Read', 'Support.Read']);
  });

  it.each([[[]], [null], [undefined], [['', 'x', 42]]])('gives nothing for %j', (list) => {
    expect(normalizePermissions(list as unknown[] | null | undefined)).toEqual([]);
  });
});

describe('sub-user form', () => {
  it.each([
    ['Orders.Track', 'orders_track'],
    ['Projects.Read', 'projects_read'],
    ['Rebates.Overview', 'rebates_overview'],
    ['Support.Read', 'support_read'],
  ] as const)('%s is %s', (permission, subUser) => {
    expect(toSubUserPermission(permission)).toBe(subUser);
  });

  it.each(ALL_PERMISSIONS.map((permission) => [permission]))('%s survives the round trip', (permission) => {
    expect(normalizePermission(toSubUserPermission(permission))).toBe(permission);
  });

  it('converts a legacy list', () => {
    expect(toSubUserPermissions(['Delivery status', 'Product Access', 'Rebate', 'bogus'])).toEqual(['orders_track', 'orders_browse', 'rebates_read']);
  });
});
