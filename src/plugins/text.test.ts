import { describe, expect, it } from 'vitest';
import { nestedDeeperThan } from './jsonBody';
import { firstUnstorableText } from '../../domain/storableText';

const deepArray = (depth: number, inner: unknown) => {
  let value = inner;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

describe('firstUnstorableText', () => {
  it('names the first offending string, keys before their values, in document order', () => {
    expect(firstUnstorableText({ a: 'ok', items: [{ name: 'fine' }, { name: 'x\u0000y' }] })).toBe('items.1.name');
    expect(firstUnstorableText({ ['bad\uD800']: 'x\u0000' })).toBe('bad\uD800');
    expect(firstUnstorableText('\uDC00')).toBe('value');
    expect(firstUnstorableText({ a: ['\uD83D\uDE00'] })).toBeUndefined();
  });

  it('walks a value nested 100,000 deep without overflowing, in linear time', () => {
    const started = performance.now();
    expect(firstUnstorableText(deepArray(100_000, 'x\u0000'))).toBe(Array.from({ length: 100_000 }, () => '0').join('.'));
    expect(firstUnstorableText(deepArray(100_000, 'fine'))).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('nestedDeeperThan', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(nestedDeeperThan('[[[]]]', 3)).toBe(false);
    expect(nestedDeeperThan('[[[[]]]]', 3)).toBe(true);
    expect(nestedDeeperThan('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(nestedDeeperThan('{"a":{"b":[{}]}}', 3)).toBe(true);
    expect(nestedDeeperThan(JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[[\\"' }), 1)).toBe(false);
    expect(nestedDeeperThan('["\\\\", [[]]]', 2)).toBe(true);
  });
});
