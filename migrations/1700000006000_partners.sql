-- Up Migration

-- One row per partner application, from its first submission on; approved rows form the partner directory.
-- The id is the applicant's account id (read.users.id), which is also the partner organisation's id.
CREATE TABLE read.partners (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  status text NOT NULL,
  company_name text NOT NULL,
  company_logo text,
  contact_email text,
  contact_name text,
  phone_number text,
  website text,
  job_title text,
  job_title_other text,
  country text,
  country_other text,
  city text,
  location text,
  business_address text,
  region text,
  -- 'application' when the applicant chose it, 'country' when it follows from the questionnaire's country
  region_source text,
  business_type text,
  business_type_other text,
  years_in_business text,
  years_in_operation text,
  employees_range text,
  business_description text,
  business_description_other text,
  key_products text,
  target_markets text[] NOT NULL DEFAULT '{}',
  target_markets_other text,
  certifications text,
  partner_references text,
  business_registration_number text,
  tax_id text,
  country_of_incorporation text,
  country_of_incorporation_other text,
  annual_turnover text,
  annual_turnover_other text,
  turnover_currency text,
  turnover_currency_other text,
  fiscal_year_end_month text,
  are_financials_audited text,
  agreed_to_terms boolean NOT NULL DEFAULT false,
  requested_category text,
  category text,
  tier text,
  granted_permissions text[] NOT NULL DEFAULT '{}',
  rating numeric(2, 1),
  projects_count integer NOT NULL DEFAULT 0,
  rejection_reason text,
  application_submitted_at timestamptz,
  questionnaire_submitted_at timestamptz,
  decided_at timestamptz,
  decided_by uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX partners_status ON read.partners (status, created_at DESC);
CREATE INDEX partners_user ON read.partners (user_id);

-- Down Migration
DROP TABLE read.partners;
