-- Role-based access control on MariaDB/MySQL: postgresql/V1__rbac_schema.sql's tables, names,
-- constraints and indexes, with AUTO_INCREMENT for PostgreSQL's identity columns.
CREATE TABLE roles (
    id          bigint       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    name        varchar(64)  NOT NULL UNIQUE,
    description varchar(255) NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE permissions (
    id   bigint      NOT NULL AUTO_INCREMENT PRIMARY KEY,
    name varchar(64) NOT NULL UNIQUE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE role_permissions (
    role_id       bigint NOT NULL,
    permission_id bigint NOT NULL,
    -- Also the index for "permissions of a role" lookups (role_id leads), and the one the
    -- role_id foreign key uses.
    CONSTRAINT role_permissions_role_permission_unique UNIQUE (role_id, permission_id),
    -- Declared here, so InnoDB uses it for the permission_id foreign key instead of
    -- creating one of its own.
    INDEX role_permissions_permission_id_idx (permission_id),
    CONSTRAINT role_permissions_role_id_fkey FOREIGN KEY (role_id) REFERENCES roles (id) ON DELETE CASCADE,
    CONSTRAINT role_permissions_permission_id_fkey FOREIGN KEY (permission_id) REFERENCES permissions (id)
        ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
