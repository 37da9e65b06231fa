-- Up Migration
-- Single sign-on (OpenID Connect providers) and second factors (TOTP, recovery codes, passkeys).
-- The secrets (TOTP seeds, recovery code hashes, client secrets) never reach the event log: the store keeps
-- them in secret.event_secrets and these projected tables read them from there.

-- Each person's second factors: an authenticator app (kind totp, its seed) or a passkey (its credential).
CREATE TABLE secret.user_factors (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('totp', 'passkey')),
  name text NOT NULL,
  secret text,
  credential_id text,
  public_key text,
  counter bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE INDEX user_factors_user ON secret.user_factors (user_id);
CREATE UNIQUE INDEX user_factors_credential ON secret.user_factors (credential_id) WHERE credential_id IS NOT NULL;

-- The ten single-use recovery codes of a person's current set, argon2-hashed.
CREATE TABLE secret.recovery_codes (
  user_id uuid NOT NULL,
  idx integer NOT NULL,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, idx)
);

-- The identity providers configured by administrators (removed ones are deleted).
CREATE TABLE read.identity_providers (
  id uuid PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  issuer text NOT NULL,
  client_id text NOT NULL,
  allowed_domains text[] NOT NULL,
  organisation_id uuid,
  role text NOT NULL,
  domain_organisations jsonb NOT NULL DEFAULT '{}',
  active boolean NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE secret.identity_provider_secrets (
  provider_id uuid PRIMARY KEY,
  client_secret text NOT NULL
);

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'partnerhub_analyst') THEN
    REVOKE ALL ON secret.user_factors, secret.recovery_codes, secret.identity_provider_secrets FROM partnerhub_analyst;
  END IF;
END $$;

-- Down Migration
DROP TABLE secret.identity_provider_secrets;
DROP TABLE read.identity_providers;
DROP TABLE secret.recovery_codes;
DROP TABLE secret.user_factors;
