-- Seed data of the paper's size: 20 roles, 100 permissions (20 resources x 5 actions),
-- exactly 10 permissions per role (200 links). Deterministic, so every run reads the same rows.
INSERT INTO permissions (name)
SELECT resource || ':' || action
FROM unnest(ARRAY['users', 'roles', 'permissions', 'orders', 'invoices', 'payments', 'refunds', 'products',
                  'prices', 'stock', 'shipments', 'returns', 'customers', 'suppliers', 'contracts',
                  'reports', 'audit-logs', 'settings', 'api-keys', 'webhooks']) WITH ORDINALITY AS r(resource, ri)
CROSS JOIN unnest(ARRAY['read', 'create', 'update', 'delete', 'export']) WITH ORDINALITY AS a(action, ai)
ORDER BY ri, ai;

INSERT INTO roles (name, description)
SELECT name, 'Role for ' || replace(name, '-', ' ') || ' staff'
FROM unnest(ARRAY['admin', 'auditor', 'billing-clerk', 'billing-manager', 'catalog-editor', 'catalog-manager',
                  'customer-support', 'support-lead', 'developer', 'devops', 'finance-analyst', 'finance-manager',
                  'inventory-clerk', 'inventory-manager', 'logistics', 'procurement', 'sales-rep', 'sales-manager',
                  'security-officer', 'viewer']) WITH ORDINALITY AS t(name, n)
ORDER BY n;

-- Role r gets the 10 permissions p with (p + 3r) divisible by 10.
INSERT INTO role_permissions (role_id, permission_id)
SELECT r.id, p.id
FROM roles r
JOIN permissions p ON (p.id + 3 * r.id) % 10 = 0;
