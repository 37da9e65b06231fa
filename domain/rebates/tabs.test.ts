import { describe, expect, it } from 'vitest';
import { initialRebateTab, rebateTabsFor } from './tabs';

const user = (...permissions: string[]) => ({ role: 'partner', permissions });

describe('the tabs of /rebates', () => {
  it('show each tab with its permission (spec 002 §6)', () => {
    expect(rebateTabsFor(user('Rebates.Read', 'Rebates.Create', 'Rebates.Overview'))).toEqual(['overview', 'submit', 'history', 'progress']);
    expect(rebateTabsFor(user('Rebates.Overview'))).toEqual(['overview', 'progress']);
    expect(rebateTabsFor(user('Rebates.Read'))).toEqual(['overview', 'history', 'progress']);
    expect(rebateTabsFor(user('Rebates.Create'))).toEqual(['submit']);
    expect(rebateTabsFor(user('Orders.Read'))).toEqual([]);
    expect(rebateTabsFor({ role: 'admin', permissions: [] })).toEqual(['overview', 'submit', 'history', 'progress']);
  });

  it('accept the older spelling Rebate.*', () => {
    expect(rebateTabsFor(user('Rebate.Read'))).toEqual(['overview', 'history', 'progress']);
    expect(rebateTabsFor(user('Rebate.Create'))).toEqual(['submit']);
  });

  it('fall back from overview to history, then submit; none without any', () => {
    expect(initialRebateTab(user('Rebates.Read', 'Rebates.Create'))).toBe('overview');
    expect(initialRebateTab(user('Rebates.Create'))).toBe('submit');
    expect(initialRebateTab(user('Orders.Read'))).toBeNull();
    expect(initialRebateTab(user('Rebates.Read', 'Rebates.Create'), 'progress')).toBe('progress');
    expect(initialRebateTab(user('Rebates.Create'), 'history')).toBe('submit');
  });
});
