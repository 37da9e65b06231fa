/** The permission catalogue: every permission string the portal knows, with labels and picker groups. */

import type { Role } from './roles';

/** Each category with its actions, in catalogue order. A permission is `Category.Action`. */
export const PERMISSION_CATALOGUE = {
  Projects: ['Read', 'Create', 'Update', 'Delete'],
  Orders: ['Read', 'Create', 'Update', 'Delete', 'Track', 'Browse', 'Checkout', 'Shipping'],
  Rebates: ['Read', 'Create', 'Update', 'Delete', 'Overview'],
  Support: ['Read', 'Create', 'Update', 'Delete'],
  Users: ['Read', 'Create', 'Update', 'Delete'],
  Partners: ['Read', 'Create', 'Update', 'Delete'],
  Leads: ['Read', 'Create', 'Update'],
  MDF: ['Read', 'Create', 'Update'],
  Learning: ['Read', 'Update'],
} as const;

export type PermissionCategory = keyof typeof PERMISSION_CATALOGUE;
export type PermissionAction<C extends PermissionCategory = PermissionCategory> = (typeof PERMISSION_CATALOGUE)[C][number];
export type Permission = { [C in PermissionCategory]: `${C}.${PermissionAction<C>}` }[PermissionCategory];

export const PERMISSION_CATEGORIES = Object.keys(PERMISSION_CATALOGUE) as PermissionCategory[];

export function permissionsOfCategory(category: PermissionCategory): Permission[] {
  return PERMISSION_CATALOGUE[category].map((action) => `${category}.${action}` as Permission);
}

/** Every permission, in catalogue order. */
export const ALL_PERMISSIONS: readonly Permission[] = PERMISSION_CATEGORIES.flatMap(permissionsOfCategory);

const KNOWN = new Set<string>(ALL_PERMISSIONS);

/** True only for a current permission name, spelled exactly (legacy names are not permissions). */
export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && KNOWN.has(value);
}

export function categoryOf(permission: Permission): PermissionCategory {
  return permission.slice(0, permission.indexOf('.')) as PermissionCategory;
}

/** Labels shown in permission pickers and permission lists. */
export const PERMISSION_LABELS: Readonly<Record<Permission, string>> = {
  'Projects.Read': 'View Projects',
  'Projects.Create': 'Create Projects',
  'Projects.Update': 'Edit Projects',
  'Projects.Delete': 'Delete Projects',
  'Orders.Read': 'View Orders',
  'Orders.Create': 'Create Orders',
  'Orders.Update': 'Edit Orders',
  'Orders.Delete': 'Delete Orders',
  'Orders.Track': 'Track Orders',
  'Orders.Browse': 'Browse Products',
  'Orders.Checkout': 'Checkout',
  'Orders.Shipping': 'Manage Shipping',
  'Rebates.Read': 'View Rebates',
  'Rebates.Create': 'Submit Rebates',
  'Rebates.Update': 'Edit Rebates',
  'Rebates.Delete': 'Delete Rebates',
  'Rebates.Overview': 'Rebate Overview',
  'Support.Read': 'Access Support',
  'Support.Create': 'Create Support Cases',
  'Support.Update': 'Update Support Cases',
  'Support.Delete': 'Delete Support Cases',
  'Users.Read': 'View Users',
  'Users.Create': 'Create Users',
  'Users.Update': 'Edit Users',
  'Users.Delete': 'Delete Users',
  'Partners.Read': 'View Partners',
  'Partners.Create': 'Create Partners',
  'Partners.Update': 'Edit Partners',
  'Partners.Delete': 'Delete Partners',
  'Leads.Read': 'View Leads',
  'Leads.Create': 'Create and Import Leads',
  'Leads.Update': 'Work Leads',
  'MDF.Read': 'View Marketing Funds',
  'MDF.Create': 'Request Marketing Funds',
  'MDF.Update': 'Edit Fund Requests',
  'Learning.Read': 'Learn and View Certifications',
  'Learning.Update': 'Manage Courses',
};

