-- Up Migration
-- The partner dashboard's programme and funds cards sum an organisation's deliveries over a window. Both
-- walked every matching row in the table (at a million orders, the demo partner's 10,000 orders took
-- 150 ms); with the summed value inside the index they are read from the index alone.
CREATE INDEX orders_organisation_delivered ON read.orders (organisation_id, delivered_at) INCLUDE (total_amount) WHERE status = 'delivered';
CREATE INDEX fund_deliveries_organisation_value ON read.fund_deliveries (organisation_id, delivered_on) INCLUDE (value_cents);
DROP INDEX read.fund_deliveries_organisation;

-- An organisation's orders awaiting shipment, newest first (the distributor's Pending Shipments card and the
-- list's filter). Without it a prepared statement's generic plan intersected the organisation's orders with every
-- order of those statuses: 27 ms at a million orders, 4 ms with it. The statuses are the filter's literals.
CREATE INDEX orders_organisation_awaiting_shipment ON read.orders (organisation_id, created_at DESC, id DESC)
  WHERE status IN ('pending', 'processing', 'approved');

-- Down Migration
DROP INDEX read.orders_organisation_awaiting_shipment;
CREATE INDEX fund_deliveries_organisation ON read.fund_deliveries (organisation_id, delivered_on);
DROP INDEX read.fund_deliveries_organisation_value;
DROP INDEX read.orders_organisation_delivered;
