import { isAdminRole } from '../access/roles';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';

/**
 * The OpenID Connect providers people may sign in with. The client secret is a secret field: the
 * event store keeps it out of the log (domain/personalData.ts), like API key hashes.
 */

export interface IdentityProviderSettings {
  /** The name in the URL (`/api/auth/oidc/<slug>/start`). */
  slug: string;
  /** Shown on the sign-in page: "Sign in with <name>". */
  name: string;
  issuer: string;
  clientId: string;
  /** Lower-case e-mail domains whose people may sign in; empty refuses everyone. */
  allowedDomains: string[];
  /** The organisation (its owner's account) and role new people get; null organisation: their own. */
  organisationId: string | null;
  role: string;
  /** A domain listed here puts its new people in that organisation instead. */
  domainOrganisations: Record<string, string>;
  active: boolean;
}

export type IdentityProviderState = { status: 'none' } | ({ status: 'configured' | 'removed'; providerId: string } & IdentityProviderSettings);

export type IdentityProviderEvent =
  /** `clientSecret` only on the way into the store. */
  | { type: 'IdentityProviderConfigured.v1'; data: IdentityProviderSettings & { providerId: string; clientSecret?: string } }
  /** `clientSecret` only when it changed, and then only on the way into the store. */
  | { type: 'IdentityProviderChanged.v1'; data: IdentityProviderSettings & { providerId: string; clientSecret?: string; secretChanged: boolean } }
  | { type: 'IdentityProviderRemoved.v1'; data: { providerId: string; slug: string } };

export type IdentityProviderCommand =
  | ({ type: 'ConfigureIdentityProvider'; providerId: string; clientSecret: string } & IdentityProviderSettings)
  /** Without `clientSecret` the secret stays as it is. */
  | ({ type: 'ChangeIdentityProvider'; clientSecret?: string } & IdentityProviderSettings)
  | { type: 'RemoveIdentityProvider' };

export const IDENTITY_PROVIDER_MESSAGES = {
  onlyAdmins: 'Only administrators can configure identity providers.',
  notFound: 'There is no such identity provider.',
  exists: 'This identity provider already exists.',
  slugInvalid: 'The short name may hold lower-case letters, digits and dashes only (2 to 40).',
  nameRequired: 'Name is required.',
  issuerInvalid: 'The issuer must be an https URL (http only for localhost).',
  clientIdRequired: 'Client id is required.',
  clientSecretRequired: 'Client secret is required.',
  domainInvalid: (domain: string) => `"${domain}" is not an e-mail domain.`,
  mappedDomainNotAllowed: (domain: string) => `"${domain}" is mapped to an organisation but is not an allowed domain.`,
  saved: 'Identity provider saved',
  removed: 'Identity provider removed',
} as const;

const SLUG = /^[a-z0-9][a-z0-9-]{0,38}[a-z0-9]$/;
const DOMAIN = /^(?=.{3,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const invalid = (message: string, field: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);

/** https, or http to a loopback host (a provider run on the same machine in development and tests). */
export function acceptableIssuer(issuer: string): boolean {
  try {
    const url = new URL(issuer);
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

function checked(settings: IdentityProviderSettings): IdentityProviderSettings {
  const value: IdentityProviderSettings = {
    slug: settings.slug.trim(),
    name: settings.name.trim(),
    issuer: settings.issuer.trim().replace(/\/+$/, ''),
    clientId: settings.clientId.trim(),
    allowedDomains: [...new Set(settings.allowedDomains.map((d) => d.trim().toLowerCase()))].sort(),
    organisationId: settings.organisationId,
    role: settings.role,
    domainOrganisations: Object.fromEntries(
      Object.entries(settings.domainOrganisations)
        .map(([d, o]) => [d.trim().toLowerCase(), o] as const)
        .sort(([a], [b]) => a.localeCompare(b)),
    ),
    active: settings.active,
  };
  if (!SLUG.test(value.slug)) throw invalid(IDENTITY_PROVIDER_MESSAGES.slugInvalid, 'slug');
  if (!value.name) throw invalid(IDENTITY_PROVIDER_MESSAGES.nameRequired, 'name');
  if (!acceptableIssuer(value.issuer)) throw invalid(IDENTITY_PROVIDER_MESSAGES.issuerInvalid, 'issuer');
  if (!value.clientId) throw invalid(IDENTITY_PROVIDER_MESSAGES.clientIdRequired, 'client_id');
  for (const domain of value.allowedDomains) if (!DOMAIN.test(domain)) throw invalid(IDENTITY_PROVIDER_MESSAGES.domainInvalid(domain), 'allowed_domains');
  for (const domain of Object.keys(value.domainOrganisations)) {
    if (!value.allowedDomains.includes(domain)) throw invalid(IDENTITY_PROVIDER_MESSAGES.mappedDomainNotAllowed(domain), 'domain_organisations');
  }
  return value;
}

const settingsOf = (state: Exclude<IdentityProviderState, { status: 'none' }>): IdentityProviderSettings => {
  const { status: _status, providerId: _id, ...settings } = state;
  return settings;
};

export function decide(command: IdentityProviderCommand, state: IdentityProviderState, metadata: CommandMetadata): IdentityProviderEvent[] {
  if (!isAdminRole(metadata.actorRole) && metadata.actorRole !== 'system')
    throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', IDENTITY_PROVIDER_MESSAGES.onlyAdmins);
  switch (command.type) {
    case 'ConfigureIdentityProvider': {
      if (state.status !== 'none') throw new DomainError('conflict', 'CONFLICT', IDENTITY_PROVIDER_MESSAGES.exists);
      const { type: _type, providerId, clientSecret, ...settings } = command;
      if (!clientSecret.trim()) throw invalid(IDENTITY_PROVIDER_MESSAGES.clientSecretRequired, 'client_secret');
      return [{ type: 'IdentityProviderConfigured.v1', data: { providerId, ...checked(settings), clientSecret } }];
    }
    case 'ChangeIdentityProvider': {
      if (state.status !== 'configured') throw new DomainError('not_found', 'NOT_FOUND', IDENTITY_PROVIDER_MESSAGES.notFound);
      const { type: _type, clientSecret, ...settings } = command;
      const value = checked(settings);
      const secretChanged = Boolean(clientSecret?.trim());
      if (!secretChanged && JSON.stringify(value) === JSON.stringify(settingsOf(state))) return [];
      return [
        { type: 'IdentityProviderChanged.v1', data: { providerId: state.providerId, ...value, secretChanged, ...(secretChanged ? { clientSecret } : {}) } },
      ];
    }
    case 'RemoveIdentityProvider':
      if (state.status !== 'configured') throw new DomainError('not_found', 'NOT_FOUND', IDENTITY_PROVIDER_MESSAGES.notFound);
      return [{ type: 'IdentityProviderRemoved.v1', data: { providerId: state.providerId, slug: state.slug } }];
    default:
      return assertNever(command);
  }
}

export function evolve(state: IdentityProviderState, event: IdentityProviderEvent): IdentityProviderState {
  switch (event.type) {
    case 'IdentityProviderConfigured.v1':
    case 'IdentityProviderChanged.v1': {
      const { clientSecret: _secret, ...data } = event.data;
      const { secretChanged: _changed, ...rest } = data as typeof data & { secretChanged?: boolean };
      return { status: 'configured', ...rest };
    }
    case 'IdentityProviderRemoved.v1':
      return state.status === 'none' ? state : { ...state, status: 'removed' };
    default:
      return assertNever(event);
  }
}

export const identityProviders: Decider<IdentityProviderState, IdentityProviderCommand, IdentityProviderEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `identity_providers-${id}`,
};
