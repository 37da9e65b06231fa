import { describe, expect, it } from 'vitest';
import { dashboardKindOf, quickActionsFor } from './quickActions';

const keys = (role: string, permissions: string[], kind = dashboardKindOf(role)!) => quickActionsFor({ role, permissions }, kind).map((a) => a.key);

describe('partner quick actions (spec 001, Dashboards)', () => {
  it('follow Projects.Create, Orders.Browse and Rebate.Read; Team Management is always shown', () => {
    expect(keys('partner', ['Projects.Create', 'Orders.Browse', 'Rebates.Read'])).toEqual(['new-project', 'place-order', 'check-rebates', 'team-management']);
    expect(keys('partner', ['Rebate'])).toEqual(['check-rebates', 'team-management']);
    expect(keys('partner', [])).toEqual(['team-management']);
  });
});

describe('other dashboards', () => {
  it('administrators get every action of any dashboard', () => {
    expect(keys('admin', [], 'partner')).toHaveLength(4);
    expect(keys('administrator', [])).toEqual(['partner-approvals', 'deal-registrations', 'rebate-review', 'users']);
  });

  it('sub-users have no role dashboard', () => {
    expect(dashboardKindOf('partner_user')).toBeNull();
    expect(dashboardKindOf('distributor_user')).toBeNull();
  });

  it('admin-only actions never reach other roles', () => {
    expect(keys('support', ['Support.Read', 'Support.Update'], 'admin')).toEqual([]);
  });
});
