import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedRoutes } from '../testing/routes';
import { startTestPortal, type TestPortal } from '../testing/portal';

/**
 * Every route the app serves declares the schema of its success answer: the answer is written by it
 * (src/http/answerWriter.ts), so a field the contract does not name never leaves the server, and a
 * changed field fails the type check in every layer. Error answers come from the central error handler and need none.
 */

type Responses = Record<string, { content?: Record<string, { schema?: unknown }> }>;
type OpenApi = { paths: Record<string, Record<string, { responses?: Responses }>> };

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** A success answer with a body names its schema; a 204 has no body to describe, nor has a declared redirect. */
const declaresAnswer = (responses: Responses | undefined) =>
  Object.entries(responses ?? {}).some(
    ([status, response]) =>
      status === '204' ||
      /^30[12378]$/.test(status) ||
      (/^2\d\d$/.test(status) && Object.values(response.content ?? {}).some((media) => media.schema !== undefined)),
  );

let t: TestPortal;

beforeAll(async () => {
  t = await startTestPortal();
});

afterAll(async () => {
  await t?.close();
});

describe('response schemas', () => {
  it('every route declares the schema of each success answer it serves', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as OpenApi;
    // Every /api route (documentedRoutes throws for one the document leaves out), and whatever else the document lists.
    const api = (await documentedRoutes(t.app)).map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    const others = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => METHODS.has(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    const routes = [...new Set([...api, ...others])].sort();
    expect(routes.length).toBeGreaterThan(100);

    const missing = routes.filter((route) => {
      const [method, path] = route.split(' ');
      return !declaresAnswer(document.paths[path]?.[method.toLowerCase()]?.responses);
    });
    if (missing.length) console.log(`${missing.length} of ${routes.length} routes declare no response schema:\n${missing.join('\n')}`);
    expect(missing).toEqual([]);
  });
});
