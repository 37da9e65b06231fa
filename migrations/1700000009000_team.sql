-- Up Migration
-- Team members invited by e-mail: until they set their password, when their invitation link expires.
ALTER TABLE read.users ADD COLUMN invitation_expires_at timestamptz;
CREATE INDEX IF NOT EXISTS users_parent ON read.users (parent_user_id, created_at) WHERE parent_user_id IS NOT NULL;

-- Down Migration
DROP INDEX IF EXISTS read.users_parent;
ALTER TABLE read.users DROP COLUMN invitation_expires_at;
