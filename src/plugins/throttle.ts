import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from './errors';

/** A refusal that says how long to wait; the error handler turns `retryAfterSeconds` into `Retry-After`. */
export function tooManyRequests(message: (seconds: number) => string, msBeforeNext: number): HttpError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new HttpError(429, 'RATE_LIMITED', message(seconds), { retryAfterSeconds: seconds });
}

/** A fixed number of attempts per key and window (per client address, for example). */
export class AttemptLimit {
  private readonly limiter: RateLimiterRedis;

  constructor(redis: Redis, keyPrefix: string, points: number, durationSeconds: number, private readonly message: (seconds: number) => string) {
    this.limiter = new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: durationSeconds });
  }

  /** Counts one attempt, or refuses it with 429 when the key has used its attempts. */
  async consume(key: string): Promise<void> {
    await this.limiter.consume(key).catch((res: unknown) => {
      if (res instanceof RateLimiterRes) throw tooManyRequests(this.message, res.msBeforeNext);
      throw res;
    });
  }
}

/**
 * Slows down whoever keeps failing (a wrong password from one address for one account), never the
 * account's owner elsewhere: after `freeFailures` failures of a key within the window, each further
 * failure blocks that key for twice as long as the one before (1 s, 2 s, 4 s, …, at most the window).
 * A success forgets the key's failures.
 */
export class FailureThrottle {
  private readonly failures: RateLimiterRedis;
  private readonly blocks: RateLimiterRedis;

  constructor(
    redis: Redis,
    keyPrefix: string,
    private readonly freeFailures: number,
    private readonly windowSeconds: number,
    private readonly message: (seconds: number) => string,
  ) {
    this.failures = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${keyPrefix}:failures`, points: Number.MAX_SAFE_INTEGER, duration: windowSeconds });
    this.blocks = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${keyPrefix}:blocked`, points: 1, duration: windowSeconds });
  }

  /** Refuses with 429 while the key is blocked. */
  async check(key: string): Promise<void> {
    const blocked = await this.blocks.get(key);
    if (blocked && blocked.consumedPoints > 1 && blocked.msBeforeNext > 0) throw tooManyRequests(this.message, blocked.msBeforeNext);
  }

  async fail(key: string): Promise<void> {
    const { consumedPoints } = await this.failures.penalty(key, 1);
    const beyond = consumedPoints - this.freeFailures;
    if (beyond > 0) await this.blocks.block(key, Math.min(2 ** (beyond - 1), this.windowSeconds));
  }

  async succeed(key: string): Promise<void> {
    await Promise.all([this.failures.delete(key), this.blocks.delete(key)]);
  }
}
