-- Up Migration

-- One row per webhook endpoint (deleted ones leave). The signing secret is not here: it stays in
-- secret.event_secrets under the registration event's id (signing_event_id), out of the analysts' reach.
CREATE TABLE read.webhook_endpoints (
  id uuid PRIMARY KEY,
  -- null for the vendor's endpoints (admins'); otherwise the organisation whose events it receives
  organisation_id uuid,
  url text NOT NULL,
  event_types text[] NOT NULL,
  -- active, inactive (paused by its owner) or disabled (deliveries kept failing)
  status text NOT NULL,
  status_reason text,
  signing_event_id uuid NOT NULL,
  created_by uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_organisation ON read.webhook_endpoints (organisation_id, created_at);

-- The delivery log and outbox: one row per message to send to one endpoint (an event, a replayed
-- event or a manual redelivery). Written by the delivery worker, not a read model: a projection
-- rebuild leaves it as it is. Messages of one record to one endpoint go out in seq order.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL,
  endpoint_id uuid NOT NULL,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  record_key text NOT NULL,
  occurred_at timestamptz NOT NULL,
  body jsonb NOT NULL,
  -- live, replay or redelivery
  kind text NOT NULL,
  -- pending, delivered or failed (gave up after the retry period)
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  first_attempt_at timestamptz,
  last_attempt_at timestamptz,
  next_attempt_at timestamptz,
  status_code integer,
  duration_ms integer,
  response_excerpt text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz
);
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, created_at DESC, seq DESC);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, record_key, seq) WHERE status = 'pending';

-- Down Migration
DROP TABLE webhook_deliveries;
DROP TABLE read.webhook_endpoints;
