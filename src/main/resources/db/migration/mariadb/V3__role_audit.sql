-- postgresql/V3__role_audit.sql on MariaDB/MySQL: the write workload's table (POST
-- /roles/{id}/audit writes 100 events for a role in one transaction). timestamp(6) for
-- timestamptz: stored in UTC, to the microsecond, as PostgreSQL's is.
CREATE TABLE role_audit (
    id          bigint       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    role_id     bigint       NOT NULL,
    event       varchar(64)  NOT NULL,
    recorded_at timestamp(6) NOT NULL DEFAULT current_timestamp(6),
    INDEX role_audit_role_id_idx (role_id),
    CONSTRAINT role_audit_role_id_fkey FOREIGN KEY (role_id) REFERENCES roles (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
