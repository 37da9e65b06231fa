-- Up Migration
-- The append-only event log. `transaction_id` lets readers see events in commit-safe order:
-- a transaction that took an earlier global_position may commit after a later one, so
-- subscribers read only below the oldest running transaction (pg_snapshot_xmin).
CREATE TABLE events (
  global_position bigserial NOT NULL,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id text NOT NULL,
  revision bigint NOT NULL,
  event_id uuid NOT NULL UNIQUE,
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_id, revision),
  -- Readers of the whole log walk it in this order; it is also the row's identity.
  PRIMARY KEY (transaction_id, global_position)
);

-- Down Migration
DROP TABLE events;
