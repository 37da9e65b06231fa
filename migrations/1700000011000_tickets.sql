-- Up Migration

-- Support tickets: one row per ticket that is not deleted.
CREATE TABLE read.tickets (
  id uuid PRIMARY KEY,
  ticket_number text NOT NULL,
  -- the organisation that opened it: the partner or distributor account (a team member's parent)
  organisation_id uuid NOT NULL,
  company_name text,
  created_by uuid NOT NULL,
  title text NOT NULL,
  description text NOT NULL,
  priority text NOT NULL,
  category text NOT NULL,
  status text NOT NULL,
  tags text[] NOT NULL DEFAULT '{}',
  -- when support must have answered: the given due date or the priority's service level
  due_at timestamptz NOT NULL,
  due_date_given boolean NOT NULL,
  assigned_to uuid,
  resolution_notes text,
  -- set when the overdue job marked the ticket; cleared when the due time moves
  overdue_at timestamptz,
  -- [{ name, originalName, type }]: private uploads
  attachments jsonb NOT NULL DEFAULT '[]',
  public_comment_count integer NOT NULL DEFAULT 0,
  comment_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  resolved_at timestamptz,
  closed_at timestamptz
);
CREATE UNIQUE INDEX tickets_number ON read.tickets (ticket_number);
CREATE INDEX tickets_organisation ON read.tickets (organisation_id, created_at DESC);
CREATE INDEX tickets_status ON read.tickets (status, due_at);
CREATE INDEX tickets_assignee ON read.tickets (assigned_to);

-- The conversation: public replies and internal notes, including the comments given with a status change or an assignment.
CREATE TABLE read.ticket_comments (
  id uuid PRIMARY KEY,
  ticket_id uuid NOT NULL,
  author_id uuid,
  comment text NOT NULL,
  is_internal boolean NOT NULL,
  -- comment, initial, status (with status_to) or assignment
  kind text NOT NULL,
  status_to text,
  created_at timestamptz NOT NULL
);
CREATE INDEX ticket_comments_ticket ON read.ticket_comments (ticket_id, created_at);

-- Each attachment of a ticket that exists: the private upload's name (the uploads clean-up keeps every file named here).
CREATE TABLE read.ticket_attachments (
  name text PRIMARY KEY,
  ticket_id uuid NOT NULL,
  original_name text NOT NULL,
  type text NOT NULL
);
CREATE INDEX ticket_attachments_ticket ON read.ticket_attachments (ticket_id);

-- Returns: an RMA ticket names the unit it is about.
ALTER TABLE read.tickets ADD COLUMN rma_serial_number text, ADD COLUMN rma_order_id uuid, ADD COLUMN rma_order_number text, ADD COLUMN rma_product_name text;

-- Every unit of a shipped order, by serial number (written when the order ships).
CREATE TABLE read.order_units (
  serial_number text PRIMARY KEY,
  order_id uuid NOT NULL,
  organisation_id uuid NOT NULL,
  product_id uuid NOT NULL,
  product_name text NOT NULL,
  shipped_at timestamptz NOT NULL
);
CREATE INDEX order_units_order ON read.order_units (order_id);

-- Warranty look-ups made in the Support Center.
CREATE TABLE read.warranty_checks (
  id uuid PRIMARY KEY,
  serial_number text NOT NULL,
  checked_by uuid NOT NULL,
  organisation_id uuid NOT NULL,
  found boolean NOT NULL,
  order_id uuid,
  under_warranty boolean,
  checked_at timestamptz NOT NULL
);
CREATE INDEX warranty_checks_serial ON read.warranty_checks (serial_number, checked_at DESC);

-- The Support Center's resources library: documents for the roles chosen (the file is a private upload).
CREATE TABLE read.resources (
  id uuid PRIMARY KEY,
  title text NOT NULL,
  category text NOT NULL,
  description text NOT NULL,
  roles text[] NOT NULL,
  file_name text NOT NULL,
  original_name text NOT NULL,
  type text NOT NULL,
  published_by uuid,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX resources_file ON read.resources (file_name);

-- Settings administrators change (System Settings): one row per setting, its value as JSON.
CREATE TABLE read.settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Ticket numbers (TCK-<year>-<number>) are drawn here when a ticket is opened and then live in its first event.
CREATE SEQUENCE ticket_numbers START 1;

-- Down Migration
DROP SEQUENCE ticket_numbers;
DROP TABLE read.settings;
DROP TABLE read.resources;
DROP TABLE read.warranty_checks;
DROP TABLE read.order_units;
DROP TABLE read.ticket_attachments;
DROP TABLE read.ticket_comments;
DROP TABLE read.tickets;
