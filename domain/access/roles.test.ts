import { describe, expect, it } from 'vitest';
import {
  isAdminRole,
  isRole,
  isSubUserRole,
  LANDING_ROUTES,
  landingRouteFor,
  PARENT_ROLE_OF_SUB_USER,
  ROLE_LABELS,
  ROLES,
  seesAllOrganisations,
  SUB_USER_ROLE_OF_PARENT,
} from './index';

describe('landing routes', () => {
  it.each([
    ['admin', '/'],
    ['administrator', '/'],
    ['partner', '/partnerdashboard'],
    ['distributor', '/distributordashboard'],
    ['manufacturer', '/manufacturerdashboard'],
    ['support', '/support-dashboard'],
    ['partner_user', '/sub-user-dashboard'],
    ['distributor_user', '/sub-user-dashboard'],
  ])('%s lands on %s', (role, route) => {
    expect(landingRouteFor(role)).toBe(route);
  });

  it.each([[''], ['guest'], ['Admin'], ['constructor'], ['__proto__'], [null], [undefined]])('%s lands on /', (role) => {
    expect(landingRouteFor(role)).toBe('/');
  });

  it('covers every role', () => {
    expect(Object.keys(LANDING_ROUTES).sort()).toEqual([...ROLES].sort());
  });
});

describe('role predicates', () => {
  it.each(ROLES.map((role) => [role]))('%s is a role with a label', (role) => {
    expect(isRole(role)).toBe(true);
    expect(ROLE_LABELS[role]).toMatch(/\S/);
  });

  it.each([
    ['admin', true, false],
    ['administrator', true, false],
    ['partner', false, false],
    ['distributor', false, false],
    ['manufacturer', false, false],
    ['support', false, false],
    ['partner_user', false, true],
    ['distributor_user', false, true],
    ['ADMIN', false, false],
    ['', false, false],
  ])('%s: admin %s, sub-user %s', (role, admin, subUser) => {
    expect(isAdminRole(role)).toBe(admin);
    expect(isSubUserRole(role)).toBe(subUser);
  });

  it('knows the parent of each sub-user role and back', () => {
    expect(PARENT_ROLE_OF_SUB_USER).toEqual({ partner_user: 'partner', distributor_user: 'distributor' });
    expect(SUB_USER_ROLE_OF_PARENT).toEqual({ partner: 'partner_user', distributor: 'distributor_user' });
  });

  it.each([
    ['admin', true],
    ['administrator', true],
    ['support', true],
    ['manufacturer', true],
    ['partner', false],
    ['distributor', false],
    ['partner_user', false],
    ['distributor_user', false],
  ])('%s sees all organisations: %s', (role, all) => {
    expect(seesAllOrganisations(role)).toBe(all);
  });
});
