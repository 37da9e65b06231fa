import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ApiRouteInfo } from '../plugins/access';

/** A JSON schema as the OpenAPI document carries it (the parts the generators read). */
export interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  nullable?: boolean;
  pattern?: string;
  example?: unknown;
}

/** One route of the API with what the generators need: its access rule and its documented inputs. */
export interface DocumentedRoute extends ApiRouteInfo {
  /** The path without the prefix, as domain/access names it: `/orders/:id`. */
  path: string;
  pathParams: string[];
  query: Record<string, JsonSchema>;
  body: JsonSchema | undefined;
}

interface Operation {
  parameters?: Array<{ in: string; name: string; schema: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/**
 * Every route registered under /api, joined with its OpenAPI operation. Throws when a route is missing
 * from the document, so no route can hide from the generated suites.
 */
export async function documentedRoutes(app: FastifyInstance): Promise<DocumentedRoute[]> {
  const document = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
  return app.apiRoutes.map((route) => {
    const openApiPath = route.url.replace(/:(\w+)/g, '{$1}');
    const operation = document.paths[openApiPath]?.[route.method.toLowerCase()];
    if (!operation) throw new Error(`${route.method} ${route.url} is not in the OpenAPI document`);
    const parameters = operation.parameters ?? [];
    return {
      ...route,
      path: route.url.replace(/^\/api/, ''),
      pathParams: [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]),
      query: Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema])),
      body: operation.requestBody?.content?.['application/json']?.schema,
    };
  });
}

/**
 * The list whose rows are the records of the route's `:id`: the nearest GET route above it
 * (/orders for /orders/:id and for /orders/admin/:id/status), or undefined when there is none.
 */
export function nearestListOf(route: DocumentedRoute, routes: readonly DocumentedRoute[]): string | undefined {
  if (!route.url.includes('/:')) return undefined;
  const segments = route.url.slice(0, route.url.indexOf('/:')).split('/');
  while (segments.length > 2) {
    const candidate = segments.join('/');
    if (routes.some((other) => other.method === 'GET' && other.url === candidate)) return candidate;
    segments.pop();
  }
  return undefined;
}

/** The route's URL with its parameters filled in. */
export function fillPath(route: DocumentedRoute, values: Record<string, string> = {}): string {
  return route.url.replace(/:(\w+)/g, (_, name: string) => values[name] ?? randomUUID());
}

const firstOf = (schemas: JsonSchema[]) => schemas.find((s) => s.type !== 'null' && !(s.enum?.length === 1 && s.enum[0] === '')) ?? schemas[0];

/**
 * The schema's documented example, or else a value the schema accepts as far as types and formats go
 * (required properties only): the base a bad-input case changes one field of, so the refusal is about
 * that field.
 */
export function sampleOf(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  // A route's documented example is a body the route accepts: the best base there is.
  if (schema.example !== undefined) return structuredClone(schema.example);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum.find((value) => value !== '') ?? schema.enum[0];
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return sampleOf(firstOf(union));
  if (schema.allOf?.length) return sampleOf(schema.allOf[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'email') return 'sample@example.test';
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'date') return new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
      if (schema.format === 'uri') return 'https://example.test/';
      return 'Sample text'.padEnd(Math.max(schema.minLength ?? 1, 11), 'x').slice(0, schema.maxLength ?? 10_000);
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case 'array':
      return schema.minItems ? Array.from({ length: schema.minItems }, () => sampleOf(schema.items)) : [];
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((key) => [key, sampleOf(schema.properties?.[key])]));
    default:
      return undefined;
  }
}

/** The properties a body schema names, whichever branch of a union they are in. */
export function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  if (!schema) return {};
  const branches = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (branches) return Object.assign({}, ...branches.map(propertiesOf));
  return schema.properties ?? {};
}

const HUGE_TEXT = 'x'.repeat(100_000);

/** Wrong values for a field of this schema: wrong types, extremes, and text that cannot be stored. */
export function badValuesFor(schema: JsonSchema): unknown[] {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  const unstorable = ['nul\u0000byte', 'lone \ud800 high', 'lone \udc00 low'];
  const common = [null, { nested: { deeper: true } }];
  switch (type) {
    case 'string':
      return [...common, 12345, true, [], '', '   ', HUGE_TEXT, ...unstorable];
    case 'integer':
    case 'number':
      return [...common, '12', 'NaN', 1e308, -1e308, 1.5, -1, 0, 2 ** 63, []];
    case 'boolean':
      return [...common, 'yes', 1, []];
    case 'array':
      return [...common, 'text', 12, [null], [12345], ['nul\u0000byte'], Array.from({ length: 5000 }, () => 'x')];
    case 'object':
      return [...common, 'text', [], 12];
    default:
      return [...common, 12345, '', HUGE_TEXT, ...unstorable, []];
  }
}

/** Query-string values that no route may answer with a 5xx. */
export const BAD_QUERY_VALUES = [
  '',
  'abc',
  '-1',
  '0',
  '1.5',
  '1e400',
  '99999999999999999999999',
  'x'.repeat(5000),
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%FF%FE',
  '[',
  '{"a":',
  '[0,1000000]',
  '["zz","ASC"]',
  '{"zz":1}',
  '{"q":"\\u0000"}',
  '{"q":"\\ud800"}',
  '["id","SIDEWAYS"]',
  'null',
  'true',
];

/** Path-parameter values that no route may answer with a 5xx. */
export const BAD_PATH_VALUES = [
  'not-an-id',
  '0',
  '-1',
  '99999999999999999999999',
  'x'.repeat(3000),
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%FF',
  '..%2F..%2Fetc%2Fpasswd',
  "1'%20OR%20'1'='1",
  'ORD-2026-',
  'ord-2026-001001',
  '00000000-0000-0000-0000-000000000000',
];

/** Multipart bodies that are broken in the ways real clients break them. */
export function brokenMultipartBodies(): Array<{ name: string; contentType: string; payload: string | Buffer }> {
  const boundary = '----partnerhub-test-boundary';
  const part = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nSample\r\n`;
  const filePart = `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nnot really a png\r\n`;
  return [
    { name: 'no boundary', contentType: 'multipart/form-data', payload: part },
    { name: 'wrong boundary', contentType: 'multipart/form-data; boundary=something-else', payload: `${part}--${boundary}--\r\n` },
    { name: 'truncated body', contentType: `multipart/form-data; boundary=${boundary}`, payload: part.slice(0, part.length - 6) },
    { name: 'truncated file', contentType: `multipart/form-data; boundary=${boundary}`, payload: filePart.slice(0, filePart.length - 4) },
    { name: 'empty body', contentType: `multipart/form-data; boundary=${boundary}`, payload: '' },
    {
      name: 'NUL in a field',
      contentType: `multipart/form-data; boundary=${boundary}`,
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nSam\u0000ple\r\n--${boundary}--\r\n`,
    },
    {
      name: 'unknown file field',
      contentType: `multipart/form-data; boundary=${boundary}`,
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="zz"; filename="a.txt"\r\n\r\ntext\r\n--${boundary}--\r\n`,
    },
    { name: 'text renamed as image', contentType: `multipart/form-data; boundary=${boundary}`, payload: `${filePart}--${boundary}--\r\n` },
  ];
}
