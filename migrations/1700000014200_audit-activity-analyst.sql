-- Up Migration

-- ---- Secrets leave the analysts' schema ----
-- Password hashes, sessions and refresh-token hashes live in `secret`, which the analyst role cannot
-- even look into. read.user_credentials is still written by the users projection (the runner puts
-- `secret` on its search path) and rebuilt with the other read models.
CREATE SCHEMA IF NOT EXISTS secret;
ALTER TABLE read.user_credentials SET SCHEMA secret;
ALTER TABLE public.auth_sessions SET SCHEMA secret;
ALTER TABLE public.refresh_tokens SET SCHEMA secret;

-- ---- Admin audit log: one row per event, newest first ----
CREATE TABLE read.audit_log (
  event_id uuid PRIMARY KEY,
  occurred_at timestamptz NOT NULL,
  actor_id text,
  actor_name text,
  actor_role text,
  record_type text NOT NULL,
  record_id text NOT NULL,
  organisation_id uuid,
  event_type text NOT NULL,
  summary text NOT NULL
);
-- Every filter is an equality on one column, then time-ordered keyset paging (occurred_at, event_id)
-- walks the matching index backwards: no sort, no offset over a million rows.
CREATE INDEX audit_log_time ON read.audit_log (occurred_at DESC, event_id DESC);
CREATE INDEX audit_log_actor ON read.audit_log (actor_id, occurred_at DESC, event_id DESC);
CREATE INDEX audit_log_record_type ON read.audit_log (record_type, occurred_at DESC, event_id DESC);
CREATE INDEX audit_log_event_type ON read.audit_log (event_type, occurred_at DESC, event_id DESC);
CREATE INDEX audit_log_organisation ON read.audit_log (organisation_id, occurred_at DESC, event_id DESC);
CREATE INDEX audit_log_record ON read.audit_log (record_type, record_id, occurred_at DESC);

-- Who each account is, as the log last knew it: names stay in the log after an account is deleted.
CREATE TABLE read.audit_people (
  user_id uuid PRIMARY KEY,
  full_name text NOT NULL,
  role text NOT NULL,
  organisation_id uuid
);

-- ---- Each organisation's own activity feed ----
CREATE TABLE read.organisation_activity (
  event_id uuid PRIMARY KEY,
  organisation_id uuid NOT NULL,
  occurred_at timestamptz NOT NULL,
  -- The resource whose read permission the caller needs to see the line (orders, rebates, projects, tickets, team, partners).
  resource text NOT NULL,
  record_id text NOT NULL,
  event_type text NOT NULL,
  message text NOT NULL,
  link text
);
CREATE INDEX organisation_activity_feed ON read.organisation_activity (organisation_id, occurred_at DESC, event_id DESC);

-- ---- A read-only role for analysts ----
-- Roles belong to the whole cluster, so another database may have created it already (or be creating it now).
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'partnerhub_analyst') THEN
    CREATE ROLE partnerhub_analyst LOGIN PASSWORD 'partnerhub_analyst' NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
    ALTER ROLE partnerhub_analyst SET default_transaction_read_only = on;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END
$$;

-- Grants SELECT on every table of a read-model schema, now and for tables created in it later.
-- The projection rebuild calls it for the schema it fills before swapping it in as `read`.
CREATE OR REPLACE FUNCTION public.grant_analyst_read(target_schema text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'partnerhub_analyst') THEN RETURN; END IF;
  EXECUTE format('GRANT USAGE ON SCHEMA %I TO partnerhub_analyst', target_schema);
  EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO partnerhub_analyst', target_schema);
  EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT SELECT ON TABLES TO partnerhub_analyst', target_schema);
END
$$;
SELECT public.grant_analyst_read('read');

-- Nothing else: not the event log (it holds password hashes), not `secret`, no temporary tables.
REVOKE ALL ON SCHEMA secret FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM partnerhub_analyst;
DO $$ BEGIN EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database()); END $$;

-- Down Migration
DO $$ BEGIN EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO PUBLIC', current_database()); END $$;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'partnerhub_analyst') THEN
    EXECUTE 'ALTER DEFAULT PRIVILEGES IN SCHEMA read REVOKE SELECT ON TABLES FROM partnerhub_analyst';
    EXECUTE 'REVOKE ALL ON ALL TABLES IN SCHEMA read FROM partnerhub_analyst';
    EXECUTE 'REVOKE USAGE ON SCHEMA read FROM partnerhub_analyst';
  END IF;
END
$$;
DROP FUNCTION public.grant_analyst_read(text);
DROP TABLE read.organisation_activity;
DROP TABLE read.audit_people;
DROP TABLE read.audit_log;
ALTER TABLE secret.refresh_tokens SET SCHEMA public;
ALTER TABLE secret.auth_sessions SET SCHEMA public;
ALTER TABLE secret.user_credentials SET SCHEMA read;
DROP SCHEMA secret;
