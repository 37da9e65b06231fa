import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyPermissions,
  INTEGRATION_ROLE,
  mayCallApi,
  normalizePermissions,
  scopesAllow,
  scopesBeyond,
  scopesFor,
  type ApiAccess,
  type ApiKeyOwnerKind,
  type ApiKeyScope,
} from '../../domain/access';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';
import { documentedRoutes, fillPath, nearestListOf, sampleOf, type DocumentedRoute } from '../testing/routes';

/**
 * Generated from API_ROUTES and the scope catalogue: every route × every scope × every kind of key
 * owner (the vendor, a partner organisation, a distributor organisation), and for organisation-scoped
 * records, a record of the key's own organisation and of another. A key reaches only the routes its
 * scope names (403 API_KEY_NOT_ALLOWED / API_KEY_SCOPE_MISSING otherwise); there, the route's own rule
 * decides, evaluated for the principal the key acts as (its owner with at most its scope's
 * permissions, or the vendor's integration).
 */

interface KeyOwner {
  name: string;
  kind: ApiKeyOwnerKind;
  session: Session;
  /** The organisation the key acts for (its owner account), for an organisation key. */
  organisationId?: string;
  role: string;
  permissions: string[];
}

let t: TestPortal;
let admin: Session;
const owners: KeyOwner[] = [];

beforeAll(async () => {
  t = await startTestPortal();
  admin = await login(t.app, 'admin@partnerhub.test');
  owners.push({ name: 'vendor', kind: 'vendor', session: admin, role: INTEGRATION_ROLE, permissions: [] });
  for (const email of ['partner@partnerhub.test', 'distributor@partnerhub.test']) {
    const session = await login(t.app, email);
    owners.push({
      name: session.user.role,
      kind: 'organisation',
      session,
      organisationId: session.user.id,
      role: session.user.role,
      permissions: session.user.effectivePermissions,
    });
  }
});
afterAll(() => t?.close());

async function keyWith(owner: KeyOwner, scope: ApiKeyScope): Promise<string> {
  const url = owner.kind === 'vendor' ? '/api/settings/api-keys' : '/api/organisation/api-keys';
  const created = await as(
    t.app,
    owner.session,
  )({ method: 'POST', url, payload: { name: `Matrix ${owner.name} ${scope}`, scopes: [scope], rate_limit_per_minute: 1200 } });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().key as string;
}

function call(route: DocumentedRoute, key: string, url: string, payload: object = {}): Promise<LightMyRequestResponse> {
  const request: InjectOptions = { method: route.method as InjectOptions['method'], url, headers: { authorization: `Bearer ${key}` } };
  if (!['GET', 'DELETE'].includes(route.method)) request.payload = payload;
  return t.app.inject(request);
}

const ACCESS_REFUSALS = ['INSUFFICIENT_PERMISSIONS', 'FORBIDDEN', 'API_KEY_NOT_ALLOWED', 'API_KEY_SCOPE_MISSING'];
const refusal = (response: LightMyRequestResponse): string | undefined => {
  if (response.statusCode !== 401 && response.statusCode !== 403) return undefined;
  const code = response.json().error?.code as string | undefined;
  return response.statusCode === 401 || ACCESS_REFUSALS.includes(code ?? '') ? (code ?? String(response.statusCode)) : undefined;
};

/** The record ids of a scoped route's list, by organisation, read as an administrator. */
const listed = new Map<string, Array<{ id: string; organisation_id: string }>>();
async function recordsByOrganisation(route: DocumentedRoute, routes: DocumentedRoute[]) {
  const listPath = nearestListOf(route, routes);
  if (!listPath) throw new Error(`${route.method} ${route.url} is organisation-scoped but no list above it shows its records`);
  if (!listed.has(listPath)) {
    const response = await as(t.app, admin)({ method: 'GET', url: `${listPath}?range=[0,99]` });
    listed.set(
      listPath,
      (response.json() as Array<{ id: string; organisation_id?: string }>)
        .filter((row) => row.organisation_id)
        .map((row) => ({ id: row.id, organisation_id: row.organisation_id! })),
    );
  }
  return listed.get(listPath)!;
}

