-- Up Migration

-- One row per lead. Contact details are here whole; the API decides who may see them.
CREATE TABLE read.leads (
  id uuid PRIMARY KEY,
  company text NOT NULL,
  contact_name text NOT NULL,
  email text NOT NULL,
  phone text,
  country text,
  region text,
  product_interest text,
  estimated_value numeric(14, 2),
  source text NOT NULL,
  notes text,
  -- the company and the e-mail's domain as deal registrations compare them (duplicates)
  customer_key text NOT NULL,
  email_domain text,
  status text NOT NULL,
  -- the organisation the lead is offered to or worked by; null while unassigned
  organisation_id uuid,
  -- how it came to that organisation: the rule (null for an admin's assignment), the method and why
  rule_id text,
  assignment_method text,
  assignment_reason text,
  assigned_at timestamptz,
  -- when the acceptance window of the current offer closes (status assigned)
  due_at timestamptz,
  accepted_at timestamptz,
  -- the open lead or protected deal registration this one duplicates, when flagged
  duplicate_of_type text,
  duplicate_of_id uuid,
  -- the deal registration the lead was converted into
  project_id uuid,
  converted_at timestamptz,
  -- the reason of the latest decline, lapse or disqualification
  status_reason text,
  -- how many organisations declined it or let it lapse
  passed_count integer NOT NULL DEFAULT 0,
  created_by uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX leads_created ON read.leads (created_at DESC, id);
CREATE INDEX leads_organisation ON read.leads (organisation_id, status);
CREATE INDEX leads_status ON read.leads (status, created_at DESC);
CREATE INDEX leads_customer ON read.leads (customer_key);
CREATE INDEX leads_due ON read.leads (due_at) WHERE status = 'assigned';
CREATE INDEX leads_project ON read.leads (project_id) WHERE project_id IS NOT NULL;

-- Every offer of a lead to an organisation and how it ended: the organisations a lead passed by keep
-- seeing that it lapsed or that they declined it, and the reports count acceptance from here.
CREATE TABLE read.lead_offers (
  -- the LeadAssigned event
  event_id uuid PRIMARY KEY,
  lead_id uuid NOT NULL,
  organisation_id uuid NOT NULL,
  rule_id text,
  method text NOT NULL,
  reason text NOT NULL,
  offered_at timestamptz NOT NULL,
  due_at timestamptz NOT NULL,
  -- pending, accepted, declined, lapsed or reassigned (an admin gave the lead to another organisation)
  outcome text NOT NULL,
  answered_at timestamptz,
  outcome_reason text
);
CREATE INDEX lead_offers_lead ON read.lead_offers (lead_id, offered_at);
CREATE INDEX lead_offers_organisation ON read.lead_offers (organisation_id, lead_id);
CREATE INDEX lead_offers_rule ON read.lead_offers (rule_id, offered_at DESC);

-- The routing rules in their order.
CREATE TABLE read.lead_rules (
  id text PRIMARY KEY,
  position integer NOT NULL,
  name text NOT NULL,
  countries text[] NOT NULL,
  regions text[] NOT NULL,
  product_interests text[] NOT NULL,
  min_value numeric(14, 2),
  max_value numeric(14, 2),
  method text NOT NULL,
  organisation_ids uuid[] NOT NULL,
  capacity integer,
  updated_at timestamptz NOT NULL
);

-- Down Migration
DROP TABLE read.lead_rules;
DROP TABLE read.lead_offers;
DROP TABLE read.leads;
