import { describe, expect, it } from 'vitest';
import { PrincipalCache } from './principalCache';

const channel = {
  up: true,
  alive() {
    return this.up;
  },
};
const entry = (userId: string, parentUserId: string | null = null) => ({ row: { userId }, userId, parentUserId, sessionExpiresAt: Date.now() + 60_000 });

describe('PrincipalCache', () => {
  it('serves what it stored until the account or its organisation owner changes', () => {
    const cache = new PrincipalCache<{ userId: string }>(channel, 30_000);
    cache.store('a:1', entry('a'), cache.begin());
    cache.store('m:2', entry('m', 'a'), cache.begin());
    cache.store('x:3', entry('x'), cache.begin());
    expect(cache.lookup('a:1')).toEqual({ userId: 'a' });
    cache.forgetUser('a');
    expect(cache.lookup('a:1')).toBeUndefined();
    expect(cache.lookup('m:2')).toBeUndefined();
    expect(cache.lookup('x:3')).toEqual({ userId: 'x' });
  });

  it('does not store a read that started before an invalidation', () => {
    const cache = new PrincipalCache<{ userId: string }>(channel, 30_000);
    const generation = cache.begin();
    cache.forgetUser('someone else');
    cache.store('a:1', entry('a'), generation);
    expect(cache.lookup('a:1')).toBeUndefined();
  });

  it('serves nothing while the invalidation channel is not known to be alive, and nothing past the session expiry or its age', () => {
    const cache = new PrincipalCache<{ userId: string }>(channel, 30_000);
    cache.store('a:1', entry('a'), cache.begin());
    channel.up = false;
    expect(cache.lookup('a:1')).toBeUndefined();
    cache.store('a:1', entry('a'), cache.begin());
    channel.up = true;
    expect(cache.lookup('a:1')).toBeUndefined();
    cache.store('b:1', { ...entry('b'), sessionExpiresAt: Date.now() + 1000 }, cache.begin());
    expect(cache.lookup('b:1', Date.now() + 1001)).toBeUndefined();
    cache.store('c:1', entry('c'), cache.begin());
    expect(cache.lookup('c:1', Date.now() + 30_001)).toBeUndefined();
    expect(new PrincipalCache(channel, 0).enabled).toBe(false);
  });
});
