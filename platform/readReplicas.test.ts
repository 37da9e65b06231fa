import { describe, expect, it } from 'vitest';
import { parseLsn } from './readReplicas';

describe('WAL positions', () => {
  it('compare by both halves as numbers, not as text', () => {
    // As text, '0/FFFFFFFF' sorts after '1/0' and '0/9' after '0/10'.
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
    expect(parseLsn('0/10') > parseLsn('0/9')).toBe(true);
    expect(parseLsn('A/0') > parseLsn('9/FFFFFFFF')).toBe(true);
    expect(parseLsn('16/B374D848')).toBe(0x16b374d848n);
    expect(parseLsn('0/3000060')).toBe(parseLsn('0/03000060'));
  });

  it('reach beyond 2^53 without losing precision', () => {
    expect(parseLsn('FFFFFFFF/FFFFFFFF')).toBe(2n ** 64n - 1n);
    expect(parseLsn('FFFFFFFF/FFFFFFFF') > parseLsn('FFFFFFFF/FFFFFFFE')).toBe(true);
  });

  it('refuse what is not a WAL position', () => {
    for (const bad of ['', '0', '0/', '/0', '0/0/0', 'G/0', '123456789/0', ' 0/0']) expect(() => parseLsn(bad)).toThrow(/Not a WAL position/);
  });
});
