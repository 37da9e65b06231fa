import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';
import {
  BAD_PATH_VALUES,
  BAD_QUERY_VALUES,
  badValuesFor,
  brokenMultipartBodies,
  documentedRoutes,
  fillPath,
  nearestListOf,
  propertiesOf,
  sampleOf,
  type DocumentedRoute,
  type JsonSchema,
} from '../testing/routes';

/**
 * Generated from the API itself: every route of the OpenAPI document gets wrong types, missing and
 * extra fields, huge and empty strings, NUL and lone surrogates, huge numbers, bad ids, malformed JSON
 * and multipart and oversized bodies, sent by a caller who may use the route. No answer may be a 5xx,
 * and no refusal may change anything (the event log's head and the stored files are compared).
 */

let t: TestPortal;
let admin: Session;
let onboardingToken: string;
const uploadDir = path.join(process.env.TMPDIR ?? '/tmp', `partnerhub-bad-input-${Date.now()}`);

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'], env: { UPLOAD_DIR: uploadDir, LOGIN_FAILURES_PER_EMAIL: '100000' } });
  admin = await login(t.app, 'admin@partnerhub.test');
  const products = await t.app.inject({ method: 'GET', url: '/api/products?range=[0,99]', headers: { authorization: `Bearer ${admin.accessToken}` } });
  liveProduct = products.json().find((product: { stock_quantity: number; moq: number }) => product.stock_quantity >= product.moq * 50);
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/user/register/',
    payload: { email: 'bad.input@example.test', password: 'Secret123', company_name: 'Bad Input Ltd' },
  });
  onboardingToken = registered.json().onboardingToken;
});
afterAll(async () => {
  await t?.close();
  await rm(uploadDir, { recursive: true, force: true });
});

