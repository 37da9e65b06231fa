-- Up Migration
-- The Pending tab shows two statuses. An index on (status, created_at) cannot give the newest of two
-- statuses in order, so at a million orders the tab sorted every pending and processing order for its
-- first page; this partial index holds exactly those orders, newest first.
CREATE INDEX IF NOT EXISTS orders_pending_created ON read.orders (created_at DESC, id DESC) WHERE status IN ('pending', 'processing');

-- Down Migration
DROP INDEX IF EXISTS read.orders_pending_created;
