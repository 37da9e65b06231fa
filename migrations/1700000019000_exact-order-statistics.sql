-- Up Migration
-- Order statistics are kept by adding and subtracting each order's figures as it moves between
-- statuses. In double precision those sums drifted with the order of the additions (46.87500000000001
-- days where a rebuild writes 46.875), and rows whose orders had all moved on stayed behind, counting
-- nothing. Days to delivery become numeric (exact sums, whatever the batching) and the table is
-- recomputed from the orders, without empty rows, exactly as a rebuild writes it.
DELETE FROM read.order_stats;
ALTER TABLE read.order_stats ALTER COLUMN delivery_days TYPE numeric;
INSERT INTO read.order_stats (organisation_id, month, status, orders, total_amount, delivery_days)
SELECT scope, month, status, count(*), sum(total_amount), sum(coalesce(extract(epoch FROM delivered_at - created_at) / 86400, 0))
FROM (
  SELECT o.*, date_trunc('month', o.created_at AT TIME ZONE 'UTC')::date AS month, s.scope
  FROM read.orders o CROSS JOIN LATERAL (VALUES (o.organisation_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS s(scope)
) AS o
GROUP BY scope, month, status;

-- Down Migration
ALTER TABLE read.order_stats ALTER COLUMN delivery_days TYPE double precision;
