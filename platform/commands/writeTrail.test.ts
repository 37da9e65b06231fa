import { describe, expect, it } from 'vitest';
import { WriteTrail } from './dispatch';

const at = (n: number) => ({ commit: BigInt(n), prepare: BigInt(n) });

describe('WriteTrail', () => {
  it('is caught up with no writes, and while every write was seen by a later or equal wait', () => {
    const trail = new WriteTrail();
    expect(trail.caughtUp).toBe(true);
    trail.note(at(5), true);
    expect(trail.caughtUp).toBe(true);
    trail.note(at(7), false);
    expect(trail.caughtUp).toBe(false);
    expect(trail.position).toEqual(at(7));
    // A later write whose wait succeeded shows the earlier ones too.
    trail.note(at(9), true);
    expect(trail.caughtUp).toBe(true);
    trail.note(at(8), false);
    expect(trail.caughtUp).toBe(true);
  });
});
