-- The rows every PostgreSQL store fixture holds (a warehouse, an item, its stock, an order).
INSERT INTO warehouses (warehouse_id, name, city) VALUES ('WH-01', 'Main', 'Shanghai');
INSERT INTO items (sku, name) VALUES ('SKU-10232', 'Kraft mailer box');
INSERT INTO stock VALUES ('SKU-10232', 'WH-01', 12, 40, 0, '2026-11-30T08:00:00+00:00');
INSERT INTO orders (sku, warehouse_id, quantity, status, created_at, idempotency_key, run_id, observed_on_hand, observed_at) VALUES ('SKU-10232', 'WH-01', 68, 'open', '2026-11-30T08:00:00+00:00', 'k-1', 'run-1', 12, '2026-11-30T08:00:00+00:00');
