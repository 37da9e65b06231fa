import type { Redis } from 'ioredis';

/** How often each process adds its new requests to the shared counts and learns the others'. */
export const SHARE_EVERY_MS = 200;

interface Count {
  /** When the window ends: it starts with the caller's first request, and Redis tells every process the same end. */
  endsAt: number;
  /** Requests of the window already added to the shared count, with everyone else's. */
  shared: number;
  /** Requests of the window being added right now (sent to Redis, its answer not back yet). */
  sending: number;
  /** Requests of the window not added yet. */
  pending: number;
}

type Callback = (error: Error | null, result: { current: number; ttl: number }) => void;

/**
 * A store for @fastify/rate-limit whose counts every API process shares through Redis without a round
 * trip per request: a process counts locally and, every SHARE_EVERY_MS, adds what it counted to the
 * caller's key in one pipeline and learns the total and when the window ends. A process does not know
 * what the others accepted since they last shared, so a caller gets at most the limit plus what all the
 * processes together accepted for it in two sharing intervals and a Redis round trip (docs/api.md,
 * measured by rateLimitAcrossProcesses.int.test.ts); a request never waits for Redis, and while Redis is
 * away each process still enforces the limit on what it saw itself.
 */
export function sharedRateCountStore(redis: Redis, prefix: string, log: (error: Error) => void, everyMs = SHARE_EVERY_MS) {
  const counts = new Map<string, Count>();
  let windowMs = 60_000;
  let sharing: Promise<void> | undefined;

  async function share(): Promise<void> {
    const now = Date.now();
    const due: Array<[Count, number]> = [];
    const pipeline = redis.pipeline();
    for (const [key, count] of counts) {
      if (count.endsAt <= now) {
        counts.delete(key);
        continue;
      }
      if (count.pending === 0) continue;
      pipeline.incrby(`${prefix}${key}`, count.pending).pexpire(`${prefix}${key}`, windowMs, 'NX').pttl(`${prefix}${key}`);
      due.push([count, count.pending]);
      // Still counted while Redis answers: a request meanwhile must see them, or it would slip past the limit.
      count.sending += count.pending;
      count.pending = 0;
    }
    if (due.length === 0) return;
    try {
      const answers = (await pipeline.exec()) ?? [];
      const learnedAt = Date.now();
      due.forEach(([count, added], i) => {
        const [error, total] = answers[i * 3] ?? [];
        const ttl = answers[i * 3 + 2]?.[1];
        // Requests that arrived meanwhile stay pending for the next round.
        count.sending -= added;
        count.shared = error || typeof total !== 'number' ? count.shared + added : Math.max(count.shared + added, total);
        if (typeof ttl === 'number' && ttl > 0) count.endsAt = learnedAt + ttl;
      });
    } catch (error) {
      for (const [count, added] of due) {
        count.sending -= added;
        count.shared += added;
      }
      log(error as Error);
    }
  }

  const timer = setInterval(() => {
    void (sharing ??= share().finally(() => (sharing = undefined)));
  }, everyMs);
  timer.unref();

  /** The class @fastify/rate-limit instantiates; every instance counts in the one map above. */
  class SharedRateCountStore {
    constructor(params: { timeWindow?: number }) {
      if (typeof params.timeWindow === 'number') windowMs = params.timeWindow;
    }

    incr(key: string, callback: Callback, timeWindow: number = windowMs): void {
      const now = Date.now();
      let count = counts.get(key);
      if (!count || count.endsAt <= now) {
        count = { endsAt: now + timeWindow, shared: 0, sending: 0, pending: 0 };
        counts.set(key, count);
      }
      count.pending += 1;
      callback(null, { current: count.shared + count.sending + count.pending, ttl: count.endsAt - now });
    }

    read(key: string, callback: Callback, timeWindow: number = windowMs): void {
      const now = Date.now();
      const count = counts.get(key);
      const live = count && count.endsAt > now;
      callback(null, { current: live ? count.shared + count.sending + count.pending : 0, ttl: live ? count.endsAt - now : timeWindow });
    }

    child(): SharedRateCountStore {
      return this;
    }
  }

  return {
    Store: SharedRateCountStore,
    /** Adds what this process counted to the shared counts and learns the totals (the timer does this on its own). */
    share: () => (sharing ??= share().finally(() => (sharing = undefined))),
    /** Shares what is pending and stops the timer (the portal is closing). */
    async close(): Promise<void> {
      clearInterval(timer);
      await sharing;
      await share();
    },
  };
}
