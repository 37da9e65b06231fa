import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayCallApi, seesAllOrganisations, type ApiAccess } from '../../domain/access';
import { demoUserId } from '../seed/identity';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';
import { documentedRoutes, fillPath, nearestListOf, sampleOf, type DocumentedRoute } from '../testing/routes';

/**
 * Generated from the API itself: every route × every demo role, signed out, a deactivated account,
 * a team member of a deactivated owner, and, for organisation-scoped records, a record of the caller's
 * own organisation and of another. The expected answer comes from the route's rule in domain/access
 * (API_ROUTES), evaluated with the same function the server uses, for each caller's current
 * permissions. Requests carry an empty body: the guard runs before validation, so a refusal is 401 or
 * 403 and an allowed call is anything else (usually 400 for the empty body), and nothing changes.
 */

const DEMO_ROLES = {
  admin: 'admin@partnerhub.test',
  partner: 'partner@partnerhub.test',
  distributor: 'distributor@partnerhub.test',
  manufacturer: 'manufacturer@partnerhub.test',
  support: 'support@partnerhub.test',
  partner_user: 'partner.user@partnerhub.test',
  distributor_user: 'distributor.user@partnerhub.test',
} as const;
type DemoRole = keyof typeof DEMO_ROLES;

interface Caller {
  name: string;
  email?: string;
  session?: Session;
  id?: string;
  organisationId?: string;
  role?: string;
  permissions?: string[];
}

let t: TestPortal;
const callers = new Map<DemoRole, Caller>();

async function signIn(email: string, password?: string): Promise<Caller> {
  const session = await login(t.app, email, password);
  const user = session.user as Session['user'] & { id: string; parent_user_id: string | null };
  return {
    name: user.role,
    email,
    session,
    id: user.id,
    organisationId: user.parent_user_id ?? user.id,
    role: user.role,
    permissions: user.effectivePermissions,
  };
}

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  for (const [role, email] of Object.entries(DEMO_ROLES) as Array<[DemoRole, string]>) callers.set(role, await signIn(email));
});
afterAll(() => t?.close());

async function call(route: DocumentedRoute, caller: Caller, url: string, payload: object = {}): Promise<LightMyRequestResponse> {
  const request: InjectOptions = { method: route.method as InjectOptions['method'], url };
  if (!['GET', 'DELETE'].includes(route.method)) request.payload = payload;
  const response = await as(t.app, caller.session)(request);
  // Signing out is a route like any other: sign the caller in again and repeat.
  if (response.statusCode === 401 && caller.email && response.json().error?.code === 'SESSION_ENDED') {
    caller.session = (await signIn(caller.email)).session;
    return as(t.app, caller.session)(request);
  }
  return response;
}

/** A refusal by the access rules (not a business rule that happens to answer 403, such as "an admin cannot be deleted"). */
const ACCESS_REFUSALS = ['INSUFFICIENT_PERMISSIONS', 'FORBIDDEN'];
const refusedWith = (response: LightMyRequestResponse): string | undefined => {
  const code = response.statusCode === 401 || response.statusCode === 403 ? (response.json().error?.code as string) : undefined;
  return code && (response.statusCode === 401 || ACCESS_REFUSALS.includes(code)) ? code : undefined;
};

/** The record ids of a scoped route's list, by organisation, read as an administrator. */
async function recordsByOrganisation(route: DocumentedRoute, routes: DocumentedRoute[]): Promise<Array<{ id: string; organisation_id: string }>> {
  const listPath = nearestListOf(route, routes);
  if (!listPath) throw new Error(`${route.method} ${route.url} is organisation-scoped but no list above it shows its records`);
  const response = await as(t.app, callers.get('admin')!.session)({ method: 'GET', url: `${listPath}?range=[0,99]` });
  return (response.json() as Array<{ id: string; organisation_id?: string }>)
    .filter((row) => row.organisation_id)
    .map((row) => ({ id: row.id, organisation_id: row.organisation_id! }));
}

/** The rows and total of a react-admin list answer, or undefined when the route does not answer as a list. */
function asList(response: LightMyRequestResponse): { ids: string[]; organisations: Array<string | undefined>; total: number } | undefined {
  const range = response.headers['content-range'];
  if (response.statusCode !== 200 || typeof range !== 'string' || !response.headers['content-type']?.toString().includes('json')) return undefined;
  const rows = response.json() as Array<{ id: string; organisation_id?: string }>;
  return { ids: rows.map((row) => row.id), organisations: rows.map((row) => row.organisation_id), total: Number(range.split('/')[1]) };
}

