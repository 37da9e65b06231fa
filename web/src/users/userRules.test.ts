import type { UserView } from '@contracts/identity';
import { describe, expect, it } from 'vitest';
import {
  createPayload,
  deleteConfirmation,
  emailRule,
  newUserPasswordRule,
  optionalPasswordRule,
  requiredFullName,
  requiredRole,
  updatePayload,
  usersForList,
} from './userRules';

const user = (id: string, role: string): UserView => ({
  id,
  role,
  full_name: id,
  email: `${id}@x.test`,
  is_active: true,
  status: 'active',
  company_name: null,
  company: null,
  permissions: [],
  effectivePermissions: [],
  parent_user_id: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

describe('Add User validation', () => {
  it('uses the messages of the specification', () => {
    expect(requiredFullName(' ')).toBe('Full name is required.');
    expect(emailRule('')).toBe('Email is required.');
    expect(emailRule('nope')).toBe('Email is invalid.');
    expect(emailRule('a@b.co')).toBeUndefined();
    expect(newUserPasswordRule('')).toBe('Password is required.');
    expect(newUserPasswordRule('abc')).toBe('Password must be at least 6 characters.');
    expect(optionalPasswordRule('')).toBeUndefined();
    expect(requiredRole('')).toBe('Role is required.');
  });
});

describe('user list', () => {
  it('puts admins first and hides sub-users', () => {
    const list = usersForList([user('p', 'partner'), user('a', 'admin'), user('s', 'partner_user'), user('d', 'distributor'), user('b', 'administrator')]);
    expect(list.map((u) => u.id)).toEqual(['a', 'b', 'p', 'd']);
  });

  it('asks before deleting', () => {
    expect(deleteConfirmation('Dana')).toBe('Are you sure you want to delete user Dana? This action cannot be undone.');
  });
});

describe('payloads', () => {
  it('creates inactive users', () => {
    expect(createPayload({ full_name: ' Dana ', email: 'd@x.test', password: 'Secret1', role: 'support', permissions: ['Support.Read'] })).toEqual({
      full_name: 'Dana',
      email: 'd@x.test',
      password: 'Secret1',
      role: 'support',
      is_active: false,
      permissions: ['Support.Read'],
    });
  });

  it('keeps the role and sends a new password only from an admin', () => {
    const record = user('d', 'distributor');
    const values = { full_name: 'D', email: 'd@x.test', role: 'support', is_active: true, permissions: [], password: 'Secret9' };
    expect(updatePayload(record, values, true)).toMatchObject({ role: 'distributor', password: 'Secret9' });
    expect(updatePayload(record, values, false)).not.toHaveProperty('password');
    expect(updatePayload(record, { ...values, password: '' }, true)).not.toHaveProperty('password');
  });
});
