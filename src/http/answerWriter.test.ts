import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listAnswer, recordAnswer, asOfRecordAnswer } from '../../contracts/answers';
import { answerWriter, isPickable } from './answerWriter';

const row = z.object({
  id: z.string(),
  name: z.string(),
  price: z.number().nullable(),
  tags: z.array(z.string()),
  owner: z.object({ id: z.string(), company_name: z.string().nullable() }),
  note: z.string().optional(),
});
const list = listAnswer('products', row);

const writerOf = (schema: z.ZodType, checkAnswers = false) => answerWriter(checkAnswers)({ schema, method: 'GET', url: '/test', httpStatus: '200' });

const stored = {
  id: 'p-1',
  name: 'Switch',
  price: 12.5,
  tags: ['a'],
  owner: { id: 'o-1', company_name: 'Northwind', internal_rating: 3 },
  internal_note: 'not for partners',
};

describe('answers written by their contract', () => {
  it('leaves out every field the contract does not name, at every depth', () => {
    const written = JSON.parse(writerOf(list)([stored]));
    expect(written).toEqual([{ id: 'p-1', name: 'Switch', price: 12.5, tags: ['a'], owner: { id: 'o-1', company_name: 'Northwind' } }]);
  });

  it("writes the specification's envelope and react-admin's array from the same union", () => {
    const envelope = { success: true, data: { products: [stored], total: 1, page: 1, limit: 10, totalPages: 1, debug: 'x' }, extra: 1 };
    expect(JSON.parse(writerOf(list)(envelope))).toEqual({
      success: true,
      data: {
        products: [{ id: 'p-1', name: 'Switch', price: 12.5, tags: ['a'], owner: { id: 'o-1', company_name: 'Northwind' } }],
        total: 1,
        page: 1,
        limit: 10,
        totalPages: 1,
      },
    });
  });

  it('keeps the unnamed fields of an open (loose) object and writes nulls and leaves as they are', () => {
    const open = z.object({ as_of: z.string(), inner: z.object({ a: z.number() }) }).loose();
    expect(JSON.parse(writerOf(open)({ as_of: 't', inner: { a: 1, b: 2 }, other: { deep: true }, none: null }))).toEqual({
      as_of: 't',
      inner: { a: 1 },
      other: { deep: true },
      none: null,
    });
  });

  it('writes exactly what zod would, checked on every answer in tests', () => {
    const checked = writerOf(list, true);
    expect(JSON.parse(checked([stored]))).toEqual(JSON.parse(writerOf(list)([stored])));
    // A handler that strays from its contract still fails where it did when zod wrote every answer.
    expect(() => checked([{ ...stored, price: 'twelve' }])).toThrow();
    const strict = z.object({ id: z.string() }).strict();
    expect(writerOf(strict)({ id: 'a', extra: 1 })).toBe('{"id":"a"}');
    expect(() => writerOf(strict, true)({ id: 'a', extra: 1 })).toThrow();
  });

  it("tells a record's answer from its as-of answer by the fields each requires, and leaves it to zod when both fit", () => {
    const record = z.union([recordAnswer(row), asOfRecordAnswer]);
    expect(isPickable(record)).toBe(true);
    const ordinary = { success: true as const, ...stored, data: stored };
    const written = JSON.parse(writerOf(record, true)(ordinary));
    expect(written.internal_note).toBeUndefined();
    expect(written.data).toEqual({ id: 'p-1', name: 'Switch', price: 12.5, tags: ['a'], owner: { id: 'o-1', company_name: 'Northwind' } });
    // An as-of answer with none of the record's own fields fits the as-of shape only, which keeps every field.
    const folded = { as_of: 't', version: 3, version_time: 't', name: 'Switch' };
    const asOf = { success: true as const, ...folded, data: folded };
    expect(JSON.parse(writerOf(record, true)(asOf))).toEqual(asOf);
    // One that carries the record's fields as well fits both shapes: zod's encode of the union writes it, as it always did.
    const both = { ...ordinary, as_of: 't', version: 3, version_time: 't', data: { ...stored, as_of: 't', version: 3, version_time: 't' } };
    expect(writerOf(record)(both)).toBe(JSON.stringify(z.encode(record, both)));
  });

  it("keeps zod's serializer where a pick cannot follow the contract", () => {
    expect(isPickable(list)).toBe(true);
    expect(isPickable(z.object({ at: z.string().transform((s) => s.length) }))).toBe(false);
    expect(isPickable(z.union([z.array(z.string()), z.array(z.number())]))).toBe(false);
    expect(isPickable(z.union([z.record(z.string(), z.string()), z.object({ a: z.string() })]))).toBe(false);
  });
});
