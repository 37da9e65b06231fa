import { isDeepStrictEqual } from 'node:util';
import { serializerCompiler as contractSerializer } from 'fastify-type-provider-zod';
import { z } from 'zod';

type RouteSchema = Parameters<typeof contractSerializer>[0];
/** Copies of a value with only the fields its contract names. */
type Pick = (value: unknown) => unknown;

const asIs: Pick = (value) => value;

/** The zod definition fields a pick reads; zod 4 keeps them on `_zod.def`. */
interface Definition {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  valueType?: z.ZodType;
}
const definitionOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Definition } })._zod.def;

/** Answers a schema cannot be picked by (a transform, a default, two array shapes in one union…) keep the contract's serializer. */
class NotPickable extends Error {}

/**
 * A function that copies a value keeping what the schema names, recursively: the fields of each object
 * (all of them where the contract lets unknown fields through), each element of an array, each value of
 * a record. Leaves are passed on as they are.
 */
function pickerOf(schema: z.ZodType): Pick {
  const def = definitionOf(schema);
  switch (def.type) {
    case 'string':
    case 'number':
    case 'int':
    case 'boolean':
    case 'null':
    case 'literal':
    case 'enum':
    case 'template_literal':
    case 'unknown':
    case 'any':
      return asIs;
    case 'nullable':
    case 'optional':
    case 'readonly':
    case 'nonoptional': {
      const inner = pickerOf(def.innerType!);
      return inner === asIs ? asIs : (value) => (value == null ? value : inner(value));
    }
    case 'array': {
      const element = pickerOf(def.element!);
      return (value) => (Array.isArray(value) ? (element === asIs ? value : value.map(element)) : value);
    }
    case 'record': {
      const item = pickerOf(def.valueType!);
      if (item === asIs) return asIs;
      return (value) => (isObject(value) ? Object.fromEntries(Object.entries(value).map(([key, v]) => [key, item(v)])) : value);
    }
    case 'object':
      return objectPicker(def);
    case 'union':
      return unionPicker(schema, def.options!);
    default:
      throw new NotPickable(def.type);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function objectPicker(def: Definition): Pick {
  const fields = Object.entries(def.shape!).map(([key, field]) => [key, pickerOf(field)] as const);
  const catchall = def.catchall ? definitionOf(def.catchall).type : undefined;
  // `.loose()` keeps fields the contract does not name. `.strict()` refuses them: the pick leaves them
  // out, and in tests zod's serializer, which runs beside it, fails the answer as it always did.
  if (catchall !== undefined && !['unknown', 'any', 'never'].includes(catchall)) throw new NotPickable(`object catchall ${catchall}`);
  const keepsOthers = catchall === 'unknown' || catchall === 'any';
  return (value) => {
    if (!isObject(value)) return value;
    const copy: Record<string, unknown> = keepsOthers ? { ...value } : {};
    for (const [key, pick] of fields) {
      const field = value[key];
      if (field !== undefined) copy[key] = pick(field);
    }
    return copy;
  };
}

/** A schema's definition under its nullable, optional and readonly wrappers. */
function unwrapped(schema: z.ZodType): Definition {
  let def = definitionOf(schema);
  while (def.innerType && ['nullable', 'optional', 'readonly', 'nonoptional'].includes(def.type)) def = definitionOf(def.innerType);
  return def;
}

/** The fields a value must carry to fit an object shape: named, and not allowed to be left out. */
const ABSENT_ALLOWED = new Set(['optional', 'unknown', 'any', 'undefined', 'void', 'default', 'prefault', 'catch', 'never']);
const requiredFieldsOf = (def: Definition) =>
  Object.entries(def.shape ?? {})
    .filter(([, field]) => !ABSENT_ALLOWED.has(definitionOf(field).type))
    .map(([key]) => key);

/**
 * Object shapes of a union, told apart as zod would: zod writes a value by the first shape it fits, and a
 * value can only fit a shape whose required fields it carries. When exactly one shape's required fields are
 * all there (a record's answer carries its own fields, not `as_of`), that shape picks; when several are
 * (an as-of answer may carry every field of the record too) or none, zod's encode of the union decides.
 */
function objectUnionPicker(union: z.ZodType, objects: z.ZodType[]): Pick {
  const shapes = objects.map((option) => ({ required: requiredFieldsOf(unwrapped(option)), pick: pickerOf(option) }));
  return (value) => {
    const fitting = shapes.filter((shape) => shape.required.every((key) => (value as Record<string, unknown>)[key] !== undefined));
    return fitting.length === 1 ? fitting[0].pick(value) : z.encode(union, value);
  };
}

/**
 * A union whose branches differ in kind (an array, an object, leaves) picks by the value's kind; object
 * shapes are told apart by their required fields. Two array shapes, or a record beside an object, could
 * only be told apart by checking the value against each.
 */
function unionPicker(union: z.ZodType, options: z.ZodType[]): Pick {
  const kindOf = (option: z.ZodType): 'array' | 'object' | 'record' | 'leaf' => {
    const { type } = unwrapped(option);
    return type === 'array' || type === 'object' || type === 'record' ? type : 'leaf';
  };
  const ofKind = (kind: ReturnType<typeof kindOf>) => options.filter((option) => kindOf(option) === kind);
  const [arrays, objects, records] = [ofKind('array'), ofKind('object'), ofKind('record')];
  if (arrays.length > 1) throw new NotPickable(`union of ${arrays.length} array shapes`);
  if (records.length > 1 || (records.length === 1 && objects.length > 0)) throw new NotPickable('union of a record and another object shape');
  // Leaves are written as they are, whichever branch they fit.
  options.filter((option) => kindOf(option) === 'leaf').forEach(pickerOf);
  const array = arrays.length ? pickerOf(arrays[0]) : asIs;
  const object = records.length ? pickerOf(records[0]) : objects.length > 1 ? objectUnionPicker(union, objects) : objects.length ? pickerOf(objects[0]) : asIs;
  if (array === asIs && object === asIs) return asIs;
  return (value) => (Array.isArray(value) ? array(value) : isObject(value) ? object(value) : value);
}

/**
 * Writes each route's answers by its contract: only the fields the contract names leave the server.
 * Checking every answer against the contract (zod's encode, then JSON.stringify) took about a sixth of
 * the API's CPU under the read mix; a pick compiled once per route copies the named fields and lets
 * JSON.stringify write them. An answer whose contract a pick cannot follow keeps zod's serializer.
 *
 * With `checkAnswers` (tests), every answer is also written by zod's serializer and both must be the
 * same JSON: a handler that strays from its contract (a wrong type, a missing field) fails the test
 * that caused it, as it did when zod wrote every answer.
 */
export function answerWriter(checkAnswers: boolean) {
  return (route: RouteSchema): ((data: unknown) => string) => {
    const checked = contractSerializer(route) as (data: unknown) => string;
    const pick = pickerFor(route.schema as z.ZodType);
    if (!pick) return checked;
    const written = (data: unknown) => JSON.stringify(pick(data));
    if (!checkAnswers) return written;
    return (data) => {
      const expected = checked(data);
      const answer = written(data);
      if (!isDeepStrictEqual(JSON.parse(answer), JSON.parse(expected))) {
        throw new Error(
          `${route.method} ${route.url}: the answer written by its contract's pick differs from zod's: ${answer.slice(0, 300)} versus ${expected.slice(0, 300)}`,
        );
      }
      return answer;
    };
  };
}

/** The schema's pick, or undefined when its answers keep zod's serializer. */
function pickerFor(schema: z.ZodType): Pick | undefined {
  try {
    return pickerOf(schema);
  } catch (error) {
    if (error instanceof NotPickable) return undefined;
    throw error;
  }
}

/** For tests: whether a route's answer schema is written by a pick (true) or by zod's serializer. */
export const isPickable = (schema: z.ZodType): boolean => pickerFor(schema) !== undefined;
