-- Up Migration
-- The partner programme: tiers, each organisation's standing and its history, evaluation runs, and
-- the scorecards (one row per organisation and quarter). Natural keys only, so a rebuild can copy them.

CREATE TABLE read.programme_tiers (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  rank integer NOT NULL,
  description text NOT NULL DEFAULT '',
  requirements jsonb NOT NULL,
  benefits jsonb NOT NULL,
  version integer NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX programme_tiers_rank ON read.programme_tiers (rank);

-- Every version of a tier from the moment it held: benefits are applied as of an event's time.
CREATE TABLE read.programme_tier_versions (
  tier_id uuid NOT NULL,
  version integer NOT NULL,
  name text NOT NULL,
  rank integer NOT NULL,
  benefits jsonb NOT NULL,
  valid_from timestamptz NOT NULL,
  valid_to timestamptz,
  PRIMARY KEY (tier_id, version)
);

CREATE TABLE read.programme_standings (
  organisation_id uuid PRIMARY KEY,
  -- the tier in force (an override's while it lasts)
  tier_id uuid NOT NULL,
  tier_name text NOT NULL,
  tier_rank integer NOT NULL,
  since timestamptz NOT NULL,
  -- { id, name, rank }: the tier the measured values hold
  measured_tier jsonb NOT NULL,
  -- { quarter, missing, demotionOn } while at risk
  at_risk jsonb,
  at_risk_since timestamptz,
  -- { tier, reason, endsOn, by, at } while an override holds
  override jsonb,
  last_evaluated_quarter text,
  last_evaluated_at timestamptz,
  measured jsonb NOT NULL DEFAULT '{}',
  version integer NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX programme_standings_tier ON read.programme_standings (tier_id);

-- The tier in force over time, one row per change: the rebate suggestion and the benefits read it as of a moment.
CREATE TABLE read.programme_tier_periods (
  event_id uuid PRIMARY KEY,
  organisation_id uuid NOT NULL,
  tier_id uuid NOT NULL,
  tier_name text NOT NULL,
  tier_rank integer NOT NULL,
  from_at timestamptz NOT NULL,
  to_at timestamptz
);
CREATE INDEX programme_tier_periods_organisation ON read.programme_tier_periods (organisation_id, from_at);

-- Promotions, demotions, warnings, recoveries and overrides of each organisation.
CREATE TABLE read.programme_history (
  event_id uuid PRIMARY KEY,
  organisation_id uuid NOT NULL,
  at timestamptz NOT NULL,
  kind text NOT NULL,
  from_tier jsonb,
  to_tier jsonb,
  quarter text,
  reason text,
  measured jsonb NOT NULL DEFAULT '{}',
  missing jsonb NOT NULL DEFAULT '[]'
);
CREATE INDEX programme_history_organisation ON read.programme_history (organisation_id, at DESC);

CREATE TABLE read.programme_runs (
  id uuid PRIMARY KEY,
  quarter text NOT NULL,
  kind text NOT NULL,
  trigger text NOT NULL,
  requested_by uuid,
  evaluated_at timestamptz NOT NULL,
  counts jsonb NOT NULL,
  results jsonb NOT NULL
);
CREATE INDEX programme_runs_evaluated ON read.programme_runs (evaluated_at DESC);

-- One row per organisation and calendar quarter with activity, from the orders, projects, rebates,
-- leads, tickets and funds read models (recomputed for an organisation whenever one of its records changes).
CREATE TABLE read.scorecards (
  organisation_id uuid NOT NULL,
  quarter text NOT NULL,
  quarter_start date NOT NULL,
  revenue_cents bigint NOT NULL,
  previous_revenue_cents bigint NOT NULL,
  deals_registered integer NOT NULL,
  deals_approved integer NOT NULL,
  deals_won integer NOT NULL,
  deals_lost integer NOT NULL,
  avg_days_to_first_order numeric(10, 1),
  rebates_approved_cents bigint NOT NULL,
  rebates_claimed_cents bigint NOT NULL,
  rebate_purchases_approved_cents bigint NOT NULL,
  rebate_purchases_decided_cents bigint NOT NULL,
  mdf_spent_cents bigint NOT NULL,
  mdf_revenue_cents bigint NOT NULL,
  leads_received integer NOT NULL,
  leads_accepted integer NOT NULL,
  leads_converted integer NOT NULL,
  open_tickets integer NOT NULL,
  overdue_tickets integer NOT NULL,
  score numeric(6, 1) NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (organisation_id, quarter)
);
CREATE INDEX scorecards_quarter ON read.scorecards (quarter, score DESC);

-- Down Migration
DROP TABLE read.scorecards;
DROP TABLE read.programme_runs;
DROP TABLE read.programme_history;
DROP TABLE read.programme_tier_periods;
DROP TABLE read.programme_standings;
DROP TABLE read.programme_tier_versions;
DROP TABLE read.programme_tiers;
