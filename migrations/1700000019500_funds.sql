-- Up Migration

-- Market development funds. Money is integer cents (bigint): sums are exact.

-- One row per fund period.
CREATE TABLE read.funds (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  period_start date NOT NULL,
  period_end date NOT NULL,
  budget_cents bigint NOT NULL,
  -- the share of each delivered order's value that accrues to the ordering organisation, in basis points
  coop_share_bp integer NOT NULL,
  status text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX funds_period ON read.funds (period_start DESC);

-- Each organisation's figures in each fund: its allocation and where the money it reserved stands.
-- An organisation holding reservations without an allocation has allocated_cents 0.
CREATE TABLE read.fund_allocations (
  fund_id uuid NOT NULL,
  organisation_id uuid NOT NULL,
  allocated_cents bigint NOT NULL DEFAULT 0,
  reserved_cents bigint NOT NULL DEFAULT 0,
  claimed_cents bigint NOT NULL DEFAULT 0,
  paid_cents bigint NOT NULL DEFAULT 0,
  released_cents bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (fund_id, organisation_id)
);
CREATE INDEX fund_allocations_organisation ON read.fund_allocations (organisation_id);

-- Co-op accrual: one row per delivered order, from the order events (the fund's share is applied when read).
CREATE TABLE read.fund_deliveries (
  order_id uuid PRIMARY KEY,
  organisation_id uuid NOT NULL,
  delivered_on date NOT NULL,
  value_cents bigint NOT NULL
);
CREATE INDEX fund_deliveries_organisation ON read.fund_deliveries (organisation_id, delivered_on);

CREATE TABLE read.fund_requests (
  id uuid PRIMARY KEY,
  fund_id uuid NOT NULL,
  organisation_id uuid NOT NULL,
  company_name text,
  submitted_by uuid NOT NULL,
  activity_type text NOT NULL,
  title text NOT NULL,
  description text NOT NULL,
  start_date date NOT NULL,
  end_date date NOT NULL,
  planned_cost_cents bigint NOT NULL,
  requested_amount_cents bigint NOT NULL,
  expected_leads integer NOT NULL,
  status text NOT NULL,
  approved_amount_cents bigint,
  -- the last day a claim is accepted (set on approval)
  claim_deadline date,
  -- what the fund holds for the request now (0 once claimed or released)
  reserved_cents bigint NOT NULL DEFAULT 0,
  released_cents bigint NOT NULL DEFAULT 0,
  claim_id uuid,
  -- the reviewer's latest note or reason
  note text,
  submitted_at timestamptz NOT NULL,
  reviewed_at timestamptz,
  reviewed_by uuid,
  updated_at timestamptz NOT NULL
);
CREATE INDEX fund_requests_organisation ON read.fund_requests (organisation_id, submitted_at DESC);
CREATE INDEX fund_requests_submitted ON read.fund_requests (submitted_at DESC);
CREATE INDEX fund_requests_deadline ON read.fund_requests (claim_deadline) WHERE status = 'approved';

CREATE TABLE read.fund_claims (
  id uuid PRIMARY KEY,
  request_id uuid NOT NULL,
  fund_id uuid NOT NULL,
  organisation_id uuid NOT NULL,
  company_name text,
  submitted_by uuid NOT NULL,
  actual_cost_cents bigint NOT NULL,
  claimed_amount_cents bigint NOT NULL,
  approved_amount_cents bigint NOT NULL,
  leads_generated integer NOT NULL,
  status text NOT NULL,
  paid_amount_cents bigint,
  reason text,
  payout_reference text,
  paid_at date,
  payout_method text,
  submitted_at timestamptz NOT NULL,
  reviewed_at timestamptz,
  reviewed_by uuid,
  updated_at timestamptz NOT NULL
);
CREATE INDEX fund_claims_organisation ON read.fund_claims (organisation_id, submitted_at DESC);
CREATE INDEX fund_claims_submitted ON read.fund_claims (submitted_at DESC);
CREATE UNIQUE INDEX fund_claims_request ON read.fund_claims (request_id);

-- Request attachments (kind 'attachment') and claim proof (kind 'proof'). Files are private.
CREATE TABLE read.fund_files (
  record_id uuid NOT NULL,
  kind text NOT NULL,
  position integer NOT NULL,
  file text NOT NULL,
  name text NOT NULL,
  type text NOT NULL,
  size integer NOT NULL,
  PRIMARY KEY (record_id, file)
);
CREATE UNIQUE INDEX fund_files_file ON read.fund_files (file);

-- Down Migration
DROP TABLE read.fund_files;
DROP TABLE read.fund_claims;
DROP TABLE read.fund_requests;
DROP TABLE read.fund_deliveries;
DROP TABLE read.fund_allocations;
DROP TABLE read.funds;
