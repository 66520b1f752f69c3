-- Role-based access control: roles, permissions and their many-to-many link.
CREATE TABLE roles (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        varchar(64)  NOT NULL UNIQUE,
    description varchar(255) NOT NULL
);

CREATE TABLE permissions (
    id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name varchar(64) NOT NULL UNIQUE
);

CREATE TABLE role_permissions (
    role_id       bigint NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
    permission_id bigint NOT NULL REFERENCES permissions (id) ON DELETE CASCADE,
    -- Also the index for "permissions of a role" lookups (role_id leads).
    CONSTRAINT role_permissions_role_permission_unique UNIQUE (role_id, permission_id)
);

CREATE INDEX role_permissions_permission_id_idx ON role_permissions (permission_id);
