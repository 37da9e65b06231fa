-- Up Migration
-- Order statistics kept up to date by the orders projection, so the statistics cards and list totals
-- read a few hundred rows instead of counting every order. One row per organisation, month of
-- ordering (UTC) and current status; the all-zero organisation id holds everyone's figures (the
-- scope of administrators, manufacturers and support).
CREATE TABLE read.order_stats (
  organisation_id uuid NOT NULL,
  month date NOT NULL,
  status text NOT NULL,
  orders bigint NOT NULL,
  total_amount numeric(18, 2) NOT NULL,
  -- Days from ordering to delivery, summed over the delivered orders of the row.
  delivery_days double precision NOT NULL,
  PRIMARY KEY (organisation_id, month, status)
);

INSERT INTO read.order_stats (organisation_id, month, status, orders, total_amount, delivery_days)
SELECT scope, month, status, count(*), sum(total_amount), coalesce(sum(extract(epoch FROM delivered_at - created_at) / 86400), 0)
FROM (
  SELECT o.*, date_trunc('month', o.created_at AT TIME ZONE 'UTC')::date AS month, s.scope
  FROM read.orders o CROSS JOIN LATERAL (VALUES (o.organisation_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS s(scope)
) AS o
GROUP BY scope, month, status;

-- Lists: newest first with a unique tie-breaker (keyset pages and index-only deep pages), per status.
CREATE INDEX orders_created_id ON read.orders (created_at DESC, id DESC);
-- (The orders-list migration's status index gains the tie-breaker.)
DROP INDEX IF EXISTS read.orders_status_created;
CREATE INDEX orders_status_created ON read.orders (status, created_at DESC, id DESC);
CREATE INDEX orders_organisation_created_id ON read.orders (organisation_id, created_at DESC, id DESC);
-- The indexes these replace, by definition: a projection rebuild (CREATE TABLE ... LIKE ... INCLUDING ALL)
-- gives indexes generated names, so their names differ between databases.
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT indexname FROM pg_indexes
           WHERE schemaname = 'read' AND tablename = 'orders'
             AND indexdef ~ 'USING btree \((created_at DESC|status|organisation_id, created_at DESC)\)$'
  LOOP
    EXECUTE format('DROP INDEX read.%I', r.indexname);
  END LOOP;
END $$;

-- Search: order number and company name by substring, ignoring case.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX IF NOT EXISTS orders_number_trgm ON read.orders USING gin (order_number gin_trgm_ops);
CREATE INDEX IF NOT EXISTS orders_company_trgm ON read.orders USING gin (company_name gin_trgm_ops);

-- Down Migration
DROP INDEX IF EXISTS read.orders_company_trgm;
DROP INDEX IF EXISTS read.orders_number_trgm;
CREATE INDEX orders_organisation ON read.orders (organisation_id, created_at DESC);
CREATE INDEX orders_status ON read.orders (status);
CREATE INDEX orders_created ON read.orders (created_at DESC);
DROP INDEX read.orders_organisation_created_id;
DROP INDEX IF EXISTS read.orders_status_created;
DROP INDEX read.orders_created_id;
DROP TABLE read.order_stats;
