import { describe, expect, it } from 'vitest';
import { agreementStatus, agreementTerm, orderGovernanceStatus, rebateProgramme } from './governance';

describe('agreement term', () => {
  it('renews on the first anniversary of the approval after today', () => {
    expect(agreementTerm('2025-03-15', '2026-11-23T10:00:00Z')).toEqual({ termStart: '2026-03-15', renewalDate: '2027-03-15', daysToRenewal: 112 });
    expect(agreementTerm('2026-11-23', '2026-11-23T10:00:00Z').renewalDate).toBe('2027-11-23');
  });
  it('renews on the anniversary day itself, then starts a new term', () => {
    expect(agreementTerm('2025-11-23', '2026-11-23T00:00:00Z')).toMatchObject({ termStart: '2026-11-23', renewalDate: '2027-11-23' });
  });
  it('keeps a 29 February approval on the last day of February', () => {
    expect(agreementTerm('2024-02-29', '2024-06-01').renewalDate).toBe('2025-02-28');
  });
  it("shows the application status in the spec's words", () => {
    expect(agreementStatus({ applicationStatus: 'approved', accountActive: true })).toBe('Active');
    expect(agreementStatus({ applicationStatus: null, accountActive: true })).toBe('Active');
    expect(agreementStatus({ applicationStatus: 'pending', accountActive: true })).toBe('Pending Approval');
    expect(agreementStatus({ applicationStatus: 'approved', accountActive: false })).toBe('Expired');
  });
});

describe('order statuses', () => {
  it('maps each order status to a governance status', () => {
    expect(['pending', 'approved', 'shipped', 'delivered', 'cancelled'].map(orderGovernanceStatus)).toEqual([
      'Pending Approval',
      'Processing',
      'Shipped',
      'Delivered',
      'Cancelled',
    ]);
  });
});

describe('rebate programme', () => {
  it('sets each quarter the tier above the one the quarter before reached', () => {
    const plan = rebateProgramme('2026-08-10T12:00:00Z', {
      '2025-Q4': { purchasesCents: 30_000_00, rebatesCents: 1_050_00 }, // Silver: Q1 aims at Gold
      '2026-Q1': { purchasesCents: 80_000_00, rebatesCents: 4_000_00 }, // Gold: Q2 aims at Platinum
      '2026-Q2': { purchasesCents: 10_000_00, rebatesCents: 200_00 }, // Bronze: Q3 aims at Silver
      '2026-Q3': { purchasesCents: 12_500_00, rebatesCents: 250_00 },
    });
    expect(plan.quarters.map((q) => [q.label, q.targetTier, q.targetCents, q.status, q.percentage])).toEqual([
      ['Q1 2026', 'Gold', 75_000_00, 'Completed', 100],
      ['Q2 2026', 'Platinum', 150_000_00, 'Completed', 6.6],
      ['Q3 2026', 'Silver', 25_000_00, 'Active', 50],
      ['Q4 2026', 'Silver', 25_000_00, 'Upcoming', 0],
    ]);
    expect(plan.annualTargetCents).toBe(275_000_00);
    expect(plan.annualPurchasesCents).toBe(102_500_00);
    expect(plan.annualRebatesCents).toBe(4_450_00);
    expect(plan.annualPercentage).toBe(37.2);
    expect(plan.currentTier.name).toBe('Bronze');
  });
  it('starts a new organisation at Silver, the tier above Bronze', () => {
    const plan = rebateProgramme('2026-01-05', {});
    expect(plan.quarters.every((q) => q.targetTier === 'Silver')).toBe(true);
    expect(plan.quarters[0]!.status).toBe('Active');
  });
});
