-- Up Migration

-- Deal registrations (projects): one row per project that was not deleted.
CREATE TABLE read.projects (
  id uuid PRIMARY KEY,
  -- the registering organisation: the partner account (a team member's parent)
  organisation_id uuid NOT NULL,
  company_name text,
  created_by uuid NOT NULL,
  title text NOT NULL,
  status text NOT NULL,
  progress integer NOT NULL,
  value numeric(14, 2),
  expected_closure_date date,
  country_region text,
  sales_person text,
  project_stage text,
  project_progress_remarks text,
  end_user_requirements text,
  end_user_customer_name text,
  end_user_location text,
  end_user_it_head_name text,
  end_user_contact_number text,
  end_user_email text,
  partner_company_name text,
  partner_company_location text,
  partner_email text,
  partner_contact_number text,
  boq_file text,
  -- the registration's lifecycle: pending, conflict, approved, rejected, expired
  registration_status text NOT NULL,
  submitted_at timestamptz NOT NULL,
  -- when the protection ends; moves with an approved extension
  expires_at timestamptz NOT NULL,
  -- the earlier registration of another organisation this one collides with
  conflict_with uuid,
  review_note text,
  reviewed_at timestamptz,
  extension_status text NOT NULL DEFAULT 'none',
  extension_reason text,
  extension_decision_note text,
  extension_requested_at timestamptz,
  reminders_sent text[] NOT NULL DEFAULT '{}',
  -- the customer as registrations are compared (lower case, letters and digits only) and the end-user e-mail domain
  customer_key text NOT NULL,
  email_domain text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX projects_organisation ON read.projects (organisation_id, created_at DESC);
CREATE INDEX projects_created ON read.projects (created_at DESC);
CREATE INDEX projects_customer ON read.projects (customer_key) WHERE customer_key <> '';
CREATE INDEX projects_registration ON read.projects (registration_status, expires_at);

CREATE TABLE read.project_milestones (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL,
  name text NOT NULL,
  date date NOT NULL,
  status text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX project_milestones_project ON read.project_milestones (project_id, date);

CREATE TABLE read.project_team (
  project_id uuid NOT NULL,
  user_id uuid NOT NULL,
  added_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, user_id)
);

CREATE TABLE read.project_orders (
  project_id uuid NOT NULL,
  order_id uuid NOT NULL,
  linked_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, order_id)
);
CREATE INDEX project_orders_order ON read.project_orders (order_id);

-- Down Migration
DROP TABLE read.project_orders;
DROP TABLE read.project_team;
DROP TABLE read.project_milestones;
DROP TABLE read.projects;
