import { describe, expect, it } from 'vitest';
import type { GlobalPosition } from '../../platform/eventstore';
import { AnswerCache, type ReadModelProgress } from './answerCache';

/** Read-model progress driven by the test: `advance` is what a projector's NOTIFY does. */
function progress(): ReadModelProgress & { advance(): void; live: boolean; position: GlobalPosition } {
  let commit = 1n;
  return {
    live: true,
    position: { commit, prepare: commit } as GlobalPosition,
    alive() {
      return this.live;
    },
    advance() {
      commit++;
      this.position = { commit, prepare: commit };
    },
  };
}

const answer = (body: string) => ({ status: 200, body, headers: [] as Array<[string, string]> });

describe('AnswerCache', () => {
  it('serves an answer until the read models move on', () => {
    const read = progress();
    const cache = new AnswerCache(read, 10);
    cache.store('a', answer('one'), cache.begin());
    expect(cache.lookup('a')?.body).toBe('one');
    read.advance();
    expect(cache.lookup('a')).toBeUndefined();
  });

  it('does not file an answer read before a move under the new position', () => {
    const read = progress();
    const cache = new AnswerCache(read, 10);
    const readAt = cache.begin();
    read.advance();
    cache.store('a', answer('old'), readAt);
    expect(cache.lookup('a')).toBeUndefined();
  });

  it('serves nothing while the NOTIFY connection is not known to be alive', () => {
    const read = progress();
    const cache = new AnswerCache(read, 10);
    cache.store('a', answer('one'), cache.begin());
    read.live = false;
    expect(cache.lookup('a')).toBeUndefined();
    expect(cache.begin()).toBeUndefined();
  });

  it('keeps nothing when turned off, and at most its bound', () => {
    const read = progress();
    const off = new AnswerCache(read, 0);
    off.store('a', answer('one'), off.begin());
    expect(off.lookup('a')).toBeUndefined();
    const small = new AnswerCache(read, 2);
    for (const key of ['a', 'b', 'c']) small.store(key, answer(key), small.begin());
    expect(['a', 'b', 'c'].filter((key) => small.lookup(key))).toEqual(['c']);
  });

  it('holds at most 16 M characters of answers in all', () => {
    const cache = new AnswerCache(progress(), 1000);
    const body = 'x'.repeat(250 * 1024);
    for (let i = 0; i < 100; i++) cache.store(`k${i}`, answer(body), cache.begin());
    const kept = Array.from({ length: 100 }, (_, i) => cache.lookup(`k${i}`)).filter(Boolean).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept * body.length).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(cache.size).toBe(kept * body.length);
    cache.store('k99', answer(body), cache.begin());
    expect(cache.size).toBe(kept * body.length);
  });

  it('does not keep very large answers', () => {
    const cache = new AnswerCache(progress(), 10);
    cache.store('big', answer('x'.repeat(300 * 1024)), cache.begin());
    expect(cache.lookup('big')).toBeUndefined();
  });
});
