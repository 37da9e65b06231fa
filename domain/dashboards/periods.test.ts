import { describe, expect, it } from 'vitest';
import {
  chartSpan,
  currentWeek,
  dayKeys,
  growthPercentage,
  lastDays,
  monthKeys,
  monthToDate,
  percentOf,
  previousPeriod,
  todayPeriod,
  weekStarts,
} from './periods';

describe('periods', () => {
  const now = new Date('2024-03-12T12:00:00.000Z'); // a Tuesday in a leap year

  it('are whole UTC days with today included', () => {
    expect(todayPeriod(now)).toEqual({ start: '2024-03-12', end: '2024-03-13' });
    expect(monthToDate(now)).toEqual({ start: '2024-03-01', end: '2024-03-13' });
    expect(currentWeek(now)).toEqual({ start: '2024-03-11', end: '2024-03-18' });
    expect(lastDays(now, 14)).toEqual({ start: '2024-02-28', end: '2024-03-13' });
  });

  it('compare with the period of the same length just before', () => {
    expect(previousPeriod(monthToDate(now))).toEqual({ start: '2024-02-18', end: '2024-03-01' });
    expect(previousPeriod(todayPeriod(now))).toEqual({ start: '2024-03-11', end: '2024-03-12' });
    expect(previousPeriod(monthToDate(new Date('2024-03-01T00:00:00.000Z')))).toEqual({ start: '2024-02-29', end: '2024-03-01' });
  });

  it('start the week on Monday, also on a Sunday', () => {
    expect(currentWeek(new Date('2024-03-17T23:59:59.000Z')).start).toBe('2024-03-11');
    expect(currentWeek(new Date('2024-03-18T00:00:00.000Z')).start).toBe('2024-03-18');
  });

  it('list chart buckets oldest first, ending with the current one', () => {
    expect(weekStarts(now, 3)).toEqual(['2024-02-26', '2024-03-04', '2024-03-11']);
    expect(monthKeys(now, 4)).toEqual(['2023-12', '2024-01', '2024-02', '2024-03']);
    expect(dayKeys(now, 2)).toEqual(['2024-03-11', '2024-03-12']);
  });
});

describe('growth and shares', () => {
  it('growth is one decimal; from nothing it has no percentage', () => {
    expect(growthPercentage(7, 3)).toBe(133.3);
    expect(growthPercentage(1, 2)).toBe(-50);
    expect(growthPercentage(0, 0)).toBe(0);
    expect(growthPercentage(4, 0)).toBeNull();
  });

  it('shares are whole percent, 0 of nothing', () => {
    expect(percentOf(2, 3)).toBe(67);
    expect(percentOf(0, 0)).toBe(0);
  });

  it('draw charts over the range, ending on its last day and never after today, within the usual and the most bars', () => {
    const now = new Date('2024-03-12T12:00:00.000Z');
    const day = (d: Date) => d.toISOString().slice(0, 10);
    expect(chartSpan(undefined, now, 'week', 12, 60)).toEqual({ anchor: now, count: 12 });
    // A year to date: every week and month since January, at least the usual number.
    const year = { start: '2024-01-01', end: '2024-03-13' };
    expect(chartSpan(year, now, 'week', 12, 60).count).toBe(12);
    expect(chartSpan({ start: '2023-01-01', end: '2024-03-13' }, now, 'week', 12, 60).count).toBe(60);
    expect(chartSpan({ start: '2023-04-01', end: '2024-03-13' }, now, 'month', 6, 36).count).toBe(12);
    expect(chartSpan(year, now, 'day', 14, 92).count).toBe(72);
    // A past custom range ends on its own last day.
    const january = chartSpan({ start: '2024-01-01', end: '2024-02-01' }, now, 'day', 14, 92);
    expect([day(january.anchor), january.count]).toEqual(['2024-01-31', 31]);
    expect(chartSpan({ start: '2024-01-01', end: '2024-02-01' }, now, 'week', 12, 60)).toMatchObject({ count: 12 });
    // A range reaching past today stops today.
    expect(day(chartSpan({ start: '2024-03-01', end: '2024-04-01' }, now, 'day', 7, 92).anchor)).toBe('2024-03-12');
  });
});
