CREATE TABLE customer (
    id   BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name VARCHAR(200) NOT NULL
);
-- One order in 25 is archived, one in 2 carries a customer note (the page then shows
-- the customer): 2.5 statements per page on average.
CREATE TABLE customer_order (
    id          BIGINT PRIMARY KEY,
    customer_id BIGINT NOT NULL REFERENCES customer (id),
    archived    BOOLEAN NOT NULL,
    noted       BOOLEAN NOT NULL
);
CREATE TABLE order_line (
    id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    order_id BIGINT NOT NULL REFERENCES customer_order (id),
    item     VARCHAR(200) NOT NULL,
    quantity INT NOT NULL
);
CREATE INDEX order_line_order_id ON order_line (order_id);
-- Archived lines live elsewhere: reading them costs tens of milliseconds (a cold
-- archive, a foreign table, a lock); pg_sleep stands for that wait.
CREATE FUNCTION archived_order_lines(order_id BIGINT) RETURNS TABLE (item VARCHAR, quantity INT)
    LANGUAGE sql AS $$
    SELECT l.item, l.quantity FROM order_line l, pg_sleep(0.06) WHERE l.order_id = archived_order_lines.order_id
$$;