// Before the matrix, which ends by deactivating accounts.
describe('react-admin getMany, generated for every list of the API', () => {
  it('answers filter={"id":[…]} with exactly the named records the caller may see, for every list and role', async () => {
    const routes = (await documentedRoutes(t.app)).filter((route) => route.method === 'GET' && 'filter' in route.query && 'range' in route.query);
    const failures: string[] = [];
    const listsChecked = new Set<string>();
    let cells = 0;
    let narrowed = 0;
    const admin = callers.get('admin')!;
    for (const route of routes) {
      const everyone = mayCallApi({ role: admin.role!, permissions: admin.permissions! }, route.access as ApiAccess)
        ? asList(await call(route, admin, `${route.url}?range=[0,99]`))
        : undefined;
      for (const [role, caller] of callers) {
        if (!mayCallApi({ role: caller.role!, permissions: caller.permissions!, id: caller.id }, route.access as ApiAccess)) continue;
        const visible = asList(await call(route, caller, `${route.url}?range=[0,99]`));
        if (!visible) continue; // an export (CSV), not a list
        listsChecked.add(route.url);
        cells += 1;
        // Two records the caller sees (the last and the first of its page), and ids it must not get back:
        // one nobody has and, for callers scoped to their organisation, another organisation's record.
        const wanted = [...new Set([visible.ids[visible.ids.length - 1], visible.ids[0]].filter(Boolean))];
        const foreign =
          !seesAllOrganisations(caller.role) && everyone
            ? everyone.ids.filter((_, n) => everyone.organisations[n] && everyone.organisations[n] !== caller.organisationId).slice(0, 1)
            : [];
        const asked = [...wanted, randomUUID(), ...foreign];
        const answer = asList(await call(route, caller, `${route.url}?range=[0,99]&filter=${encodeURIComponent(JSON.stringify({ id: asked }))}`));
        const label = `${route.url} as ${role} asking for ${wanted.length} of its ${visible.total} records${foreign.length ? " and another organisation's" : ''}`;
        if (!answer) failures.push(`${label}: did not answer as a list`);
        else if ([...answer.ids].sort().join() !== [...wanted].sort().join() || answer.total !== wanted.length) {
          failures.push(`${label}: got ${answer.ids.length} rows (total ${answer.total})`);
        }
        if (visible.total > wanted.length) narrowed += 1;
      }
    }
    console.log(
      `getMany: ${listsChecked.size} lists, ${cells} list × caller cells (${narrowed} where the list holds more than the records asked for), ${failures.length} failures`,
    );
    expect(failures).toEqual([]);
    // The lists react-admin's getMany reads, at least; a list that stops answering as one would drop out silently.
    expect([...listsChecked]).toEqual(
      expect.arrayContaining([
        '/api/projects',
        '/api/rebates',
        '/api/rebates/user',
        '/api/rebates/admin/all',
        '/api/orders',
        '/api/users',
        '/api/tickets',
        '/api/audit',
      ]),
    );
  }, 600_000);
});

