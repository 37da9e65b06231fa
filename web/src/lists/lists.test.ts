import { describe, expect, it } from 'vitest';
import { csvRows, csvSafe } from './csvExport';
import { nextSort } from './listControls';
import { exactTime, relativeTime } from './relativeTime';

const now = new Date('2026-03-10T12:00:00Z');

describe('relativeTime', () => {
  it('says how long ago, in the largest whole unit', () => {
    expect(relativeTime('2026-03-10T11:59:30Z', now)).toBe('just now');
    expect(relativeTime('2026-03-10T11:55:00Z', now)).toBe('5 minutes ago');
    expect(relativeTime('2026-03-10T09:00:00Z', now)).toBe('3 hours ago');
    expect(relativeTime('2026-03-09T12:00:00Z', now)).toBe('yesterday');
    expect(relativeTime('2026-02-20T12:00:00Z', now)).toBe('2 weeks ago');
    expect(relativeTime('2025-09-10T12:00:00Z', now)).toBe('6 months ago');
    expect(relativeTime('2026-03-12T12:00:00Z', now)).toBe('in 2 days');
  });

  it('gives nothing for a missing or unreadable date', () => {
    expect(relativeTime(null, now)).toBeNull();
    expect(relativeTime('not a date', now)).toBeNull();
    expect(exactTime(undefined)).toBeNull();
  });

  it('gives the exact moment with its time zone for the hover text', () => {
    expect(exactTime('2026-03-04T14:05:00Z')).toMatch(/^Mar \d, 2026, \d{1,2}:05 [AP]M \S+/);
  });
});

describe('CSV export', () => {
  it('writes one key per column heading, in column order', () => {
    const rows = csvRows(
      [{ id: '1', name: 'Ada', total: 12.5 }],
      [
        { label: 'Name', value: (r) => r.name },
        { label: 'Total', value: (r) => r.total },
      ],
    );
    expect(rows).toEqual([{ Name: 'Ada', Total: 12.5 }]);
    expect(Object.keys(rows[0]!)).toEqual(['Name', 'Total']);
  });

  it('keeps text that a spreadsheet would run as a formula as text', () => {
    expect(csvSafe('=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`);
    expect(csvSafe('@SUM(A1)')).toBe(`'@SUM(A1)`);
    expect(csvSafe(-5)).toBe(-5);
    expect(csvSafe(null)).toBe('');
    expect(csvSafe('Acme')).toBe('Acme');
  });
});

describe('nextSort', () => {
  it('reverses the sorted column and starts a new one in its first order', () => {
    expect(nextSort({ field: 'name', order: 'ASC' }, 'name')).toEqual({ field: 'name', order: 'DESC' });
    expect(nextSort({ field: 'name', order: 'ASC' }, 'created_at', 'DESC')).toEqual({ field: 'created_at', order: 'DESC' });
  });
});
