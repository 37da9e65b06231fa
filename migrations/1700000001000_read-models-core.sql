-- Up Migration
CREATE SCHEMA read;

-- Where the read-model projector has got to in the event log. Lives beside the tables it describes,
-- so a rebuild that swaps the schema swaps the checkpoint with them.
CREATE TABLE read.checkpoints (
  name text PRIMARY KEY,
  commit_position numeric(20) NOT NULL,
  prepare_position numeric(20) NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE read.status_history (
  event_id uuid PRIMARY KEY,
  record_type text NOT NULL,
  record_id text NOT NULL,
  from_status text,
  to_status text NOT NULL,
  actor_id text,
  actor_role text,
  reason text,
  occurred_at timestamptz NOT NULL,
  event_type text NOT NULL
);
CREATE INDEX status_history_record ON read.status_history (record_type, record_id, occurred_at);

CREATE TABLE read.users (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  full_name text NOT NULL,
  role text NOT NULL,
  is_active boolean NOT NULL,
  permissions text[] NOT NULL DEFAULT '{}',
  company_name text,
  parent_user_id uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- bumps on every change of role, permissions or activity, so a token can tell it is out of date
  access_version integer NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX users_email ON read.users (lower(email));
CREATE INDEX users_role ON read.users (role);
CREATE INDEX users_created ON read.users (created_at DESC);

-- Password hashes are kept apart from read.users so analysts reading users never see them.
CREATE TABLE read.user_credentials (
  user_id uuid PRIMARY KEY,
  email text NOT NULL,
  password_hash text NOT NULL,
  password_changed_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX user_credentials_email ON read.user_credentials (lower(email));

CREATE TABLE read.notifications (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  kind text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  link text,
  created_at timestamptz NOT NULL,
  read_at timestamptz
);
CREATE INDEX notifications_user ON read.notifications (user_id, created_at DESC);

-- Sessions are authentication infrastructure, not business records: a refresh-token family per sign-in.
CREATE TABLE auth_sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_reason text
);
CREATE INDEX auth_sessions_user ON auth_sessions (user_id) WHERE revoked_at IS NULL;

CREATE TABLE refresh_tokens (
  token_hash text PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES auth_sessions (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  used_at timestamptz
);

-- Checkpoints of log followers that are not read models (the reactor that enqueues jobs).
CREATE TABLE subscription_checkpoints (
  name text PRIMARY KEY,
  commit_position numeric(20) NOT NULL,
  prepare_position numeric(20) NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE subscription_checkpoints;
DROP TABLE refresh_tokens;
DROP TABLE auth_sessions;
DROP SCHEMA read CASCADE;
