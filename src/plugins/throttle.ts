import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from './errors';

/** A refusal that says how long to wait; the error handler turns `retryAfterSeconds` into `Retry-After`. */
export function tooManyRequests(message: (seconds: number) => string, msBeforeNext: number): HttpError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new HttpError(429, 'RATE_LIMITED', message(seconds), { retryAfterSeconds: seconds });
}

/**
 * A count kept in Redis, so every API process shares it; while Redis is unreachable (the client fails
 * fast: see connectRedis) each process counts in its own memory instead, so sign-in and registration
 * keep working, each process enforcing the limit on what it sees itself.
 */
function sharedLimiter(redis: Redis, keyPrefix: string, points: number, duration: number): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
  });
}

/** A fixed number of attempts per key and window (per client address, for example). */
export class AttemptLimit {
  private readonly limiter: RateLimiterRedis;

  constructor(
    redis: Redis,
    keyPrefix: string,
    points: number,
    durationSeconds: number,
    private readonly message: (seconds: number) => string,
  ) {
    this.limiter = sharedLimiter(redis, keyPrefix, points, durationSeconds);
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
    this.failures = sharedLimiter(redis, `${keyPrefix}:failures`, Number.MAX_SAFE_INTEGER, windowSeconds);
    this.blocks = sharedLimiter(redis, `${keyPrefix}:blocked`, 1, windowSeconds);
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
