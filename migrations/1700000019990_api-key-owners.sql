-- Up Migration
-- API keys get an owner (the vendor or one organisation), an expiry, a rate limit, a rotation (the
-- previous secret's hash and until when it is still honoured) and when they were last used.
ALTER TABLE secret.api_keys
  ADD COLUMN owner_kind text NOT NULL DEFAULT 'vendor' CHECK (owner_kind IN ('vendor', 'organisation')),
  ADD COLUMN organisation_id uuid,
  ADD COLUMN expires_at timestamptz,
  ADD COLUMN rate_limit_per_minute integer,
  ADD COLUMN previous_key_hash text,
  ADD COLUMN previous_valid_until timestamptz,
  ADD COLUMN rotated_at timestamptz,
  ADD COLUMN last_used_at timestamptz;
CREATE INDEX api_keys_previous_hash ON secret.api_keys (previous_key_hash) WHERE previous_key_hash IS NOT NULL;
CREATE INDEX api_keys_organisation ON secret.api_keys (organisation_id, created_at DESC);

-- Keys made before read scopes existed read what they always could (the projection does the same on a rebuild).
UPDATE secret.api_keys
SET scopes = ARRAY(SELECT DISTINCT unnest(scopes || ARRAY['projects:read', 'orders:read', 'catalogue:read', 'rebates:read', 'tickets:read', 'partners:read']) ORDER BY 1)
WHERE owner_kind = 'vendor';

-- Which API key an action was taken with (the actor is then the key's owner, or null for a vendor key).
ALTER TABLE read.audit_log ADD COLUMN api_key_id uuid, ADD COLUMN api_key_name text;

-- Down Migration
ALTER TABLE read.audit_log DROP COLUMN api_key_id, DROP COLUMN api_key_name;
DROP INDEX secret.api_keys_organisation;
DROP INDEX secret.api_keys_previous_hash;
ALTER TABLE secret.api_keys
  DROP COLUMN owner_kind, DROP COLUMN organisation_id, DROP COLUMN expires_at, DROP COLUMN rate_limit_per_minute,
  DROP COLUMN previous_key_hash, DROP COLUMN previous_valid_until, DROP COLUMN rotated_at, DROP COLUMN last_used_at;
