import { createHash } from 'node:crypto';
import type { CommandMetadata } from '../../domain/decider';
import type { Services } from '../../platform/services';

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The demo world's calendar. With `DEMO_HISTORY_DAYS` above zero the world began that many days ago
 * (plus a fortnight of setting up: accounts and the catalogue), organisations joined along the way and
 * the history seeders fill the months in between; with zero (the test portals) everything happens now.
 */
export interface DemoCalendar {
  /** Days of history before the recent demo records. */
  readonly historyDays: number;
  /** The metadata of a moment `days` days ago, at `hour` o'clock UTC (clamped to now). */
  at(days: number, hour?: number): CommandMetadata;
  /** When the accounts and the catalogue were set up. */
  founded(): CommandMetadata;
}

export function demoCalendar(services: Pick<Services, 'config'>, metadata: CommandMetadata): DemoCalendar {
  const now = Date.parse(metadata.now);
  const historyDays = services.config.DEMO_HISTORY_DAYS;
  const startOfToday = now - (now % DAY_MS);
  const at = (days: number, hour = 10) => ({ ...metadata, now: new Date(Math.min(startOfToday - days * DAY_MS + hour * 60 * 60 * 1000, now)).toISOString() });
  return {
    historyDays,
    at,
    founded: () => (historyDays > 0 ? at(historyDays + 14, 9) : metadata),
  };
}

/** A reproducible pseudo-random sequence per key, so seeding twice makes the same world. */
export function randomFor(key: string): () => number {
  let state = createHash('sha256').update(key).digest().readUInt32LE(0);
  return () => {
    // mulberry32
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];
export const between = (random: () => number, low: number, high: number) => low + Math.floor(random() * (high - low + 1));
