import { describe, expect, it } from 'vitest';
import { firstFive, groupPermissions, showingText, validateTeamMember, type TeamMemberForm } from './teamRules';

const valid: TeamMemberForm = {
  firstName: 'Lena',
  lastName: 'Fischer',
  email: 'lena@northwind.test',
  password: 'Secret1',
  permissions: ['projects_read'],
  isActive: true,
  invite: false,
};

describe('the sub-user form', () => {
  it('accepts a complete form', () => expect(validateTeamMember(valid, 'create')).toEqual({}));
  it.each<[Partial<TeamMemberForm>, string, string]>([
    [{ firstName: '' }, 'firstName', 'First name is required'],
    [{ firstName: 'L' }, 'firstName', 'First name must be at least 2 characters'],
    [{ lastName: ' ' }, 'lastName', 'Last name is required'],
    [{ lastName: 'F' }, 'lastName', 'Last name must be at least 2 characters'],
    [{ email: '' }, 'email', 'Email is required'],
    [{ email: 'lena@' }, 'email', 'Invalid email format'],
    [{ password: '' }, 'password', 'Password is required'],
    [{ password: 'abc' }, 'password', 'Password must be at least 6 characters'],
    [{ permissions: [] }, 'permissions', 'Please select at least one permission'],
  ])('%o → %s: %s', (change, field, message) => {
    expect(validateTeamMember({ ...valid, ...change }, 'create')).toEqual({ [field]: message });
  });
  it('keeps the password on edit when left blank', () => expect(validateTeamMember({ ...valid, password: '' }, 'edit')).toEqual({}));
  it('needs no password for an invitation', () => expect(validateTeamMember({ ...valid, password: '', invite: true }, 'create')).toEqual({}));
});

describe('the details view', () => {
  it('groups permissions by the text before the first underscore', () => {
    expect(groupPermissions(['projects_read', 'orders_track', 'projects_create'])).toEqual([
      { category: 'projects', actions: ['read', 'create'] },
      { category: 'orders', actions: ['track'] },
    ]);
  });
  it('lists five names, then +N more', () => {
    expect(firstFive(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toEqual({ shown: ['a', 'b', 'c', 'd', 'e'], more: '+2 more' });
    expect(firstFive(['a'])).toEqual({ shown: ['a'], more: null });
  });
  it('says which members are shown', () => {
    expect(showingText(2, 10, 3, 13)).toBe('Showing 11 to 13 of 13 team members');
    expect(showingText(1, 10, 0, 0)).toBe('Showing 0 to 0 of 0 team members');
  });
});
