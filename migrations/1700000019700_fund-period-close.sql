-- Up Migration
-- The close of a fund period: when and why it closed, and per organisation what expired unspent.
-- The latest allocation rule applied to a fund (the rule with its measured period) is kept beside it.
ALTER TABLE read.funds ADD COLUMN closed_at timestamptz;
ALTER TABLE read.funds ADD COLUMN close_reason text;
ALTER TABLE read.funds ADD COLUMN allocation_rule jsonb;
ALTER TABLE read.fund_allocations ADD COLUMN expired_cents bigint NOT NULL DEFAULT 0;
-- Per organisation, the delivered purchases the latest rule measured for it (null when set by hand).
ALTER TABLE read.fund_allocations ADD COLUMN measured_purchases_cents bigint;
CREATE INDEX funds_open_period_end ON read.funds (period_end) WHERE status = 'open';

-- Down Migration
DROP INDEX read.funds_open_period_end;
ALTER TABLE read.fund_allocations DROP COLUMN measured_purchases_cents;
ALTER TABLE read.fund_allocations DROP COLUMN expired_cents;
ALTER TABLE read.funds DROP COLUMN allocation_rule;
ALTER TABLE read.funds DROP COLUMN close_reason;
ALTER TABLE read.funds DROP COLUMN closed_at;
