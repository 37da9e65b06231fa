/**
 * What users of the five roles read, as concrete URLs: every GET route of the OpenAPI document, with
 * its path filled from records the caller can see (ids from the list above it), list pages of
 * several sizes, and each enumerated filter. Only URLs that answer 200 for their caller are kept, so a
 * mix drawn from them measures reads, not refusals.
 */
import { callApi, signInForBench } from './benchPortal';

export const ROLES = {
  admin: 'admin@partnerhub.test',
  partner: 'partner@partnerhub.test',
  distributor: 'distributor@partnerhub.test',
  manufacturer: 'manufacturer@partnerhub.test',
  support: 'support@partnerhub.test',
} as const;
export type Role = keyof typeof ROLES;

export interface ReadTarget {
  /** The route as the OpenAPI document names it: `GET /api/orders/{id}`. */
  route: string;
  role: Role;
  path: string;
  headers: Record<string, string>;
}

export interface ReadWorkload {
  targets: ReadTarget[];
  /** Every GET route of the document, with why it has no URL when none answered 200. */
  routes: Array<{ route: string; urls: number; unmeasured?: string }>;
}

interface Parameter {
  in: string;
  name: string;
  schema?: { enum?: unknown[]; type?: string | string[]; anyOf?: Array<{ enum?: unknown[] }> };
}
type OpenApi = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

/** Routes that do not answer a read with 200 by design: sign-in redirects. */
const REDIRECTS = /\/auth\/oidc\/\{provider\}\/(start|callback)$/;
/**
 * Downloads (CSV exports, PDFs, the event-log backup, attachments): a user asks for one now and then,
 * not on every screen. They keep one URL per role, so the mix draws them about as often as a page of a
 * list, and each is measured on its own in the per-route table.
 */
export const DOWNLOAD = /\/(export|export\.csv|certificate\.pdf|events)$|\/(attachments|files|media|proof)\/\{name\}$/;
/** At most this many URLs per route and role: enough variety, and the probe stays short. */
const MAX_URLS = 24;
const PAGE_SIZES = [5, 10, 20, 50];
const SEARCHES = ['a', 'net', 'switch', '2026'];

const pick = <T>(values: readonly T[], count: number): T[] => values.slice(0, count);

/** Values of `key` in the objects of a JSON answer's arrays (ids of a list's rows, for instance). */
function valuesOf(json: unknown, key: string, into = new Set<string>()): Set<string> {
  if (Array.isArray(json)) for (const item of json) valuesOf(item, key, into);
  else if (json && typeof json === 'object') {
    for (const [name, value] of Object.entries(json)) {
      if (name === key && (typeof value === 'string' || typeof value === 'number')) into.add(String(value));
      else if (typeof value === 'object') valuesOf(value, key, into);
    }
  }
  return into;
}

function enumOf(parameter: Parameter): string[] {
  const values = parameter.schema?.enum ?? parameter.schema?.anyOf?.flatMap((s) => s.enum ?? []) ?? [];
  return values.filter((v): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v) && v !== '').map(String);
}

/** Query strings for a route: pages of several sizes, each enumerated filter value, a few searches. */
function queriesOf(path: string, parameters: Parameter[]): string[] {
  const names = new Set(parameters.filter((p) => p.in === 'query').map((p) => p.name));
  if (DOWNLOAD.test(path) || !names.has('page') || !names.has('limit')) return [''];
  const queries: string[] = [];
  for (const limit of PAGE_SIZES) for (const page of [1, 2, 3]) queries.push(`?page=${page}&limit=${limit}`);
  for (const parameter of parameters.filter((p) => p.in === 'query' && !['page', 'limit', 'sort', 'range', 'filter'].includes(p.name))) {
    for (const value of pick(enumOf(parameter), 6)) queries.push(`?page=1&limit=10&${parameter.name}=${encodeURIComponent(value)}`);
  }
  if (names.has('search')) for (const term of SEARCHES) queries.push(`?page=1&limit=10&search=${term}`);
  return queries;
}

