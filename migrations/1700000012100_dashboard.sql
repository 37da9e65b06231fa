-- Up Migration

-- Dashboard figures, pre-aggregated so that a dashboard reads a few dozen rows however many orders
-- there are. Each table also holds one row set for every organisation together under the nil uuid.

-- Orders placed per organisation and UTC day: counts and value for growth figures and charts.
CREATE TABLE read.dashboard_order_days (
  organisation_id uuid NOT NULL,
  day date NOT NULL,
  orders integer NOT NULL,
  order_value numeric(16, 2) NOT NULL,
  PRIMARY KEY (organisation_id, day)
);
CREATE INDEX dashboard_order_days_day ON read.dashboard_order_days (day) WHERE organisation_id <> '00000000-0000-0000-0000-000000000000';

-- Orders per organisation by current status, and how many deliveries arrived by their estimated date.
CREATE TABLE read.dashboard_order_counters (
  organisation_id uuid PRIMARY KEY,
  pending integer NOT NULL DEFAULT 0,
  approved integer NOT NULL DEFAULT 0,
  shipped integer NOT NULL DEFAULT 0,
  delivered integer NOT NULL DEFAULT 0,
  cancelled integer NOT NULL DEFAULT 0,
  delivered_on_time integer NOT NULL DEFAULT 0
);

-- Each distinct ship-to recipient (e-mail) of an organisation's orders (and of all, under the nil uuid), with the day it was first shipped to.
CREATE TABLE read.dashboard_recipients (
  organisation_id uuid NOT NULL,
  recipient text NOT NULL,
  first_day date NOT NULL,
  PRIMARY KEY (organisation_id, recipient)
);

-- What the activity feed and the remaining live counts read in index order.
CREATE INDEX IF NOT EXISTS status_history_occurred ON read.status_history (occurred_at DESC);
CREATE INDEX IF NOT EXISTS orders_organisation_updated ON read.orders (organisation_id, updated_at DESC);
CREATE INDEX IF NOT EXISTS projects_organisation_updated ON read.projects (organisation_id, updated_at DESC);
CREATE INDEX IF NOT EXISTS projects_updated ON read.projects (updated_at DESC);
CREATE INDEX IF NOT EXISTS projects_extension_requested ON read.projects (extension_requested_at) WHERE extension_status = 'requested';
CREATE INDEX IF NOT EXISTS tickets_organisation_updated ON read.tickets (organisation_id, updated_at DESC);
CREATE INDEX IF NOT EXISTS tickets_created ON read.tickets (created_at);
CREATE INDEX IF NOT EXISTS tickets_resolved ON read.tickets (resolved_at) WHERE resolved_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS rebates_organisation_updated ON read.rebates (organisation_id, updated_at DESC);
CREATE INDEX IF NOT EXISTS partners_updated ON read.partners (updated_at DESC);

-- Existing orders, so the figures are right from the first start after this migration.
INSERT INTO read.dashboard_order_days (organisation_id, day, orders, order_value)
SELECT organisation_id, (created_at AT TIME ZONE 'UTC')::date, count(*), sum(total_amount) FROM read.orders GROUP BY 1, 2;
INSERT INTO read.dashboard_order_days (organisation_id, day, orders, order_value)
SELECT '00000000-0000-0000-0000-000000000000', (created_at AT TIME ZONE 'UTC')::date, count(*), sum(total_amount) FROM read.orders GROUP BY 2;

INSERT INTO read.dashboard_order_counters (organisation_id, pending, approved, shipped, delivered, cancelled, delivered_on_time)
SELECT coalesce(organisation_id, '00000000-0000-0000-0000-000000000000'),
       count(*) FILTER (WHERE status IN ('pending', 'processing')),
       count(*) FILTER (WHERE status = 'approved'),
       count(*) FILTER (WHERE status = 'shipped'),
       count(*) FILTER (WHERE status = 'delivered'),
       count(*) FILTER (WHERE status = 'cancelled'),
       count(*) FILTER (WHERE status = 'delivered' AND (delivered_at AT TIME ZONE 'UTC')::date <= estimated_delivery)
FROM read.orders GROUP BY GROUPING SETS ((organisation_id), ());

INSERT INTO read.dashboard_recipients (organisation_id, recipient, first_day)
SELECT coalesce(organisation_id, '00000000-0000-0000-0000-000000000000'), recipient, min(day)
FROM (
  SELECT organisation_id, lower(trim(shipping_address->>'email')) AS recipient, (created_at AT TIME ZONE 'UTC')::date AS day
  FROM read.orders WHERE coalesce(trim(shipping_address->>'email'), '') <> ''
) o
GROUP BY GROUPING SETS ((organisation_id, recipient), (recipient));

-- Down Migration

DROP INDEX IF EXISTS read.partners_updated;
DROP INDEX IF EXISTS read.rebates_organisation_updated;
DROP INDEX IF EXISTS read.tickets_resolved;
DROP INDEX IF EXISTS read.tickets_created;
DROP INDEX IF EXISTS read.tickets_organisation_updated;
DROP INDEX IF EXISTS read.projects_extension_requested;
DROP INDEX IF EXISTS read.projects_updated;
DROP INDEX IF EXISTS read.projects_organisation_updated;
DROP INDEX IF EXISTS read.orders_organisation_updated;
DROP INDEX IF EXISTS read.status_history_occurred;
DROP TABLE read.dashboard_recipients;
DROP TABLE read.dashboard_order_counters;
DROP TABLE read.dashboard_order_days;
