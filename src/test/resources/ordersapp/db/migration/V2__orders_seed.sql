INSERT INTO customer (name) SELECT 'customer ' || n FROM generate_series(1, 20) n;
INSERT INTO customer_order (id, customer_id, archived, noted)
    SELECT n, 1 + n % 20, n % 25 = 0, n % 2 = 0 FROM generate_series(1, 100) n;
INSERT INTO order_line (order_id, item, quantity)
    SELECT o, 'item ' || i, 1 + (o + i) % 3 FROM generate_series(1, 100) o, generate_series(1, 3) i;
