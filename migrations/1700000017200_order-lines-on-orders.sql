-- Up Migration
-- An order's lines never change after it is placed: the order row carries them too, so a page of orders
-- and one order are read without gathering lines from read.order_items (which stays, for questions
-- across orders such as units sold per product).
ALTER TABLE read.orders ADD COLUMN items jsonb NOT NULL DEFAULT '[]';
UPDATE read.orders o SET items = lines.items
FROM (
  SELECT order_id, jsonb_agg(jsonb_build_object('line', line, 'product_id', product_id, 'product_name', product_name, 'quantity', quantity, 'unit_price', unit_price, 'line_total', line_total) ORDER BY line) AS items
  FROM read.order_items GROUP BY order_id
) lines
WHERE lines.order_id = o.id;

-- Down Migration
ALTER TABLE read.orders DROP COLUMN items;
