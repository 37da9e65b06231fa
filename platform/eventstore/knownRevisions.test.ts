import { describe, expect, it } from 'vitest';
import { KnownRevisions } from './knownRevisions';

describe('KnownRevisions', () => {
  it('knows a told revision and every one below it, not the ones above', () => {
    const known = new KnownRevisions();
    known.tell('orders-1', 3n);
    expect(known.holds('orders-1', 0n)).toBe(true);
    expect(known.holds('orders-1', 3n)).toBe(true);
    expect(known.holds('orders-1', 4n)).toBe(false);
    expect(known.holds('orders-2', 0n)).toBe(false);
  });

  it('never moves a head back when an older read is told after a newer append', () => {
    const known = new KnownRevisions();
    known.tell('orders-1', 5n);
    known.tell('orders-1', 2n);
    expect(known.holds('orders-1', 5n)).toBe(true);
  });

  it('forgets the least recently told stream beyond its capacity', () => {
    const known = new KnownRevisions(2);
    known.tell('a', 0n);
    known.tell('b', 0n);
    known.tell('a', 1n);
    known.tell('c', 0n);
    expect(known.holds('b', 0n)).toBe(false);
    expect(known.holds('a', 1n)).toBe(true);
    expect(known.holds('c', 0n)).toBe(true);
  });
});
