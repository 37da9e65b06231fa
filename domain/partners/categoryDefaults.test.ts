import { describe, expect, it } from 'vitest';
import { PARTNER_APPROVAL_PERMISSION_GROUPS } from '../access';
import { PARTNER_CATEGORIES } from './application';
import { CATEGORY_DEFAULT_PERMISSIONS, defaultPermissionsOfCategory } from './categoryDefaults';

const offered = PARTNER_APPROVAL_PERMISSION_GROUPS.flatMap((group) => group.permissions);
const [valueAdded, authorized, exclusive] = PARTNER_CATEGORIES;

describe('default permissions of a partnership category', () => {
  it('gives an Authorized partner ordering, deal registration, support reading and learning', () => {
    expect(defaultPermissionsOfCategory(authorized)).toEqual([
      'Projects.Read',
      'Projects.Create',
      'Orders.Track',
      'Orders.Browse',
      'Orders.Checkout',
      'Orders.Shipping',
      'Support.Read',
      'Learning.Read',
    ]);
  });

  it('gives a Value Added partner deal updates, the rebate programme, vendor leads and a view of its marketing funds, but not rebate claims or fund requests', () => {
    const permissions = defaultPermissionsOfCategory(valueAdded);
    expect(permissions).toEqual(
      expect.arrayContaining([
        ...defaultPermissionsOfCategory(authorized),
        'Projects.Update',
        'Rebates.Read',
        'Rebates.Overview',
        'Leads.Read',
        'Leads.Update',
        'MDF.Read',
      ]),
    );
    expect(permissions).not.toContain('Rebates.Create');
    expect(permissions).not.toContain('MDF.Create');
    expect(permissions).toHaveLength(14);
  });

  it('gives an Exclusive partner everything the approve dialog offers', () => {
    expect(defaultPermissionsOfCategory(exclusive)).toEqual(offered);
  });

  it('never starts with all seventeen ticked below Exclusive, and only offers what the dialog shows', () => {
    for (const category of PARTNER_CATEGORIES) {
      const permissions = CATEGORY_DEFAULT_PERMISSIONS[category];
      expect(permissions.every((p) => offered.includes(p))).toBe(true);
      if (category !== exclusive) expect(permissions.length).toBeLessThan(offered.length);
    }
    expect(offered).toHaveLength(17);
  });
});
