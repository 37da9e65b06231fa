import { describe, expect, it } from 'vitest';
import { daysRemainingIn, quarterOf, rebateProgress, REBATE_TIERS, suggestedRebateCents, tierFor } from './tiers';

describe('calendar quarters', () => {
  it.each([
    ['2026-01-01T00:00:00.000Z', 'Q1 2026', '2026-01-01', '2026-03-31'],
    ['2026-03-31T23:59:59.999Z', 'Q1 2026', '2026-01-01', '2026-03-31'],
    ['2026-04-01T00:00:00.000Z', 'Q2 2026', '2026-04-01', '2026-06-30'],
    ['2026-09-30T12:00:00.000Z', 'Q3 2026', '2026-07-01', '2026-09-30'],
    ['2026-10-01T00:00:00.000Z', 'Q4 2026', '2026-10-01', '2026-12-31'],
    ['2026-12-31T23:59:59.999Z', 'Q4 2026', '2026-10-01', '2026-12-31'],
    ['2024-02-29', 'Q1 2024', '2024-01-01', '2024-03-31'],
  ])('%s is in %s (%s to %s)', (moment, label, start, end) => {
    expect(quarterOf(moment)).toMatchObject({ label, start, end });
  });

  it('names its three months', () => {
    expect(quarterOf('2026-11-21').months).toEqual(['2026-10', '2026-11', '2026-12']);
  });

  it.each([
    ['2026-10-01T08:00:00.000Z', 92],
    ['2026-11-21T10:00:00.000Z', 41],
    ['2026-12-30T23:00:00.000Z', 2],
    ['2026-12-31T00:00:00.000Z', 1],
    ['2026-12-31T23:59:59.999Z', 1],
    ['2026-01-01T00:00:00.000Z', 90],
    ['2024-01-01T00:00:00.000Z', 91],
  ])('on %s, %i days remain (today included)', (now, days) => {
    expect(daysRemainingIn(quarterOf(now), now)).toBe(days);
  });
});

describe('the tier ladder', () => {
  it('rises with the quarter’s approved purchases, at the thresholds exactly', () => {
    expect(tierFor(0).name).toBe('Bronze');
    expect(tierFor(25_000_00 - 1).name).toBe('Bronze');
    expect(tierFor(25_000_00).name).toBe('Silver');
    expect(tierFor(75_000_00 - 1).name).toBe('Silver');
    expect(tierFor(75_000_00).name).toBe('Gold');
    expect(tierFor(150_000_00).name).toBe('Platinum');
    expect(tierFor(1_000_000_00).name).toBe('Platinum');
  });

  it('has rising thresholds and rates', () => {
    for (let i = 1; i < REBATE_TIERS.length; i++) {
      expect(REBATE_TIERS[i].quarterlyPurchasesCents).toBeGreaterThan(REBATE_TIERS[i - 1].quarterlyPurchasesCents);
      expect(REBATE_TIERS[i].ratePercent).toBeGreaterThan(REBATE_TIERS[i - 1].ratePercent);
    }
  });

  it('suggests the purchase at the rate, rounded to the cent', () => {
    expect(suggestedRebateCents(12_500_00, 2)).toBe(250_00);
    expect(suggestedRebateCents(12_345_67, 3.5)).toBe(432_10);
    expect(suggestedRebateCents(1, 2)).toBe(0);
  });
});

describe('quarterly progress', () => {
  const at = (purchasesCents: number, now = '2026-11-21T10:00:00.000Z') => rebateProgress({ now, purchasesCents, rebatesCents: 0 });

  it('starts at Bronze with Silver as the target', () => {
    expect(at(0)).toMatchObject({
      progressLabel: 'Q4 2026 Progress',
      daysRemaining: 41,
      currentTier: { name: 'Bronze' },
      nextTier: { name: 'Silver' },
      targetCents: 25_000_00,
      percentage: 0,
      remainingToNextTierCents: 25_000_00,
      ratePercent: 2,
    });
  });

  it('measures progress to the next tier and what remains', () => {
    expect(at(10_000_00)).toMatchObject({ currentTier: { name: 'Bronze' }, percentage: 40, remainingToNextTierCents: 15_000_00 });
    expect(at(25_000_00)).toMatchObject({
      currentTier: { name: 'Silver' },
      nextTier: { name: 'Gold' },
      targetCents: 75_000_00,
      percentage: 33.3,
      remainingToNextTierCents: 50_000_00,
      ratePercent: 3.5,
    });
    expect(at(74_999_99)).toMatchObject({ currentTier: { name: 'Silver' }, percentage: 99.9, remainingToNextTierCents: 1 });
  });

  it('caps at 100% once the top tier is reached', () => {
    expect(at(150_000_00)).toMatchObject({
      currentTier: { name: 'Platinum' },
      nextTier: null,
      targetCents: 150_000_00,
      percentage: 100,
      remainingToNextTierCents: 0,
      ratePercent: 6.5,
    });
    expect(at(900_000_00).percentage).toBe(100);
  });

  it('labels the quarter of the moment given, on both sides of a boundary', () => {
    expect(at(0, '2026-12-31T23:59:59.000Z')).toMatchObject({ progressLabel: 'Q4 2026 Progress', daysRemaining: 1 });
    expect(at(0, '2027-01-01T00:00:00.000Z')).toMatchObject({ progressLabel: 'Q1 2027 Progress', daysRemaining: 90 });
  });
});
