import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { SHARE_EVERY_MS, sharedRateCountStore } from './sharedRateCounts';

/** Two API processes, each with its own store, sharing one Redis. */
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `test-${randomUUID().slice(0, 8)}:api-rate:`;
const stores: Array<ReturnType<typeof sharedRateCountStore>> = [];
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

/** A process's store; `everyMs` long keeps its timer out of the way of a test that shares by hand. */
function apiProcess(everyMs = SHARE_EVERY_MS) {
  const shared = sharedRateCountStore(
    redis,
    prefix,
    (error) => {
      throw error;
    },
    everyMs,
  );
  stores.push(shared);
  return Object.assign(new shared.Store({ timeWindow: 60_000 }), { share: shared.share });
}

const count = (store: ReturnType<typeof apiProcess>, key: string) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) => store.incr(key, (error, result) => (error ? reject(error) : resolve(result)), 60_000));
const settle = () => new Promise((resolve) => setTimeout(resolve, SHARE_EVERY_MS * 2 + 50));

describe('API rate counts shared between processes', () => {
  it('keeps counting what it is sending while Redis has not answered yet', async () => {
    const a = apiProcess(60_000);
    for (let i = 0; i < 3; i++) await count(a, 'key-1');
    const sharing = a.share();
    // The three are on their way to Redis: the fourth request still sees them.
    expect((await count(a, 'key-1')).current).toBe(4);
    await sharing;
    expect((await count(a, 'key-1')).current).toBe(5);
  });

  it('counts locally at once, and learns what the others counted each time it shares its own', async () => {
    const [a, b] = [apiProcess(60_000), apiProcess(60_000)];
    for (let i = 0; i < 30; i++) await count(a, 'user-1');
    for (let i = 0; i < 20; i++) await count(b, 'user-1');
    await a.share();
    await b.share();
    expect((await count(b, 'user-1')).current).toBe(51);
    // a shared before b did: it knows its own 30 so far.
    expect((await count(a, 'user-1')).current).toBe(31);
    // Sharing its one new request, a learns b's 20 (b's latest is still b's own).
    await a.share();
    expect((await count(a, 'user-1')).current).toBe(52);
    await b.share();
    await a.share();
    expect(Number(await redis.get(`${prefix}user-1`))).toBe(53);
  });

  it('shares on its own a few times a second', async () => {
    const [a, b] = [apiProcess(), apiProcess()];
    for (let i = 0; i < 10; i++) await count(a, 'user-4');
    await count(b, 'user-4');
    await settle();
    expect(Number(await redis.get(`${prefix}user-4`))).toBe(11);
    await count(a, 'user-4');
    await settle();
    expect((await count(a, 'user-4')).current).toBe(13);
  });

  it('keeps callers apart and ends the window for every process when Redis says so', async () => {
    const [a, b] = [apiProcess(), apiProcess()];
    await count(a, 'user-2');
    await settle();
    const ttl = await redis.pttl(`${prefix}user-2`);
    expect(ttl).toBeGreaterThan(50_000);
    const seen = await count(b, 'user-2');
    expect(seen.current).toBe(1);
    await settle();
    const learned = await count(b, 'user-2');
    expect(learned.current).toBe(3);
    expect(Math.abs(learned.ttl - ttl)).toBeLessThan(2_000);
    expect((await count(a, 'user-3')).current).toBe(1);
  });
});
