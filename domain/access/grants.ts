/** Who may grant which permissions to whom. */

import { normalizePermission, normalizePermissions } from './legacy';
import { ASSIGNABLE_PERMISSIONS_BY_ROLE, type Permission } from './permissions';
import { isAdminRole, isRole, SUB_USER_ROLE_OF_PARENT } from './roles';
import type { Principal } from './rules';

/**
 * The permissions `actor` may give a user of `targetRole`:
 * - an administrator: everything assignable to that role;
 * - a partner or distributor, to its own sub-user role: the sub-user ceiling, limited to the
 *   permissions the actor holds itself;
 * - anyone else: nothing.
 */
export function grantablePermissions(actor: Principal, targetRole: string): Permission[] {
  if (!isRole(targetRole)) return [];
  const assignable = ASSIGNABLE_PERMISSIONS_BY_ROLE[targetRole];
  if (isAdminRole(actor.role)) return [...assignable];
  const ownSubUserRole = Object.hasOwn(SUB_USER_ROLE_OF_PARENT, actor.role)
    ? SUB_USER_ROLE_OF_PARENT[actor.role as keyof typeof SUB_USER_ROLE_OF_PARENT]
    : undefined;
  if (ownSubUserRole !== targetRole) return [];
  const held = new Set(normalizePermissions(actor.permissions));
  return assignable.filter((permission) => held.has(permission));
}

/** True when every requested name is a known permission that `actor` may give a user of `targetRole`. */
export function canGrantPermissions(actor: Principal, targetRole: string, requested: readonly string[]): boolean {
  const grantable = new Set(grantablePermissions(actor, targetRole));
  return requested.every((name) => {
    const permission = normalizePermission(name);
    return permission !== null && grantable.has(permission);
  });
}
