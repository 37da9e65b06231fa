-- Up Migration
-- API keys for analysts' tools: only the SHA-256 hash of a key is kept; the key is shown once when made.
CREATE TABLE read.api_keys (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  -- the first characters of the key, so an administrator can tell keys apart
  prefix text NOT NULL,
  key_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  created_by uuid,
  revoked_at timestamptz,
  revoked_by uuid
);
CREATE UNIQUE INDEX api_keys_hash ON read.api_keys (key_hash);

-- Down Migration
DROP TABLE read.api_keys;
