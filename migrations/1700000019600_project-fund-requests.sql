-- Up Migration
-- A deal registration may name the market development activity (fund request) that produced it; the
-- activity's pipeline and revenue (its return on investment) are read through this column.
ALTER TABLE read.projects ADD COLUMN fund_request_id uuid;
CREATE INDEX projects_fund_request ON read.projects (fund_request_id) WHERE fund_request_id IS NOT NULL;

-- Down Migration
DROP INDEX read.projects_fund_request;
ALTER TABLE read.projects DROP COLUMN fund_request_id;
