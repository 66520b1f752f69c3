-- postgresql/V2__rbac_seed.sql's rows on MariaDB/MySQL, so GET /roles answers the same body:
-- 20 roles, 100 permissions (20 resources x 5 actions), exactly 10 permissions per role (200
-- links). The ids are given, not left to AUTO_INCREMENT, so they are PostgreSQL's 1-20 and
-- 1-100 whatever a server's auto_increment_increment (a Galera cluster, for one, steps by more
-- than 1).
INSERT INTO permissions (id, name)
WITH resources (resource, ri) AS (
    VALUES ('users', 1), ('roles', 2), ('permissions', 3), ('orders', 4), ('invoices', 5), ('payments', 6),
           ('refunds', 7), ('products', 8), ('prices', 9), ('stock', 10), ('shipments', 11), ('returns', 12),
           ('customers', 13), ('suppliers', 14), ('contracts', 15), ('reports', 16), ('audit-logs', 17),
           ('settings', 18), ('api-keys', 19), ('webhooks', 20)
),
actions (action, ai) AS (
    VALUES ('read', 1), ('create', 2), ('update', 3), ('delete', 4), ('export', 5)
)
SELECT (ri - 1) * 5 + ai, concat(resource, ':', action)
FROM resources
CROSS JOIN actions
ORDER BY ri, ai;

INSERT INTO roles (id, name, description)
WITH names (name, n) AS (
    VALUES ('admin', 1), ('auditor', 2), ('billing-clerk', 3), ('billing-manager', 4), ('catalog-editor', 5),
           ('catalog-manager', 6), ('customer-support', 7), ('support-lead', 8), ('developer', 9), ('devops', 10),
           ('finance-analyst', 11), ('finance-manager', 12), ('inventory-clerk', 13), ('inventory-manager', 14),
           ('logistics', 15), ('procurement', 16), ('sales-rep', 17), ('sales-manager', 18),
           ('security-officer', 19), ('viewer', 20)
)
SELECT n, name, concat('Role for ', replace(name, '-', ' '), ' staff')
FROM names
ORDER BY n;

-- Role r gets the 10 permissions p with (p + 3r) divisible by 10.
INSERT INTO role_permissions (role_id, permission_id)
SELECT r.id, p.id
FROM roles r
JOIN permissions p ON (p.id + 3 * r.id) % 10 = 0;
