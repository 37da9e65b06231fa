/**
 * Older permission names and the sub-user `category_action` form, mapped to current permissions.
 * Matching ignores case and surrounding spaces.
 */

import { ALL_PERMISSIONS, PERMISSION_CATALOGUE, PERMISSION_CATEGORIES, type Permission, type PermissionCategory } from './permissions';

/** Whole legacy names. */
export const LEGACY_PERMISSION_NAMES: Readonly<Record<string, Permission>> = {
  'Order create': 'Orders.Create',
  'Order view': 'Orders.Read',
  'Shipment details': 'Orders.Shipping',
  'Delivery status': 'Orders.Track',
  Rebate: 'Rebates.Read',
  // The specification lists these two partner legacy names without a mapping. Product Access
  // gave access to the product catalogue (Orders.Browse); Item delivery showed delivery progress,
  // the same thing as Delivery status (Orders.Track).
  'Product Access': 'Orders.Browse',
  'Item delivery': 'Orders.Track',
};

/** Older category spellings: `Rebate.Read`, `Order.Track`, `rebate_read`. */
export const LEGACY_CATEGORY_NAMES: Readonly<Record<string, PermissionCategory>> = {
  Rebate: 'Rebates',
  Order: 'Orders',
};

const key = (raw: string): string => raw.trim().replace(/\s+/g, ' ').toLowerCase();

/** Every accepted spelling (lower case) to its permission. */
const SPELLINGS = new Map<string, Permission>();
for (const [legacy, permission] of Object.entries(LEGACY_PERMISSION_NAMES)) SPELLINGS.set(key(legacy), permission);
const categoryNames: Array<[string, PermissionCategory]> = [
  ...PERMISSION_CATEGORIES.map((category): [string, PermissionCategory] => [category, category]),
  ...Object.entries(LEGACY_CATEGORY_NAMES),
];
for (const [name, category] of categoryNames) {
  for (const action of PERMISSION_CATALOGUE[category]) {
    const permission = `${category}.${action}` as Permission;
    SPELLINGS.set(key(`${name}.${action}`), permission);
    SPELLINGS.set(key(`${name}_${action}`), permission);
  }
}

/** Names already looked up, as stored (a few dozen spellings are in use): lists read them on every request. */
const RESOLVED = new Map<string, Permission | null>();
const RESOLVED_KEPT = 1000;

/** The current permission a name stands for, or null when the name is unknown. */
export function normalizePermission(raw: unknown): Permission | null {
  if (typeof raw !== 'string') return null;
  let permission = RESOLVED.get(raw);
  if (permission === undefined) {
    permission = SPELLINGS.get(key(raw)) ?? null;
    if (RESOLVED.size < RESOLVED_KEPT) RESOLVED.set(raw, permission);
  }
  return permission;
}

const CATALOGUE_ORDER = new Map<Permission, number>(ALL_PERMISSIONS.map((permission, index) => [permission, index]));

/** Current permissions for a list of names: unknown names dropped, no duplicates, catalogue order. */
export function normalizePermissions(raw: Iterable<unknown> | null | undefined): Permission[] {
  const found = new Set<Permission>();
  for (const name of raw ?? []) {
    const permission = normalizePermission(name);
    if (permission) found.add(permission);
  }
  return [...found].sort((a, b) => CATALOGUE_ORDER.get(a)! - CATALOGUE_ORDER.get(b)!);
}

/** The sub-user spelling of a permission, e.g. `orders_track`. */
export type SubUserPermission = {
  [P in Permission]: P extends `${infer C}.${infer A}` ? `${Lowercase<C>}_${Lowercase<A>}` : never;
}[Permission];

export function toSubUserPermission(permission: Permission): SubUserPermission {
  return permission.replace('.', '_').toLowerCase() as SubUserPermission;
}

export function toSubUserPermissions(raw: Iterable<unknown> | null | undefined): SubUserPermission[] {
  return normalizePermissions(raw).map(toSubUserPermission);
}
