-- Write-heavy workload (from Mahmud 2022, "Configuring Connection Pooling with Spring R2DBC": a request that inserts a hundred records): every
-- POST /roles/{id}/audit writes 100 audit events for a role in one transaction. The sweep
-- empties the table between points so it cannot grow without bound across runs.
CREATE TABLE role_audit (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    role_id     bigint       NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
    event       varchar(64)  NOT NULL,
    recorded_at timestamptz  NOT NULL DEFAULT now()
);

CREATE INDEX role_audit_role_id_idx ON role_audit (role_id);
