import { describe, expect, it } from 'vitest';
import { API_ROUTES, mayCallApi, type ApiAccess } from './api';
import { DEFAULT_PERMISSIONS_BY_ROLE } from './defaults';
import { ALL_PERMISSIONS } from './permissions';
import { ROLES } from './roles';
import { canCallEndpoint, requiredPermissionForEndpoint } from './rules';

/**
 * The server's route table against the specification's endpoint map: wherever the map names an
 * endpoint, the server is never looser, except where a recorded decision says why.
 */
const LOOSER_BY_DECISION: Record<string, string> = {
  'GET /orders': 'the orders screen lists orders to holders of Orders.Read and Orders.Track too (docs/decisions.md, Catalogue and orders)',
  'GET /orders/stats': 'the statistics above that list follow it',
  'POST /orders': "distributors' 'Order create' is Orders.Create, which checks out like Orders.Checkout (docs/decisions.md, Catalogue and orders)",
};

/** Every single permission and every role's default permissions, for each role. */
function principals() {
  const list: Array<{ role: string; permissions: string[]; id: string }> = [];
  for (const role of ROLES) {
    list.push({ role, permissions: [...(DEFAULT_PERMISSIONS_BY_ROLE[role] ?? [])], id: 'someone' });
    for (const permission of ALL_PERMISSIONS) list.push({ role, permissions: [permission], id: 'someone' });
  }
  return list;
}

describe('API_ROUTES', () => {
  const entries = Object.entries(API_ROUTES) as Array<[string, ApiAccess]>;

  it.each(entries.filter(([key]) => requiredPermissionForEndpoint(key.split(' ')[0], key.split(' ')[1].replaceAll(':id', '1')) && !LOOSER_BY_DECISION[key]))(
    '%s is never looser than the endpoint map',
    (key, access) => {
      const [method, path] = key.split(' ');
      for (const principal of principals()) {
        if (mayCallApi(principal, access))
          expect(canCallEndpoint(principal, method, path.replaceAll(':id', '1')), `${principal.role} ${principal.permissions}`).toBe(true);
      }
    },
  );

  it('keeps every user route for administrators, as the endpoint map does', () => {
    for (const [key, access] of entries.filter(([key]) => / \/users(\/|$)/.test(key))) {
      expect(access, key).toEqual({ requires: { adminOnly: true } });
    }
  });

  it('lets an account read its own partner application, and no one else without Partners.Read', () => {
    const access = API_ROUTES['GET /partner/partners/:id'];
    const member = { role: 'partner_user', permissions: ['Projects.Read'], id: 'member' };
    expect(mayCallApi(member, access, 'member')).toBe(true);
    expect(mayCallApi(member, access, 'owner')).toBe(false);
    expect(mayCallApi({ ...member, permissions: ['Partners.Read'] }, access, 'owner')).toBe(true);
  });
});