/** The GET route whose rows fill this route's first path parameter: the nearest one above it. */
function listAbove(path: string, getPaths: Set<string>): string | undefined {
  const segments = path.slice(0, path.indexOf('/{')).split('/');
  while (segments.length > 2) {
    const candidate = segments.join('/');
    if (getPaths.has(candidate)) return candidate;
    segments.pop();
  }
  return undefined;
}

export async function readWorkload(baseUrl: string): Promise<ReadWorkload> {
  const tokens = Object.fromEntries(
    await Promise.all(Object.entries(ROLES).map(async ([role, email]) => [role, await signInForBench(baseUrl, email)])),
  ) as Record<Role, string>;
  const document = (await (await fetch(`${baseUrl}/api/docs/json`)).json()) as OpenApi;
  const getPaths = new Set(Object.entries(document.paths).flatMap(([path, operations]) => (operations.get ? [path] : [])));
  const targets: ReadTarget[] = [];
  const routes: ReadWorkload['routes'] = [];
  const read = (role: Role, path: string) => callApi(baseUrl, tokens[role], 'GET', path).catch(() => ({ status: 0, json: null }));
  /** The status alone: exports answer CSV, downloads files. */
  const statusOf = (role: Role, path: string) =>
    fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${tokens[role]}` } }).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
      () => 0,
    );
  /** Rows of a list as one role sees them (two pages of 50), remembered per role and list. */
  const rows = new Map<string, unknown[]>();
  const rowsOf = async (role: Role, list: string) => {
    const key = `${role} ${list}`;
    if (!rows.has(key)) {
      const answers = await Promise.all([read(role, `${list}?page=1&limit=50`), read(role, `${list}?page=2&limit=50`), read(role, list)]);
      rows.set(
        key,
        answers.filter((a) => a.status === 200).map((a) => a.json),
      );
    }
    return rows.get(key)!;
  };

  for (const path of [...getPaths].sort()) {
    const route = `GET ${path}`;
    if (REDIRECTS.test(path)) {
      routes.push({ route, urls: 0, unmeasured: 'a sign-in redirect (302), not a read' });
      continue;
    }
    const parameters = document.paths[path].get.parameters ?? [];
    const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    let found = 0;
    for (const role of Object.keys(ROLES) as Role[]) {
      let paths = [path];
      if (pathParams.length) {
        const list = listAbove(path, getPaths);
        if (!list) continue;
        const answers = await rowsOf(role, list);
        // The first parameter names a row of the list; a second (an attachment's name, say) a field of that row.
        const [first, ...rest] = pathParams;
        const firstValues = [...valuesOf(answers, first === 'id' ? 'id' : first)];
        paths = pick(firstValues, MAX_URLS).map((value) => path.replace(`{${first}}`, encodeURIComponent(value)));
        for (const name of rest) {
          const values = [...valuesOf(answers, name)];
          paths = values.length ? paths.map((p, i) => p.replace(`{${name}}`, encodeURIComponent(values[i % values.length]))) : [];
        }
      }
      const candidates = pick(
        paths.flatMap((p) => queriesOf(path, parameters).map((q) => `/api${p.replace(/^\/api/, '')}${q}`)),
        DOWNLOAD.test(path) ? 1 : MAX_URLS,
      );
      const answers = await Promise.all(candidates.map(async (candidate) => ({ candidate, status: await statusOf(role, candidate) })));
      for (const { candidate, status } of answers) {
        if (status !== 200) continue;
        targets.push({ route, role, path: candidate, headers: { authorization: `Bearer ${tokens[role]}` } });
        found++;
      }
    }
    routes.push({
      route,
      urls: found,
      ...(found ? {} : { unmeasured: pathParams.length ? 'no record to fill its path answered 200 for any role' : 'answered no role with 200' }),
    });
  }
  return { targets, routes };
}
