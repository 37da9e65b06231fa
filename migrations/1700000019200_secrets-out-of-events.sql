-- Up Migration
-- Secrets leave the event log, and personal data in it gets a key per person (see docs/decisions.md,
-- "Secrets and personal data in the event log"). Neither table is a read model: a projection rebuild
-- leaves both as they are.

-- A secret a decider put on an event (a password hash, an API key hash), kept under the event's id.
CREATE TABLE secret.event_secrets (
  event_id uuid NOT NULL,
  name text NOT NULL,
  value text NOT NULL,
  PRIMARY KEY (event_id, name)
);

-- Each person's AES-256-GCM key for the personal fields of their events; erasing a person deletes the
-- key and keeps the row, so values appended before encryption existed read as erased too.
CREATE TABLE secret.person_keys (
  person_id text PRIMARY KEY,
  key bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  erased_at timestamptz,
  CHECK ((key IS NULL) = (erased_at IS NOT NULL))
);

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'partnerhub_analyst') THEN
    REVOKE ALL ON secret.event_secrets, secret.person_keys FROM partnerhub_analyst;
  END IF;
END $$;

-- The hashes already in the log move out of it (an EventStoreDB log is left as it is: the store's read
-- path moves them the same way the first time it reads them).
INSERT INTO secret.event_secrets (event_id, name, value)
SELECT event_id, 'passwordHash', data->>'passwordHash' FROM events
WHERE type IN ('UserRegistered.v1', 'UserPasswordChanged.v1') AND jsonb_typeof(data->'passwordHash') = 'string'
UNION ALL
SELECT event_id, 'keyHash', data->>'keyHash' FROM events
WHERE type = 'ApiKeyCreated.v1' AND jsonb_typeof(data->'keyHash') = 'string'
ON CONFLICT (event_id, name) DO NOTHING;

UPDATE events SET data = data - 'passwordHash' WHERE type IN ('UserRegistered.v1', 'UserPasswordChanged.v1') AND data ? 'passwordHash';
UPDATE events SET data = data - 'keyHash' WHERE type = 'ApiKeyCreated.v1' AND data ? 'keyHash';

-- An e-mail address's claim stream is named by the address's SHA-256, not the address.
UPDATE events SET stream_id = 'user-emails-' || encode(sha256(convert_to(substr(stream_id, 13), 'UTF8')), 'hex')
WHERE stream_id LIKE 'user-emails-%@%';

-- Down Migration
DROP TABLE secret.person_keys;
DROP TABLE secret.event_secrets;
