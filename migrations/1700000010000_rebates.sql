-- Up Migration

-- One row per rebate claim that has not been deleted. The id derives from the organisation and the
-- invoice number, so an organisation has at most one claim per invoice.
CREATE TABLE read.rebates (
  id uuid PRIMARY KEY,
  -- the claiming organisation: the partner or distributor account (a team member's parent)
  organisation_id uuid NOT NULL,
  company_name text,
  submitted_by uuid NOT NULL,
  product_name text NOT NULL,
  product_category text NOT NULL,
  purchase_date date NOT NULL,
  -- normalized: trimmed, single spaces, upper case
  invoice_number text NOT NULL,
  purchase_amount numeric(14, 2) NOT NULL,
  rebate_type text NOT NULL,
  description text NOT NULL,
  status text NOT NULL,
  -- set on approval
  rebate_amount numeric(14, 2),
  -- the reviewer's latest note (on rejection: the reason)
  notes text,
  rejection_reason text,
  document_count integer NOT NULL,
  submitted_at timestamptz NOT NULL,
  reviewed_at timestamptz,
  reviewed_by uuid,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX rebates_invoice ON read.rebates (organisation_id, invoice_number);
CREATE INDEX rebates_organisation ON read.rebates (organisation_id, submitted_at DESC);
CREATE INDEX rebates_submitted ON read.rebates (submitted_at DESC);
CREATE INDEX rebates_status ON read.rebates (status);
CREATE INDEX rebates_purchase_date ON read.rebates (organisation_id, purchase_date);

-- The supporting documents of each claim, in the order they were attached. Files are private.
CREATE TABLE read.rebate_documents (
  rebate_id uuid NOT NULL,
  position integer NOT NULL,
  file text NOT NULL,
  name text NOT NULL,
  type text NOT NULL,
  size integer NOT NULL,
  PRIMARY KEY (rebate_id, position)
);
CREATE UNIQUE INDEX rebate_documents_file ON read.rebate_documents (file);

-- Down Migration
DROP TABLE read.rebate_documents;
DROP TABLE read.rebates;
