import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as contractSerializer } from 'fastify-type-provider-zod';
import { z } from 'zod';

type SerializerCompiler = Parameters<typeof contractSerializer>[0];
type JsonSchema = { type?: unknown; properties?: unknown; anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; [key: string]: unknown };

/**
 * A union of two object shapes cannot be told apart by fast-json-stringify without validating each
 * branch, and the first branch that fits would drop the other's fields: such answers keep the
 * contract's own serializer.
 */
function hasObjectUnion(schema: unknown): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const node = schema as JsonSchema;
  for (const branches of [node.anyOf, node.oneOf]) {
    if (branches && branches.filter((b) => b.type === 'object' || b.properties !== undefined).length > 1) return true;
  }
  return Object.values(node).some((value) => (Array.isArray(value) ? value.some(hasObjectUnion) : hasObjectUnion(value)));
}

/**
 * Writes each route's answers with fast-json-stringify, compiled once from the route's zod contract,
 * instead of checking every answer against the contract and then calling JSON.stringify: the contract
 * decides which fields an answer carries, without a zod parse per request. Answers whose contract
 * cannot be written that way (a union of object shapes, a type JSON Schema cannot express) keep the
 * contract's serializer.
 *
 * With `checkAnswers` (tests), every answer is also put through the contract's serializer and the
 * two results must be the same JSON: a handler that strays from its contract, or an answer the fast
 * writer would render differently, fails the test that caused it.
 */
export function answerSerializer(checkAnswers: boolean) {
  return (routeSchema: SerializerCompiler): ((data: unknown) => string) => {
    const checked = contractSerializer(routeSchema) as (data: unknown) => string;
    let fast: (data: unknown) => string;
    try {
      // The answer is the contract's input side: what zod's encode would produce from the handler's value.
      const json = z.toJSONSchema(routeSchema.schema as z.ZodType, { io: 'input', target: 'draft-7', unrepresentable: 'throw', reused: 'inline' });
      if (hasObjectUnion(json)) return checked;
      fast = fastJson(json as Parameters<typeof fastJson>[0]);
    } catch {
      return checked;
    }
    if (!checkAnswers) return fast;
    return (data) => {
      const expected = checked(data);
      const written = fast(data);
      if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
        throw new Error(`${routeSchema.method} ${routeSchema.url}: the fast answer writer differs from the contract: ${written.slice(0, 300)} versus ${expected.slice(0, 300)}`);
      }
      return written;
    };
  };
}
