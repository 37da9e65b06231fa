import { describe, expect, it } from 'vitest';
import { inlined } from './readBatch';

describe('inlined', () => {
  it('writes each parameter as the literal of the text the driver would bind', () => {
    const at = new Date('2026-12-02T06:30:00.000Z');
    const text = inlined('SELECT * FROM t WHERE a = $1 AND b = ANY($2::text[]) AND c >= $3 AND d IS NOT DISTINCT FROM $4 LIMIT $5', [
      'x',
      ['Open', 'In Progress'],
      at,
      null,
      10,
    ]);
    const date = /c >= '([^']+)'/.exec(text ?? '')?.[1];
    expect(text).toBe(
      `SELECT * FROM t WHERE a = 'x' AND b = ANY('{"Open","In Progress"}'::text[]) AND c >= '${date}' AND d IS NOT DISTINCT FROM NULL LIMIT '10'`,
    );
    // The driver writes a date in local time with its offset: the same instant.
    expect(new Date(date!).getTime()).toBe(at.getTime());
  });

  it('escapes quotes and backslashes so a value cannot leave its literal', () => {
    expect(inlined('SELECT $1', ["O'Brien'); DROP TABLE t; --"])).toBe("SELECT 'O''Brien''); DROP TABLE t; --'");
    expect(inlined('SELECT $1', ['a\\b'])).toBe("SELECT  E'a\\\\b'");
  });

  it('leaves quoted text, quoted names and comments as they are, and $10 is not $1', () => {
    const values = Array.from({ length: 10 }, (_, i) => `v${i + 1}`);
    expect(inlined(`SELECT '$1', "$2" -- $3\n, $10, $1`, values)).toBe(`SELECT '$1', "$2" \n, 'v10', 'v1'`);
    expect(inlined(`SELECT 'it''s $1', $1`, ['x'])).toBe(`SELECT 'it''s $1', 'x'`);
  });

  it('refuses what it cannot rewrite safely', () => {
    expect(inlined('SELECT 1; SELECT 2', [])).toBeUndefined();
    expect(inlined('SELECT $$text$$', [])).toBeUndefined();
    expect(inlined("SELECT E'\\''", [])).toBeUndefined();
    expect(inlined('SELECT /* $1 */ 1', ['x'])).toBeUndefined();
    expect(inlined('SELECT $2', ['only one'])).toBeUndefined();
    expect(inlined('SELECT $1', [Buffer.from('bytes')])).toBeUndefined();
    expect(inlined("SELECT 'unterminated", [])).toBeUndefined();
  });
});
