import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import { apiAccessOf, CONTACT_ADMIN_MESSAGE, mayCallApi, type ApiAccess } from '../../domain/access';
import { HttpError } from './errors';

export const API_PREFIX = '/api';

/** A registered API route as the generated test suites read it (`app.apiRoutes`). */
export interface ApiRouteInfo {
  method: string;
  /** Fastify's pattern, with the prefix: `/api/orders/:id`. */
  url: string;
  access: ApiAccess;
  multipart: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    apiRoutes: ApiRouteInfo[];
  }
}

/** The access rule a registered route is served under, for the tests that read the route table. */
export function routeAccess(method: string, url: string): ApiAccess | undefined {
  return url.startsWith(API_PREFIX) ? apiAccessOf(method, url.slice(API_PREFIX.length) || '/') : undefined;
}

function guardFor(app: FastifyInstance, access: ApiAccess): onRequestHookHandler | undefined {
  if ('public' in access) return undefined;
  if ('applicant' in access) {
    return async function applicantGuard(request: FastifyRequest, reply: FastifyReply) {
      await app.authenticateApplicant(request, reply);
    };
  }
  return async function accessGuard(request: FastifyRequest, reply: FastifyReply) {
    await app.authenticate(request, reply);
    const ownerId = (request.params as { id?: unknown } | undefined)?.id;
    if (!mayCallApi(request.principal, access, typeof ownerId === 'string' ? ownerId : undefined)) {
      const required = 'anyOf' in access.requires ? access.requires.anyOf : 'adminOnly' in access.requires ? 'admin' : access.requires;
      throw new HttpError(403, 'INSUFFICIENT_PERMISSIONS', CONTACT_ADMIN_MESSAGE, { required });
    }
  };
}

/**
 * Puts every route of the scope under its rule in `domain/access` (API_ROUTES). The guard runs when
 * the request arrives, before its body is read or validated, so an anonymous or unauthorised caller
 * learns nothing about the fields. A route without a rule refuses to register.
 */
export function enforceApiAccess(app: FastifyInstance, registry: ApiRouteInfo[]): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = [route.method].flat().filter((method) => method !== 'OPTIONS');
    const rules = methods.map((method) => routeAccess(method, route.url));
    for (const [index, method] of methods.entries()) {
      const access = rules[index];
      if (access && method !== 'HEAD')
        registry.push({
          method,
          url: route.url,
          access,
          multipart: Boolean((route.schema as { consumes?: string[] } | undefined)?.consumes?.includes('multipart/form-data')),
        });
    }
    const missing = methods.find((_, index) => !rules[index]);
    if (missing) throw new Error(`${missing} ${route.url} has no access rule: add it to API_ROUTES in domain/access/api.ts.`);
    if (new Set(rules.map((rule) => JSON.stringify(rule))).size > 1)
      throw new Error(`${route.url}: one route serving several methods needs one access rule for all of them.`);
    const hooks = [route.onRequest ?? []].flat();
    // The HEAD twin of a GET route arrives with the GET route's hooks already in place.
    if (hooks.some((hook) => GUARDS.has(hook))) return;
    const guard = rules[0] && guardFor(app, rules[0]);
    if (guard) {
      GUARDS.add(guard);
      route.onRequest = [...hooks, guard];
    }
  });
}

const GUARDS = new WeakSet<object>();
