import type { FactorEvent } from '../domain/identity/factors';
import type { IdentityProviderEvent } from '../domain/identity/identityProviders';
import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { IdentityProvider, SecondFactors } from '../contracts/identity';
import type { Projection } from './projection';

const FACTOR_EVENTS = new Set([
  'TotpEnrolled.v1',
  'RecoveryCodesIssued.v1',
  'RecoveryCodeUsed.v1',
  'PasskeyRegistered.v1',
  'PasskeyUsed.v1',
  'FactorRemoved.v1',
  'FactorsReset.v1',
]);
const PROVIDER_EVENTS = new Set(['IdentityProviderConfigured.v1', 'IdentityProviderChanged.v1', 'IdentityProviderRemoved.v1']);

/**
 * secret.user_factors and secret.recovery_codes (each person's second factors), read.identity_providers and
 * secret.identity_provider_secrets. Secrets are read from `secret.event_secrets` by event id (named in full:
 * a rebuild writes the projected tables elsewhere).
 */
export const identityProjection: Projection = {
  name: 'identity',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    const at = recorded.metadata.occurredAt;
    if (FACTOR_EVENTS.has(recorded.type)) {
      const event = asDomainEvent<FactorEvent>(recorded);
      switch (event.type) {
        case 'TotpEnrolled.v1':
          await db.query(
            `INSERT INTO user_factors (id, user_id, kind, name, secret, created_at)
             SELECT $1::uuid, $2::uuid, 'totp', 'Authenticator app', s.value, $4::timestamptz FROM secret.event_secrets s WHERE s.event_id = $3::uuid AND s.name = 'secret'
             ON CONFLICT (id) DO NOTHING`,
            [event.data.factorId, event.data.userId, recorded.id, at],
          );
          return;
        case 'RecoveryCodesIssued.v1':
          await db.query('DELETE FROM recovery_codes WHERE user_id = $1', [event.data.userId]);
          await db.query(
            `INSERT INTO recovery_codes (user_id, idx, code_hash)
             SELECT $1::uuid, (c.ordinality - 1)::int, c.value FROM secret.event_secrets s, jsonb_array_elements_text(s.value::jsonb) WITH ORDINALITY c
             WHERE s.event_id = $2::uuid AND s.name = 'codeHashes'`,
            [event.data.userId, recorded.id],
          );
          return;
        case 'RecoveryCodeUsed.v1':
          await db.query('UPDATE recovery_codes SET used_at = $3 WHERE user_id = $1 AND idx = $2', [event.data.userId, event.data.index, at]);
          return;
        case 'PasskeyRegistered.v1': {
          const d = event.data;
          await db.query(
            `INSERT INTO user_factors (id, user_id, kind, name, credential_id, public_key, counter, transports, created_at)
             VALUES ($1, $2, 'passkey', $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
            [d.factorId, d.userId, d.name, d.credentialId, d.publicKey, d.counter, d.transports, at],
          );
          return;
        }
        case 'PasskeyUsed.v1':
          await db.query('UPDATE user_factors SET counter = $2, last_used_at = $3 WHERE id = $1', [event.data.factorId, event.data.counter, at]);
          return;
        case 'FactorRemoved.v1':
          await db.query('DELETE FROM user_factors WHERE id = $1', [event.data.factorId]);
          if (event.data.kind === 'totp') await db.query('DELETE FROM recovery_codes WHERE user_id = $1', [event.data.userId]);
          return;
        case 'FactorsReset.v1':
          await db.query('DELETE FROM user_factors WHERE user_id = $1', [event.data.userId]);
          await db.query('DELETE FROM recovery_codes WHERE user_id = $1', [event.data.userId]);
          return;
      }
    }
    if (PROVIDER_EVENTS.has(recorded.type)) {
      const event = asDomainEvent<IdentityProviderEvent>(recorded);
      if (event.type === 'IdentityProviderRemoved.v1') {
        await db.query('DELETE FROM identity_providers WHERE id = $1', [event.data.providerId]);
        await db.query('DELETE FROM identity_provider_secrets WHERE provider_id = $1', [event.data.providerId]);
        return;
      }
      const d = event.data;
      await db.query(
        `INSERT INTO identity_providers (id, slug, name, issuer, client_id, allowed_domains, organisation_id, role, domain_organisations, active, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
         ON CONFLICT (id) DO UPDATE SET slug = EXCLUDED.slug, name = EXCLUDED.name, issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id,
           allowed_domains = EXCLUDED.allowed_domains, organisation_id = EXCLUDED.organisation_id, role = EXCLUDED.role,
           domain_organisations = EXCLUDED.domain_organisations, active = EXCLUDED.active, updated_at = EXCLUDED.updated_at`,
        [d.providerId, d.slug, d.name, d.issuer, d.clientId, d.allowedDomains, d.organisationId, d.role, JSON.stringify(d.domainOrganisations), d.active, at],
      );
      await db.query(
        `INSERT INTO identity_provider_secrets (provider_id, client_secret)
         SELECT $1::uuid, s.value FROM secret.event_secrets s WHERE s.event_id = $2::uuid AND s.name = 'clientSecret'
         ON CONFLICT (provider_id) DO UPDATE SET client_secret = EXCLUDED.client_secret`,
        [d.providerId, recorded.id],
      );
    }
  },
};

// ---- queries ----

export interface TotpFactor {
  id: string;
  secret: string;
}
export interface PasskeyFactor {
  id: string;
  name: string;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string[];
}

export async function totpOf(db: Queryable, userId: string): Promise<TotpFactor | undefined> {
  const { rows } = await db.query<TotpFactor>(`SELECT id, secret FROM secret.user_factors WHERE user_id = $1 AND kind = 'totp'`, [userId]);
  return rows[0];
}

export async function passkeysOf(db: Queryable, userId: string): Promise<PasskeyFactor[]> {
  const { rows } = await db.query<PasskeyFactor>(
    `SELECT id, name, credential_id, public_key, counter::int AS counter, transports FROM secret.user_factors WHERE user_id = $1 AND kind = 'passkey' ORDER BY created_at`,
    [userId],
  );
  return rows;
}

export async function unusedRecoveryCodes(db: Queryable, userId: string): Promise<{ idx: number; code_hash: string }[]> {
  const { rows } = await db.query<{ idx: number; code_hash: string }>(
    'SELECT idx, code_hash FROM secret.recovery_codes WHERE user_id = $1 AND used_at IS NULL ORDER BY idx',
    [userId],
  );
  return rows;
}

export async function hasSecondFactor(db: Queryable, userId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM secret.user_factors WHERE user_id = $1 LIMIT 1', [userId]);
  return rows.length > 0;
}

/** What the Security page shows: the factors by kind, never their secrets. */
export async function secondFactorsOf(db: Queryable, userId: string): Promise<Omit<SecondFactors, 'required'>> {
  const { rows } = await db.query<{ id: string; kind: 'totp' | 'passkey'; name: string; created_at: Date; last_used_at: Date | null }>(
    'SELECT id, kind, name, created_at, last_used_at FROM secret.user_factors WHERE user_id = $1 ORDER BY created_at',
    [userId],
  );
  const { rows: codes } = await db.query<{ left: number }>('SELECT count(*)::int AS left FROM secret.recovery_codes WHERE user_id = $1 AND used_at IS NULL', [
    userId,
  ]);
  const view = (row: (typeof rows)[number]) => ({
    id: row.id,
    name: row.name,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
  });
  const totp = rows.find((row) => row.kind === 'totp');
  return { totp: totp ? view(totp) : null, recovery_codes_left: codes[0]?.left ?? 0, passkeys: rows.filter((row) => row.kind === 'passkey').map(view) };
}

interface ProviderRow {
  id: string;
  slug: string;
  name: string;
  issuer: string;
  client_id: string;
  allowed_domains: string[];
  organisation_id: string | null;
  role: string;
  domain_organisations: Record<string, string>;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

const providerView = (row: ProviderRow): IdentityProvider => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  issuer: row.issuer,
  client_id: row.client_id,
  allowed_domains: row.allowed_domains,
  organisation_id: row.organisation_id,
  role: row.role,
  domain_organisations: row.domain_organisations,
  active: row.active,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export async function listIdentityProviders(db: Queryable, options: { activeOnly?: boolean } = {}): Promise<IdentityProvider[]> {
  const { rows } = await db.query<ProviderRow>(`SELECT * FROM read.identity_providers ${options.activeOnly ? 'WHERE active' : ''} ORDER BY name, slug`);
  return rows.map(providerView);
}

export async function findIdentityProvider(db: Queryable, by: { id?: string; slug?: string }): Promise<IdentityProvider | undefined> {
  const { rows } = await db.query<ProviderRow>('SELECT * FROM read.identity_providers WHERE id = $1 OR slug = $2', [by.id ?? null, by.slug ?? null]);
  return rows[0] ? providerView(rows[0]) : undefined;
}

export async function clientSecretOf(db: Queryable, providerId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ client_secret: string }>('SELECT client_secret FROM secret.identity_provider_secrets WHERE provider_id = $1', [providerId]);
  return rows[0]?.client_secret;
}
