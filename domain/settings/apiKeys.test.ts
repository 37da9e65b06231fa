import { describe, expect, it } from 'vitest';
import { apiKeyPermissions, LEGACY_READ_SCOPES, routesOfScope, scopesAllow, scopesBeyond, scopesFor, scopesForRoute } from '../access/apiKeyScopes';
import { API_ROUTES } from '../access/api';
import { DEFAULT_PERMISSIONS_BY_ROLE } from '../access/defaults';
import { deciderSpec, testMetadata } from '../deciderSpec';
import { fold } from '../decider';
import { API_KEY_MESSAGES, apiKeys, type ApiKeyEvent } from './apiKeys';

const NOW = testMetadata().now; // 2026-11-21T10:00:00.000Z
const ORG = '11111111-1111-4111-8111-111111111111';
const partner = { actorRole: 'partner', actorId: ORG };
const keys = deciderSpec(apiKeys);

const vendorCreate = {
  type: 'CreateApiKey' as const,
  keyId: 'k1',
  name: '  Finance   BI ',
  prefix: 'phk_abcd',
  keyHash: 'f'.repeat(64),
  scopes: ['orders:read' as const],
  owner: { kind: 'vendor' as const },
};
const vendorCreated: ApiKeyEvent = {
  type: 'ApiKeyCreated.v2',
  data: {
    keyId: 'k1',
    name: 'Finance BI',
    prefix: 'phk_abcd',
    keyHash: 'f'.repeat(64),
    scopes: ['orders:read'],
    ownerKind: 'vendor',
    organisationId: null,
    expiresAt: '2027-02-19T10:00:00.000Z',
    rateLimitPerMinute: 120,
  },
};
const orgCreate = {
  ...vendorCreate,
  name: 'CRM sync',
  scopes: ['projects:write' as const, 'orders:read' as const],
  owner: { kind: 'organisation' as const, organisationId: ORG },
  ownerPermissions: [...DEFAULT_PERMISSIONS_BY_ROLE.partner],
  expiresAt: '2027-01-01T00:00:00Z',
  rateLimitPerMinute: 30,
};
const orgCreated: ApiKeyEvent = {
  type: 'ApiKeyCreated.v2',
  data: {
    keyId: 'k1',
    name: 'CRM sync',
    prefix: 'phk_abcd',
    keyHash: 'f'.repeat(64),
    scopes: ['projects:write', 'orders:read'],
    ownerKind: 'organisation',
    organisationId: ORG,
    expiresAt: '2027-01-01T00:00:00.000Z',
    rateLimitPerMinute: 30,
  },
};

describe('API key scopes', () => {
  it('derive their routes from API_ROUTES: a write scope only writes, a read scope only reads, never an administrators-only route', () => {
    expect(routesOfScope('projects:write', 'organisation')).toContain('POST /projects');
    expect(routesOfScope('projects:write', 'organisation')).not.toContain('GET /projects');
    expect(routesOfScope('projects:write', 'organisation')).not.toContain('POST /projects/:id/review');
    expect(routesOfScope('orders:read', 'organisation')).toEqual(expect.arrayContaining(['GET /orders', 'GET /orders/:id']));
    for (const scope of scopesFor('vendor').concat(scopesFor('organisation'))) {
      for (const owner of ['vendor', 'organisation'] as const) {
        for (const route of routesOfScope(scope, owner)) {
          expect(Object.hasOwn(API_ROUTES, route), route).toBe(true);
          const access = API_ROUTES[route];
          expect('requires' in access && !('adminOnly' in access.requires), route).toBe(true);
        }
      }
    }
  });
  it('a vendor leads:write key creates and imports leads only; an organisation one works the leads offered to it', () => {
    expect([...routesOfScope('leads:write', 'vendor')].sort()).toEqual(['POST /leads', 'POST /leads/import']);
    expect(routesOfScope('leads:write', 'organisation')).toContain('POST /leads/:id/accept');
    expect(scopesFor('vendor')).not.toContain('projects:write');
    expect(scopesFor('organisation')).not.toContain('partners:read');
  });
  it('allow a route only with a scope naming it (HEAD as GET); OpenAPI names the scopes of each route', () => {
    expect(scopesAllow(['projects:read'], 'organisation', 'GET', '/projects/:id')).toBe(true);
    expect(scopesAllow(['projects:read'], 'organisation', 'HEAD', '/projects')).toBe(true);
    expect(scopesAllow(['projects:read'], 'organisation', 'POST', '/projects')).toBe(false);
    expect(scopesAllow(['orders:read'], 'organisation', 'GET', '/projects')).toBe(false);
    expect(scopesAllow(LEGACY_READ_SCOPES, 'vendor', 'GET', '/users')).toBe(false);
    expect(scopesForRoute('POST /projects')).toEqual(['projects:write']);
    expect(scopesForRoute('GET /settings/api-keys')).toEqual([]);
  });
  it("an organisation key acts with at most its owner's permissions; a vendor key with its scopes' grant", () => {
    expect(apiKeyPermissions(['projects:write'], 'organisation', ['Projects.Read', 'Projects.Create']).sort()).toEqual(['Projects.Create', 'Projects.Read']);
    expect(apiKeyPermissions(['projects:write', 'orders:read'], 'organisation', ['Orders.Track'])).toEqual(['Orders.Track']);
    expect(apiKeyPermissions(['leads:write'], 'vendor')).toEqual(['Leads.Create']);
    expect(scopesBeyond(['projects:write', 'funds:read'], ['Projects.Create'])).toEqual(['funds:read']);
    // Browsing the catalogue is not placing orders: a scope must let the key call at least one of its routes.
    expect(scopesBeyond(['orders:write', 'catalogue:read'], ['Orders.Browse'], 'distributor')).toEqual(['orders:write']);
  });
});

