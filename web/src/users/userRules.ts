/** The Add/Edit User rules of spec 002 §5 and the list's display rules, as pure functions. */

import type { UserView } from '@contracts/identity';
import { isAdminRole, isSubUserRole } from '../../../domain/access';
import { EMAIL_SHAPE, PASSWORD_MIN } from '../auth/validation';

export const ADDABLE_ROLES = ['distributor', 'manufacturer', 'support'] as const;
export type AddableRole = (typeof ADDABLE_ROLES)[number];

export const ADMIN_DELETE_REFUSED = 'Admin users cannot be deleted for security reasons.';

export const requiredFullName = (value: unknown) => (typeof value === 'string' && value.trim() ? undefined : 'Full name is required.');

export function emailRule(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return 'Email is required.';
  return EMAIL_SHAPE.test(value.trim()) ? undefined : 'Email is invalid.';
}

export function newUserPasswordRule(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value) return 'Password is required.';
  return value.length < PASSWORD_MIN ? `Password must be at least ${PASSWORD_MIN} characters.` : undefined;
}

/** On edit the password is optional; when given it follows the same length rule. */
export function optionalPasswordRule(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? newUserPasswordRule(value) : undefined;
}

export const requiredRole = (value: unknown) => (typeof value === 'string' && value ? undefined : 'Role is required.');

export const deleteConfirmation = (name: string) => `Are you sure you want to delete user ${name}? This action cannot be undone.`;

export const companyOf = (user: UserView): string => user.company_name ?? user.company?.company_name ?? '';

export const permissionsOf = (user: UserView): string[] => user.effectivePermissions ?? user.permissions ?? [];

/** The list shows admins first and never shows sub-users (the server orders and filters too). */
export function usersForList(users: readonly UserView[]): UserView[] {
  return users
    .filter((user) => !isSubUserRole(user.role))
    .map((user, index) => ({ user, index }))
    .sort((a, b) => Number(isAdminRole(b.user.role)) - Number(isAdminRole(a.user.role)) || a.index - b.index)
    .map(({ user }) => user);
}

export interface UserFormValues {
  full_name: string;
  email: string;
  password?: string;
  role: string;
  is_active?: boolean;
  permissions?: string[];
  company_name?: string | null;
}

/** POST /api/users body. New users start inactive. */
export function createPayload(values: UserFormValues) {
  const payload: Record<string, unknown> = {
    full_name: values.full_name.trim(),
    email: values.email.trim(),
    password: values.password ?? '',
    role: values.role,
    is_active: false,
    permissions: values.permissions ?? [],
  };
  if (values.company_name?.trim()) payload.company_name = values.company_name.trim();
  return payload;
}

/** PUT /api/users/:id body: the role is unchanged; the password only from an admin and only when typed. */
export function updatePayload(record: UserView, values: UserFormValues, actorIsAdmin: boolean) {
  const payload: Record<string, unknown> = {
    id: record.id,
    full_name: values.full_name.trim(),
    email: values.email.trim(),
    role: record.role,
    is_active: Boolean(values.is_active),
    permissions: values.permissions ?? [],
  };
  const company = values.company_name?.trim();
  if (company || companyOf(record)) payload.company_name = company ?? '';
  if (actorIsAdmin && values.password) payload.password = values.password;
  return payload;
}

/** MUI colours of the role badges: partner green, distributor purple, manufacturer teal, support amber. */
export const ROLE_BADGE_COLOURS: Record<string, { bg: string; fg: string }> = {
  admin: { bg: '#e3f2fd', fg: '#0d47a1' },
  administrator: { bg: '#e3f2fd', fg: '#0d47a1' },
  partner: { bg: '#e8f5e9', fg: '#1b5e20' },
  distributor: { bg: '#f3e5f5', fg: '#6a1b9a' },
  manufacturer: { bg: '#e0f2f1', fg: '#00695c' },
  support: { bg: '#fff8e1', fg: '#8d6e00' },
};

/** The roles User Management lists and filters by (sub-users are managed by their organisation). */
export const LISTED_ROLES = ['admin', 'partner', 'distributor', 'manufacturer', 'support'] as const;
