-- Up Migration
-- What an API key may write besides reading (leads created by an integration); none for the keys made before.
ALTER TABLE secret.api_keys ADD COLUMN scopes text[] NOT NULL DEFAULT '{}';

-- Down Migration
ALTER TABLE secret.api_keys DROP COLUMN scopes;