const eventsWrittenBy = async (actorId: string): Promise<number> =>
  (await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE metadata->>'actorId' = $1`, [actorId])).rows[0].n;

describe('authorization matrix, generated for every route of the API', () => {
  it('answers every route as domain/access says, for every role and organisation', async () => {
    const routes = await documentedRoutes(t.app);
    const failures: string[] = [];
    let cells = 0;
    const expect401 = async (route: DocumentedRoute, caller: Caller) => {
      if ('public' in route.access) return;
      cells += 1;
      const response = await call(route, caller, fillPath(route));
      if (response.statusCode !== 401) failures.push(`${route.method} ${route.url} as ${caller.name}: expected 401, got ${response.statusCode}`);
    };

    // Signed out.
    for (const route of routes) {
      cells += 1;
      const response = await call(route, { name: 'signed out' }, fillPath(route));
      const refused = response.statusCode === 401;
      if ('public' in route.access ? refused : !refused) failures.push(`${route.method} ${route.url} signed out: got ${response.statusCode}`);
    }

    // Each demo role, with a record id that is nobody's, the caller's own account, and scoped records.
    for (const route of routes) {
      const scoped = 'requires' in route.access && route.access.organisationScoped ? await recordsByOrganisation(route, routes) : [];
      for (const [role, caller] of callers) {
        const principal = { role: caller.role!, permissions: caller.permissions!, id: caller.id };
        const ids = route.pathParams.length ? [randomUUID(), caller.id!] : [undefined];
        for (const id of ids) {
          cells += 1;
          const allowed = 'applicant' in route.access ? caller.role === 'partner' : mayCallApi(principal, route.access as ApiAccess, id);
          const response = await call(route, caller, fillPath(route, id ? { id } : {}));
          const refusal = refusedWith(response);
          if (allowed && refusal)
            failures.push(
              `${route.method} ${route.url} as ${role} (id ${id === caller.id ? 'own account' : 'unknown'}): expected access, got ${response.statusCode} ${refusal}`,
            );
          if (!allowed && response.statusCode !== 403)
            failures.push(
              `${route.method} ${route.url} as ${role} (id ${id === caller.id ? 'own account' : 'unknown'}): expected 403, got ${response.statusCode}`,
            );
        }
        if (!scoped.length || !mayCallApi(principal, route.access as ApiAccess)) continue;
        const own = scoped.find((row) => row.organisation_id === caller.organisationId);
        const other = scoped.find((row) => row.organisation_id !== caller.organisationId);
        if (seesAllOrganisations(caller.role)) {
          if (other) {
            cells += 1;
            const response = await call(route, caller, fillPath(route, { id: other.id }));
            const expected = route.method === 'GET' ? response.statusCode === 200 : ![403, 404].includes(response.statusCode);
            if (!expected) failures.push(`${route.method} ${route.url} as ${role}: sees every organisation, got ${response.statusCode}`);
          }
          continue;
        }
        if (!own || !other) {
          failures.push(`${route.method} ${route.url}: the demo data has no record of ${role}'s organisation and of another to check its scope with`);
          continue;
        }
        if (route.method === 'GET') {
          cells += 1;
          const ownAnswer = await call(route, caller, fillPath(route, { id: own.id }));
          if (ownAnswer.statusCode !== 200)
            failures.push(`${route.method} ${route.url} as ${role}: own organisation's record answered ${ownAnswer.statusCode}`);
        }
        // A change is sent with the route's valid example, so only the record's organisation can refuse it.
        cells += 1;
        // Counted by who wrote them: the log also takes events no request of this caller caused.
        const writtenBefore = await eventsWrittenBy(caller.id!);
        const otherAnswer = await call(route, caller, fillPath(route, { id: other.id }), (sampleOf(route.body) ?? {}) as object);
        if (![403, 404].includes(otherAnswer.statusCode))
          failures.push(`${route.method} ${route.url} as ${role}: another organisation's record answered ${otherAnswer.statusCode}`);
        if ((await eventsWrittenBy(caller.id!)) !== writtenBefore)
          failures.push(`${route.method} ${route.url} as ${role}: another organisation's record was changed`);
      }
    }

    // A deactivated account, with the token it had before.
    const admin = callers.get('admin')!;
    const created = await as(
      t.app,
      admin.session,
    )({
      method: 'POST',
      url: '/api/users',
      payload: {
        full_name: 'Soon Inactive',
        email: 'soon.inactive@partnerhub.test',
        password: 'Secret123',
        role: 'support',
        is_active: true,
        permissions: ['Support.Read'],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const deactivated = await signIn('soon.inactive@partnerhub.test', 'Secret123');
    await as(
      t.app,
      admin.session,
    )({
      method: 'PUT',
      url: `/api/users/${created.json().id}`,
      payload: { full_name: 'Soon Inactive', email: 'soon.inactive@partnerhub.test', is_active: false },
    });
    for (const route of routes) await expect401(route, { ...deactivated, name: 'a deactivated account', email: undefined });

    // A team member whose owner was deactivated, with the token it had before.
    const member = await signIn(DEMO_ROLES.distributor_user);
    const ownerId = demoUserId(DEMO_ROLES.distributor);
    const owner = (await as(t.app, admin.session)({ method: 'GET', url: `/api/users/${ownerId}` })).json();
    await as(
      t.app,
      admin.session,
    )({ method: 'PUT', url: `/api/users/${ownerId}`, payload: { full_name: owner.full_name, email: owner.email, is_active: false } });
    for (const route of routes) await expect401(route, { ...member, name: 'a member of a deactivated owner', email: undefined });

    console.log(`authorization matrix: ${routes.length} routes, ${callers.size + 3} kinds of caller, ${cells} cells, ${failures.length} failures`);
    expect(failures).toEqual([]);
  }, 600_000);
});
