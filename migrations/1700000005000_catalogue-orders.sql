-- Up Migration

-- The catalogue: one row per listed product (removed products are deleted; orders keep their names and prices).
CREATE TABLE read.products (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  price numeric(12, 2) NOT NULL,
  category text NOT NULL,
  -- units available to order now; reserved units are already taken off
  stock_quantity integer NOT NULL,
  moq integer NOT NULL,
  description text NOT NULL,
  image text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX products_category ON read.products (category);
CREATE INDEX products_created ON read.products (created_at DESC);
CREATE INDEX products_name ON read.products (lower(name));

CREATE TABLE read.orders (
  id uuid PRIMARY KEY,
  order_number text NOT NULL,
  -- the ordering organisation: the partner or distributor account (a team member's parent)
  organisation_id uuid NOT NULL,
  company_name text,
  placed_by uuid NOT NULL,
  status text NOT NULL,
  notes text,
  shipping_address jsonb NOT NULL,
  estimated_delivery date NOT NULL,
  total_amount numeric(14, 2) NOT NULL,
  item_count integer NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  approved_at timestamptz,
  shipped_at timestamptz,
  delivered_at timestamptz,
  cancelled_at timestamptz
);
CREATE UNIQUE INDEX orders_number ON read.orders (order_number);
CREATE INDEX orders_organisation ON read.orders (organisation_id, created_at DESC);
CREATE INDEX orders_created ON read.orders (created_at DESC);
CREATE INDEX orders_status ON read.orders (status);

CREATE TABLE read.order_items (
  order_id uuid NOT NULL,
  line integer NOT NULL,
  product_id uuid NOT NULL,
  product_name text NOT NULL,
  quantity integer NOT NULL,
  unit_price numeric(12, 2) NOT NULL,
  line_total numeric(14, 2) NOT NULL,
  PRIMARY KEY (order_id, line)
);
CREATE INDEX order_items_product ON read.order_items (product_id);

-- Order numbers (ORD-<year>-<number>) are drawn from this sequence when an order is placed and then
-- live in the order's first event. A number drawn for an order that was refused is simply skipped.
CREATE SEQUENCE order_numbers START 1001;

-- Down Migration
DROP SEQUENCE order_numbers;
DROP TABLE read.order_items;
DROP TABLE read.orders;
DROP TABLE read.products;