describe('API keys', () => {
  describe('creating', () => {
    it('an administrator creates a vendor key: trimmed name, default expiry and rate limit; a retry changes nothing', () => {
      keys.given([]).when(vendorCreate).then([vendorCreated]);
      keys.given([vendorCreated]).when(vendorCreate).then([]);
    });
    it("an organisation's owner creates a key for it, with the expiry and limit chosen", () => {
      keys.given([]).when(orgCreate, partner).then([orgCreated]);
    });
    it('records each scope once, in catalogue order', () => {
      keys
        .given([])
        .when({ ...orgCreate, scopes: ['orders:read', 'projects:write', 'orders:read'] }, partner)
        .then([orgCreated]);
    });
    it('refuses anyone but administrators for vendor keys and anyone but the owner account for an organisation', () => {
      keys.given([]).when(vendorCreate, { actorRole: 'support' }).thenThrows(API_KEY_MESSAGES.onlyAdmins, 'INSUFFICIENT_PERMISSIONS');
      keys.given([]).when(orgCreate, { actorRole: 'partner', actorId: 'someone-else' }).thenThrows(API_KEY_MESSAGES.onlyOwner, 'INSUFFICIENT_PERMISSIONS');
      keys.given([]).when(orgCreate, { actorRole: 'partner_user', actorId: ORG }).thenThrows(API_KEY_MESSAGES.onlyOwner, 'INSUFFICIENT_PERMISSIONS');
      keys.given([]).when(orgCreate, { actorRole: 'admin' }).thenThrows(API_KEY_MESSAGES.onlyOwner, 'INSUFFICIENT_PERMISSIONS');
    });
    it("refuses scopes beyond the organisation's permissions, and scopes not offered to the owner kind", () => {
      keys
        .given([])
        .when({ ...orgCreate, ownerPermissions: ['Orders.Track'] }, partner)
        .thenThrows(API_KEY_MESSAGES.scopeBeyondRole(['projects:write']), 'SCOPE_BEYOND_ROLE');
      keys
        .given([])
        .when({ ...orgCreate, scopes: ['partners:read'] }, partner)
        .thenThrows(API_KEY_MESSAGES.scopeNotForOwner(['partners:read']), 'VALIDATION_ERROR');
      keys
        .given([])
        .when({ ...vendorCreate, scopes: ['projects:write'] })
        .thenThrows(API_KEY_MESSAGES.scopeNotForOwner(['projects:write']), 'VALIDATION_ERROR');
      keys
        .given([])
        .when({ ...vendorCreate, scopes: [] })
        .thenThrows(API_KEY_MESSAGES.scopeRequired);
    });
    it('refuses a missing name, an expiry in the past or more than a year ahead, and a rate limit out of range', () => {
      keys
        .given([])
        .when({ ...vendorCreate, name: ' ' })
        .thenThrows(API_KEY_MESSAGES.nameRequired);
      keys
        .given([])
        .when({ ...vendorCreate, expiresAt: NOW })
        .thenThrows(API_KEY_MESSAGES.expiryInPast);
      keys
        .given([])
        .when({ ...vendorCreate, expiresAt: '2027-11-22T10:00:00.000Z' })
        .thenThrows(API_KEY_MESSAGES.expiryTooFar);
      keys
        .given([])
        .when({ ...vendorCreate, expiresAt: '2027-11-21T10:00:00.000Z' })
        .then([{ ...vendorCreated, data: { ...vendorCreated.data, expiresAt: '2027-11-21T10:00:00.000Z' } } as ApiKeyEvent]);
      keys
        .given([])
        .when({ ...vendorCreate, rateLimitPerMinute: 0 })
        .thenThrows(API_KEY_MESSAGES.rateLimitInvalid);
    });
    it('reads keys made before owners and expiry as vendor keys with the reads they always had, never expiring', () => {
      const legacy: ApiKeyEvent = { type: 'ApiKeyCreated.v1', data: { keyId: 'k0', name: 'Old', prefix: 'phk_old', scopes: ['leads:write'] } };
      const state = fold(apiKeys, [legacy]);
      expect(state).toMatchObject({ status: 'active', owner: { kind: 'vendor' }, expiresAt: null });
      expect(state.status !== 'none' && [...state.scopes].sort()).toEqual([...LEGACY_READ_SCOPES, 'leads:write'].sort());
    });
  });

  describe('rotating', () => {
    const rotate = { type: 'RotateApiKey' as const, prefix: 'phk_new1', keyHash: 'e'.repeat(64), overlapHours: 24 };
    it('gives a new secret and keeps the old one until the overlap ends', () => {
      keys
        .given([orgCreated])
        .when(rotate, partner)
        .then([
          {
            type: 'ApiKeyRotated.v1',
            data: {
              keyId: 'k1',
              name: 'CRM sync',
              prefix: 'phk_new1',
              keyHash: 'e'.repeat(64),
              previousValidUntil: '2026-11-22T10:00:00.000Z',
              organisationId: ORG,
            },
          },
        ]);
      keys
        .given([orgCreated])
        .when({ ...rotate, overlapHours: 0 }, partner)
        .then([
          {
            type: 'ApiKeyRotated.v1',
            data: { keyId: 'k1', name: 'CRM sync', prefix: 'phk_new1', keyHash: 'e'.repeat(64), previousValidUntil: NOW, organisationId: ORG },
          },
        ]);
    });
    it('never lets the old secret outlive the key', () => {
      keys
        .given([orgCreated])
        .when({ ...rotate, overlapHours: 168 }, { ...partner, now: '2026-12-31T12:00:00.000Z' })
        .then([
          {
            type: 'ApiKeyRotated.v1',
            data: {
              keyId: 'k1',
              name: 'CRM sync',
              prefix: 'phk_new1',
              keyHash: 'e'.repeat(64),
              previousValidUntil: '2027-01-01T00:00:00.000Z',
              organisationId: ORG,
            },
          },
        ]);
    });
    it('refuses an overlap out of range, an expired or revoked key, and anyone but its owner', () => {
      keys
        .given([orgCreated])
        .when({ ...rotate, overlapHours: 169 }, partner)
        .thenThrows(API_KEY_MESSAGES.overlapInvalid);
      keys
        .given([orgCreated])
        .when(rotate, { ...partner, now: '2027-01-01T00:00:00.000Z' })
        .thenThrows(API_KEY_MESSAGES.expired, 'API_KEY_EXPIRED');
      keys
        .given([orgCreated, { type: 'ApiKeyRevoked.v1', data: { keyId: 'k1', name: 'CRM sync', organisationId: ORG } }])
        .when(rotate, partner)
        .thenThrows(API_KEY_MESSAGES.alreadyRevoked, 'ALREADY_REVOKED');
      keys.given([orgCreated]).when(rotate, { actorRole: 'admin' }).thenThrows(API_KEY_MESSAGES.onlyOwner);
      keys.given([vendorCreated]).when(rotate, partner).thenThrows(API_KEY_MESSAGES.onlyAdmins);
      keys.given([]).when(rotate).thenThrows(API_KEY_MESSAGES.notFound, 'NOT_FOUND');
    });
  });

  describe('revoking', () => {
    it('revokes an active key once, by its manager', () => {
      keys
        .given([vendorCreated])
        .when({ type: 'RevokeApiKey' })
        .then([{ type: 'ApiKeyRevoked.v1', data: { keyId: 'k1', name: 'Finance BI', organisationId: null } }]);
      keys
        .given([orgCreated])
        .when({ type: 'RevokeApiKey' }, partner)
        .then([{ type: 'ApiKeyRevoked.v1', data: { keyId: 'k1', name: 'CRM sync', organisationId: ORG } }]);
      keys
        .given([orgCreated])
        .when({ type: 'RevokeApiKey' }, { actorRole: 'admin' })
        .then([{ type: 'ApiKeyRevoked.v1', data: { keyId: 'k1', name: 'CRM sync', organisationId: ORG } }]);
      keys
        .given([vendorCreated, { type: 'ApiKeyRevoked.v1', data: { keyId: 'k1', name: 'Finance BI' } }])
        .when({ type: 'RevokeApiKey' })
        .thenThrows(API_KEY_MESSAGES.alreadyRevoked, 'ALREADY_REVOKED');
      keys.given([orgCreated]).when({ type: 'RevokeApiKey' }, { actorRole: 'distributor', actorId: 'another-org' }).thenThrows(API_KEY_MESSAGES.onlyOwner);
      keys.given([]).when({ type: 'RevokeApiKey' }).thenThrows(API_KEY_MESSAGES.notFound, 'NOT_FOUND');
    });
  });
});
