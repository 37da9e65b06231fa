/**
 * The time periods dashboard figures are counted over, in whole UTC days. A period is
 * [start, end) with `end` the day after today, so "this month" is the month so far, today included.
 * Growth compares a period with the one of the same number of days just before it.
 */

export interface Period {
  /** First day, `YYYY-MM-DD`. */
  readonly start: string;
  /** The day after the last day, `YYYY-MM-DD`. */
  readonly end: string;
}

const DAY_MS = 86_400_000;

export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);
const utcDay = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
const addDays = (day: Date, days: number) => new Date(day.getTime() + days * DAY_MS);

/** Today. */
export function todayPeriod(now: Date): Period {
  const today = utcDay(now);
  return { start: isoDay(today), end: isoDay(addDays(today, 1)) };
}

/** The calendar month so far. */
export function monthToDate(now: Date): Period {
  return { start: isoDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))), end: todayPeriod(now).end };
}

/** The current week, Monday to Sunday (the whole week, for what falls due in it). */
export function currentWeek(now: Date): Period {
  const today = utcDay(now);
  const monday = addDays(today, -((today.getUTCDay() + 6) % 7));
  return { start: isoDay(monday), end: isoDay(addDays(monday, 7)) };
}

/** The last `days` days, today included. */
export function lastDays(now: Date, days: number): Period {
  const end = addDays(utcDay(now), 1);
  return { start: isoDay(addDays(end, -days)), end: isoDay(end) };
}

export const lengthInDays = (period: Period) => Math.round((Date.parse(period.end) - Date.parse(period.start)) / DAY_MS);

/** The period of the same length just before. */
export function previousPeriod(period: Period): Period {
  const start = new Date(Date.parse(period.start));
  return { start: isoDay(addDays(start, -lengthInDays(period))), end: period.start };
}

/**
 * Change from `previous` to `current` in percent, one decimal. Null when there was nothing before:
 * growth from zero has no percentage, and showing 100% or 0% would be made up.
 */
export function growthPercentage(current: number, previous: number): number | null {
  if (previous === 0) return current === 0 ? 0 : null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

/** `part` of `whole` in whole percent; 0 when the whole is empty. */
export const percentOf = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((part / whole) * 100));

/** The Mondays of the last `count` weeks, oldest first, the current week last. */
export function weekStarts(now: Date, count: number): string[] {
  const monday = new Date(Date.parse(currentWeek(now).start));
  return Array.from({ length: count }, (_, i) => isoDay(addDays(monday, -7 * (count - 1 - i))));
}

/** The last `count` months as `YYYY-MM`, oldest first, the current month last. */
export function monthKeys(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (count - 1 - i), 1));
    return isoDay(month).slice(0, 7);
  });
}

/** The last `count` days, oldest first, today last. */
export function dayKeys(now: Date, count: number): string[] {
  const today = utcDay(now);
  return Array.from({ length: count }, (_, i) => isoDay(addDays(today, -(count - 1 - i))));
}

export type ChartUnit = 'day' | 'week' | 'month';

/** Where a dashboard chart ends and how many bars it draws. */
export interface ChartSpan {
  /** A moment on the last day shown. */
  readonly anchor: Date;
  readonly count: number;
}

/**
 * How a chart follows the dashboard's range: it ends on the range's last day (never after today) and spans
 * the whole range, with never fewer bars than it usually draws (a week's range still shows a trend) nor more
 * than `most` (a year of days would not be legible). Without a range: its usual bars up to today.
 */
export function chartSpan(range: Period | undefined, now: Date, unit: ChartUnit, usual: number, most: number): ChartSpan {
  if (!range) return { anchor: now, count: usual };
  const lastDay = Math.min(Date.parse(range.end) - DAY_MS, utcDay(now).getTime());
  const anchor = new Date(lastDay);
  const first = new Date(Date.parse(range.start));
  const spanned =
    unit === 'day'
      ? Math.round((lastDay - first.getTime()) / DAY_MS) + 1
      : unit === 'week'
        ? Math.round((Date.parse(currentWeek(anchor).start) - Date.parse(currentWeek(first).start)) / (7 * DAY_MS)) + 1
        : (anchor.getUTCFullYear() - first.getUTCFullYear()) * 12 + anchor.getUTCMonth() - first.getUTCMonth() + 1;
  return { anchor, count: Math.min(most, Math.max(usual, spanned)) };
}