export function permissionLabel(permission: Permission): string {
  return PERMISSION_LABELS[permission];
}

export interface PermissionGroup {
  readonly key: string;
  readonly title: string;
  readonly permissions: readonly Permission[];
}

export const PERMISSION_GROUP_KEYS = ['PROJECTS', 'ORDERS', 'REBATES', 'SUPPORT', 'USERS', 'PARTNERS', 'LEADS', 'MDF', 'LEARNING'] as const;
export type PermissionGroupKey = (typeof PERMISSION_GROUP_KEYS)[number];

/** One group per category, for the full permission picker (admin user management). */
export const PERMISSION_GROUPS: Readonly<Record<PermissionGroupKey, PermissionGroup>> = {
  PROJECTS: { key: 'PROJECTS', title: 'Projects', permissions: permissionsOfCategory('Projects') },
  ORDERS: { key: 'ORDERS', title: 'Orders', permissions: permissionsOfCategory('Orders') },
  REBATES: { key: 'REBATES', title: 'Rebates', permissions: permissionsOfCategory('Rebates') },
  SUPPORT: { key: 'SUPPORT', title: 'Support', permissions: permissionsOfCategory('Support') },
  USERS: { key: 'USERS', title: 'Users', permissions: permissionsOfCategory('Users') },
  PARTNERS: { key: 'PARTNERS', title: 'Partners', permissions: permissionsOfCategory('Partners') },
  LEADS: { key: 'LEADS', title: 'Leads', permissions: permissionsOfCategory('Leads') },
  MDF: { key: 'MDF', title: 'Marketing Funds', permissions: permissionsOfCategory('MDF') },
  LEARNING: { key: 'LEARNING', title: 'Learning', permissions: permissionsOfCategory('Learning') },
};

/** The picker of the Approve Partner dialog (role partner). Group titles are the specification's. */
export const PARTNER_APPROVAL_PERMISSION_GROUPS: readonly PermissionGroup[] = [
  { key: 'PROJECTS', title: 'Projects', permissions: ['Projects.Read', 'Projects.Create', 'Projects.Update'] },
  { key: 'ORDERS', title: 'Orders', permissions: ['Orders.Track', 'Orders.Browse', 'Orders.Checkout', 'Orders.Shipping'] },
  { key: 'REBATES', title: 'Rebate', permissions: ['Rebates.Read', 'Rebates.Create', 'Rebates.Overview'] },
  { key: 'SUPPORT', title: 'Support', permissions: ['Support.Read'] },
  { key: 'LEADS', title: 'Leads', permissions: ['Leads.Read', 'Leads.Update'] },
  { key: 'MDF', title: 'Marketing Funds', permissions: ['MDF.Read', 'MDF.Create', 'MDF.Update'] },
  { key: 'LEARNING', title: 'Learning', permissions: ['Learning.Read'] },
];

const withoutCategories = (...excluded: PermissionCategory[]): readonly Permission[] =>
  ALL_PERMISSIONS.filter((permission) => !excluded.includes(categoryOf(permission)));

/**
 * The most a user of each role may be granted.
 *
 * - Admins: everything (they pass every check anyway).
 * - Partner, distributor, manufacturer and support accounts: any permission outside Users. Managing
 *   user accounts (Users.*) stays with administrators; everything else is the granting admin's choice.
 * - Sub-users: any permission outside Users and Partners (a team member neither manages accounts nor
 *   partner records). A partner or distributor may grant a sub-user only those of this ceiling that it
 *   holds itself; see `grantablePermissions`.
 */
export const ASSIGNABLE_PERMISSIONS_BY_ROLE: Readonly<Record<Role, readonly Permission[]>> = {
  admin: ALL_PERMISSIONS,
  administrator: ALL_PERMISSIONS,
  partner: withoutCategories('Users'),
  distributor: withoutCategories('Users'),
  manufacturer: withoutCategories('Users'),
  support: withoutCategories('Users'),
  partner_user: withoutCategories('Users', 'Partners'),
  distributor_user: withoutCategories('Users', 'Partners'),
};