const eventsWrittenWithKey = async (): Promise<number> =>
  (await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE metadata ? 'apiKeyId' AND type <> 'ApiKeyUsed.v1'`)).rows[0].n;

describe('API key authorization matrix, generated for every route × scope × owner', () => {
  it('answers every route as the scopes and domain/access say, and keeps organisation keys to their own organisation', async () => {
    const routes = (await documentedRoutes(t.app)).filter((route) => !('public' in route.access && route.method === 'GET'));
    const failures: string[] = [];
    let cells = 0;
    let reached = 0;
    let scopedChecks = 0;
    for (const owner of owners) {
      const offered = scopesFor(owner.kind).filter(
        (scope) => owner.kind === 'vendor' || scopesBeyond([scope], normalizePermissions(owner.permissions), owner.role).length === 0,
      );
      expect(offered.length, `${owner.name} is offered scopes`).toBeGreaterThan(2);
      for (const scope of offered) {
        const key = await keyWith(owner, scope);
        const principal = {
          role: owner.role,
          permissions: apiKeyPermissions([scope], owner.kind, normalizePermissions(owner.permissions)),
          id: owner.organisationId,
        };
        for (const route of routes) {
          cells += 1;
          const label = `${route.method} ${route.url} with a ${owner.name} key of scope ${scope}`;
          const inScope = scopesAllow([scope], owner.kind, route.method, route.path);
          const response = await call(route, key, fillPath(route));
          const refused = refusal(response);
          if (!inScope) {
            if (response.statusCode !== 403 || !['API_KEY_NOT_ALLOWED', 'API_KEY_SCOPE_MISSING'].includes(refused ?? ''))
              failures.push(`${label}: outside the scope, expected 403, got ${response.statusCode} ${refused ?? ''}`);
            continue;
          }
          const allowed = 'applicant' in route.access ? false : mayCallApi(principal, route.access as ApiAccess);
          if (allowed && refused) failures.push(`${label}: expected access, got ${response.statusCode} ${refused}`);
          if (!allowed && response.statusCode !== 403) failures.push(`${label}: beyond the owner's rights, expected 403, got ${response.statusCode}`);
          if (!allowed) continue;
          reached += 1;

          // Own and other organisation, where the route's :id is one organisation's record.
          if (!('requires' in route.access && route.access.organisationScoped)) continue;
          const records = await recordsByOrganisation(route, routes);
          const other = records.find((row) => row.organisation_id !== owner.organisationId);
          if (owner.kind === 'vendor') {
            if (other && route.method === 'GET') {
              scopedChecks += 1;
              const answer = await call(route, key, fillPath(route, { id: other.id }));
              if (answer.statusCode !== 200) failures.push(`${label}: a vendor key reads every organisation, got ${answer.statusCode}`);
            }
            continue;
          }
          const own = records.find((row) => row.organisation_id === owner.organisationId);
          if (!own || !other) {
            failures.push(`${label}: the demo data has no record of the ${owner.name}'s organisation and of another to check its scope with`);
            continue;
          }
          scopedChecks += 1;
          if (route.method === 'GET') {
            const ownAnswer = await call(route, key, fillPath(route, { id: own.id }));
            if (ownAnswer.statusCode !== 200) failures.push(`${label}: own organisation's record answered ${ownAnswer.statusCode}`);
          }
          const before = await eventsWrittenWithKey();
          const otherAnswer = await call(route, key, fillPath(route, { id: other.id }), (sampleOf(route.body) ?? {}) as object);
          if (![403, 404].includes(otherAnswer.statusCode)) failures.push(`${label}: another organisation's record answered ${otherAnswer.statusCode}`);
          if ((await eventsWrittenWithKey()) !== before) failures.push(`${label}: another organisation's record was changed`);
        }
      }
    }
    console.log(
      `API key matrix: ${routes.length} routes, ${owners.length} owners, ${cells} cells (${reached} reached within scope, ${scopedChecks} own/other organisation checks), ${failures.length} failures`,
    );
    expect(failures).toEqual([]);
    expect(reached).toBeGreaterThan(50);
    expect(scopedChecks).toBeGreaterThan(20);
  }, 600_000);
});
