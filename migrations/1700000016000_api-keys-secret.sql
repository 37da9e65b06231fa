-- Up Migration
-- API key hashes are secrets: the keys' table joins the password hashes in `secret`, out of the analysts'
-- reach; the settings projection keeps writing it by its bare name (the projector has `secret` on its path).
ALTER TABLE read.api_keys SET SCHEMA secret;
-- A moved table keeps its grants: the analysts' read of it goes.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'partnerhub_analyst') THEN
    REVOKE ALL ON secret.api_keys FROM partnerhub_analyst;
  END IF;
END $$;

-- Down Migration
ALTER TABLE secret.api_keys SET SCHEMA read;