interface Case {
  name: string;
  request: InjectOptions;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function withQuery(url: string, query: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/** Bad values for every field of a body, one field at a time, down into nested objects and lists of objects. */
function fieldCases(schema: JsonSchema, base: Record<string, unknown>, prefix = '', depth = 0): Array<[string, Record<string, unknown>]> {
  const cases: Array<[string, Record<string, unknown>]> = [];
  for (const [field, fieldSchema] of Object.entries(propertiesOf(schema))) {
    for (const bad of badValuesFor(fieldSchema)) cases.push([`${prefix}${field} = ${shown(bad)}`, { ...base, [field]: bad }]);
    if (depth > 0) continue;
    const nested = fieldSchema.type === 'array' ? fieldSchema.items : fieldSchema;
    if (nested && Object.keys(propertiesOf(nested)).length) {
      const nestedBase = (sampleOf(nested) ?? {}) as Record<string, unknown>;
      for (const [name, value] of fieldCases(nested, nestedBase, `${prefix}${field}.`, depth + 1)) {
        cases.push([name, { ...base, [field]: fieldSchema.type === 'array' ? [value] : value }]);
      }
    }
  }
  return cases;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 30)}… (${text.length} chars)` : text;
}

/** Live data an example cannot know: a product that exists, so an order reaches its stock and its events. */
let liveProduct: { id: string; moq: number } | undefined;

function baseBody(route: DocumentedRoute): Record<string, unknown> {
  const base = (sampleOf(route.body) ?? {}) as Record<string, unknown>;
  if (liveProduct && Array.isArray(base.items))
    base.items = base.items.map((item) => ({ ...(item as object), product_id: liveProduct!.id, quantity: liveProduct!.moq }));
  return base;
}

let unique = 0;
/** Each case registers its own address, so a case is refused for its bad field and not because an earlier case took the address. */
function uniqueAddresses(schema: JsonSchema, body: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...body };
  for (const [field, fieldSchema] of Object.entries(propertiesOf(schema))) {
    const value = copy[field];
    if (fieldSchema.format === 'email' && typeof value === 'string' && value.includes('@') && !/[\u0000\ud800-\udfff]/.test(value))
      copy[field] = `case${(unique += 1)}.${value}`;
  }
  return copy;
}

/**
 * A change to a record is sent to a record that exists (the first of its list that is not the caller's own
 * account), so a bad field reaches the code that applies it: with a made-up id most routes stop at "not
 * found" and never look at the body. Deletions keep made-up ids, so the suite deletes nothing.
 */
async function liveRecordFor(route: DocumentedRoute, routes: readonly DocumentedRoute[]): Promise<string | undefined> {
  if (route.method === 'GET' || route.method === 'DELETE' || !route.pathParams.includes('id')) return undefined;
  const list = nearestListOf(route, routes);
  if (!list) return undefined;
  const response = await t.app.inject({ method: 'GET', url: `${list}?range=[0,9]`, headers: { authorization: `Bearer ${admin.accessToken}` } });
  if (response.statusCode !== 200 || !Array.isArray(response.json())) return undefined;
  return (response.json() as Array<{ id: string }>).find((row) => row.id !== admin.user.id)?.id;
}

function casesFor(route: DocumentedRoute, liveId?: string): Case[] {
  const cases: Case[] = [];
  const url = fillPath(route, liveId ? { id: liveId } : {});
  const method = route.method as InjectOptions['method'];

  for (const param of route.pathParams) {
    for (const value of BAD_PATH_VALUES) cases.push({ name: `path ${param} = ${value}`, request: { method, url: route.url.replace(`:${param}`, value) } });
  }

  for (const [name] of Object.entries(route.query)) {
    for (const value of BAD_QUERY_VALUES)
      cases.push({ name: `query ${name} = ${value}`, request: { method, url: `${url}?${name}=${encodeURIComponent(value).replace(/%25/g, '%')}` } });
  }
  cases.push({ name: 'unknown query parameter', request: { method, url: withQuery(url, 'zz_unknown=1') } });
  cases.push({ name: 'NUL in an unknown query parameter', request: { method, url: withQuery(url, 'search=%00') } });

  if (!BODY_METHODS.has(route.method)) return cases;

  const json = (name: string, payload: unknown) =>
    cases.push({ name, request: { method, url, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } } });
  const raw = (name: string, payload: string | Buffer, contentType: string) =>
    cases.push({ name, request: { method, url, payload, headers: { 'content-type': contentType } } });

  raw('malformed JSON', '{"email": "a@b.c", ', 'application/json');
  raw('empty JSON body', '', 'application/json');
  raw('JSON with a NUL escape', '{"name": "a\\u0000b", "email": "x\\u0000@y.z"}', 'application/json');
  raw('JSON with a lone surrogate escape', '{"name": "a\\ud800b", "full_name": "\\udc00"}', 'application/json');
  raw('a text body', 'hello', 'text/plain');
  raw('an oversized JSON body', JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) }), 'application/json');
  json('JSON null', null);
  json('a JSON array', []);
  json('a JSON string', 'text');
  json('a JSON number', 12);
  json('an empty object', {});
  json('deeply nested', JSON.parse('{"a":'.repeat(500) + '1' + '}'.repeat(500)));
  for (const broken of brokenMultipartBodies()) raw(`multipart: ${broken.name}`, broken.payload, broken.contentType);

  if (route.multipart) {
    const boundary = '----partnerhub-big';
    const big = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.alloc(11 * 1024 * 1024, 1),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    raw('multipart: an oversized file', big, `multipart/form-data; boundary=${boundary}`);
  }

  if (route.body) {
    const base = baseBody(route);
    json('extra field', { ...base, zz_unknown_field: 1 });
    for (const required of route.body.required ?? []) {
      const { [required]: _, ...without } = base;
      json(`missing ${required}`, without);
    }
    for (const [name, body] of fieldCases(route.body, base)) json(name, uniqueAddresses(route.body, body));
  }
  return cases;
}

async function storedFiles(): Promise<number> {
  const count = async (dir: string): Promise<number> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    let total = 0;
    for (const entry of entries) total += entry.isDirectory() ? await count(path.join(dir, entry.name)) : 1;
    return total;
  };
  return count(uploadDir);
}

/** Every event appended so far, committed or not yet visible to subscribers: a refused request must add none. */
async function eventCount(): Promise<number> {
  const { rows } = await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
  return rows[0].n;
}

/** Sends the case; `measure` runs just before, and again before a resend (signing in again is itself an audit event). */
async function send(route: DocumentedRoute, request: InjectOptions, measure: () => Promise<void>): Promise<LightMyRequestResponse> {
  const headers = { ...(request.headers ?? {}) } as Record<string, string>;
  if ('applicant' in route.access) headers.authorization = `Bearer ${onboardingToken}`;
  else if (!('public' in route.access)) headers.authorization = `Bearer ${admin.accessToken}`;
  await measure();
  const response = await t.app.inject({ ...request, headers });
  // A case may have ended the caller's session (sign-out with a stray body is still a sign-out): sign in again and resend.
  if (response.statusCode === 401 && headers.authorization?.includes(admin.accessToken) && response.json().error?.code === 'SESSION_ENDED') {
    admin = await login(t.app, 'admin@partnerhub.test');
    return send(route, request, measure);
  }
  return response;
}

describe('bad input, generated for every route of the API', () => {
  it('never answers 5xx and never changes anything when it refuses', async () => {
    const routes = await documentedRoutes(t.app);
    const failures: string[] = [];
    let cases = 0;
    for (const route of routes) {
      for (const { name, request } of casesFor(route, await liveRecordFor(route, routes))) {
        cases += 1;
        let eventsBefore = 0;
        let filesBefore = 0;
        const response = await send(route, request, async () => {
          eventsBefore = await eventCount();
          filesBefore = await storedFiles();
        });
        const label = `${route.method} ${route.url} [${name}] → ${response.statusCode}`;
        if (response.statusCode >= 500) failures.push(`${label}: ${response.body.slice(0, 200)}`);
        if (response.statusCode >= 400) {
          if ((await eventCount()) !== eventsBefore) {
            failures.push(`${label}: refused but the event log moved`);
          }
          if ((await storedFiles()) !== filesBefore) failures.push(`${label}: refused but the stored files changed`);
          const body = response.json();
          if (body.success !== false || typeof body.message !== 'string' || !body.message) failures.push(`${label}: no error envelope with a message`);
        }
      }
    }
    console.log(`bad-input suite: ${routes.length} routes, ${cases} cases, ${failures.length} failures`);
    expect(failures).toEqual([]);
    expect(routes.length).toBeGreaterThan(30);
  }, 600_000);
});
