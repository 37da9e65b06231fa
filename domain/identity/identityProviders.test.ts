import { describe, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import {
  IDENTITY_PROVIDER_MESSAGES,
  identityProviders,
  type IdentityProviderCommand,
  type IdentityProviderEvent,
  type IdentityProviderSettings,
} from './identityProviders';

const spec = deciderSpec(identityProviders);
const admin = { actorRole: 'admin' };
const settings: IdentityProviderSettings = {
  slug: 'acme',
  name: 'Acme Identity',
  issuer: 'https://login.acme.example',
  clientId: 'partnerhub',
  allowedDomains: ['acme.example'],
  organisationId: null,
  role: 'partner',
  domainOrganisations: {},
  active: true,
};
const configure: IdentityProviderCommand = { type: 'ConfigureIdentityProvider', providerId: 'p-1', clientSecret: 's3cret', ...settings };
const configured: IdentityProviderEvent = { type: 'IdentityProviderConfigured.v1', data: { providerId: 'p-1', ...settings, clientSecret: 's3cret' } };

describe('identity providers', () => {
  it('configures one, tidied (issuer without trailing slash, domains lower-case and sorted)', () =>
    spec
      .given([])
      .when({ ...configure, issuer: 'https://login.acme.example/', allowedDomains: ['Zeta.example', 'acme.example ', 'acme.example'] }, admin)
      .then([{ ...configured, data: { ...configured.data, allowedDomains: ['acme.example', 'zeta.example'] } } as IdentityProviderEvent]));
  it.each(['partner', 'support', null])('a %s may not configure one', (actorRole) =>
    spec.given([]).when(configure, { actorRole }).thenThrows(IDENTITY_PROVIDER_MESSAGES.onlyAdmins),
  );
  it('refuses http except to this machine', () => {
    spec
      .given([])
      .when({ ...configure, issuer: 'http://login.acme.example' }, admin)
      .thenThrows(IDENTITY_PROVIDER_MESSAGES.issuerInvalid);
    spec
      .given([])
      .when({ ...configure, issuer: 'http://127.0.0.1:4000' }, admin)
      .then([{ ...configured, data: { ...configured.data, issuer: 'http://127.0.0.1:4000' } } as IdentityProviderEvent]);
  });
  it('refuses a bad short name, a bad domain, a mapping outside the allowed domains, a missing secret', () => {
    spec
      .given([])
      .when({ ...configure, slug: 'Acme SSO' }, admin)
      .thenThrows(IDENTITY_PROVIDER_MESSAGES.slugInvalid);
    spec
      .given([])
      .when({ ...configure, allowedDomains: ['not a domain'] }, admin)
      .thenThrows(IDENTITY_PROVIDER_MESSAGES.domainInvalid('not a domain'));
    spec
      .given([])
      .when({ ...configure, domainOrganisations: { 'other.example': 'o-1' } }, admin)
      .thenThrows(IDENTITY_PROVIDER_MESSAGES.mappedDomainNotAllowed('other.example'));
    spec
      .given([])
      .when({ ...configure, clientSecret: ' ' }, admin)
      .thenThrows(IDENTITY_PROVIDER_MESSAGES.clientSecretRequired);
  });
  it('refuses to configure the same provider twice', () => spec.given([configured]).when(configure, admin).thenThrows(IDENTITY_PROVIDER_MESSAGES.exists));
  it('a change without a new secret keeps the secret and says so', () =>
    spec
      .given([configured])
      .when({ type: 'ChangeIdentityProvider', ...settings, name: 'Acme SSO' }, admin)
      .then([{ type: 'IdentityProviderChanged.v1', data: { providerId: 'p-1', ...settings, name: 'Acme SSO', secretChanged: false } }]));
  it('a change to nothing records nothing', () =>
    spec
      .given([configured])
      .when({ type: 'ChangeIdentityProvider', ...settings }, admin)
      .then([]));
  it('a new secret alone is a change', () =>
    spec
      .given([configured])
      .when({ type: 'ChangeIdentityProvider', ...settings, clientSecret: 'new' }, admin)
      .then([{ type: 'IdentityProviderChanged.v1', data: { providerId: 'p-1', ...settings, secretChanged: true, clientSecret: 'new' } }]));
  it('removes one, once', () => {
    spec
      .given([configured])
      .when({ type: 'RemoveIdentityProvider' }, admin)
      .then([{ type: 'IdentityProviderRemoved.v1', data: { providerId: 'p-1', slug: 'acme' } }]);
    spec
      .given([configured, { type: 'IdentityProviderRemoved.v1', data: { providerId: 'p-1', slug: 'acme' } }])
      .when({ type: 'RemoveIdentityProvider' }, admin)
      .thenThrows(IDENTITY_PROVIDER_MESSAGES.notFound);
  });
});
