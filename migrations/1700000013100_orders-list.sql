-- Up Migration
-- The carrier and tracking number an administrator names when shipping an order (null before shipping).
ALTER TABLE read.orders ADD COLUMN carrier text;
ALTER TABLE read.orders ADD COLUMN tracking_number text;
UPDATE read.orders o SET carrier = e.data->>'carrier', tracking_number = e.data->>'trackingNumber'
FROM events e
WHERE e.type = 'OrderStatusChanged.v1' AND e.data->>'status' = 'shipped' AND e.data ? 'carrier' AND (e.data->>'orderId')::uuid = o.id;

-- The orders list filters by status, organisation, date and total, sorts by date or total and searches
-- order numbers and company names; at a million orders each of these must be answered from an index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
DROP INDEX read.orders_status;
CREATE INDEX orders_status_created ON read.orders (status, created_at DESC);
CREATE INDEX orders_total ON read.orders (total_amount);
CREATE INDEX orders_status_total ON read.orders (status, total_amount);
CREATE INDEX orders_organisation_total ON read.orders (organisation_id, total_amount);
CREATE INDEX orders_number_trgm ON read.orders USING gin (order_number gin_trgm_ops);
CREATE INDEX orders_company_trgm ON read.orders USING gin (company_name gin_trgm_ops);

-- Down Migration
DROP INDEX IF EXISTS read.orders_company_trgm;
DROP INDEX IF EXISTS read.orders_number_trgm;
DROP INDEX read.orders_organisation_total;
DROP INDEX read.orders_status_total;
DROP INDEX read.orders_total;
DROP INDEX IF EXISTS read.orders_status_created;
CREATE INDEX IF NOT EXISTS orders_status ON read.orders (status);
ALTER TABLE read.orders DROP COLUMN tracking_number;
ALTER TABLE read.orders DROP COLUMN carrier;
