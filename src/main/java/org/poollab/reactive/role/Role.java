package org.poollab.reactive.role;

import java.util.List;

/**
 * A role with the permissions it grants. The JDBC service's record, field for field, so
 * that both serialize to the same JSON.
 */
record Role(long id, String name, String description, List<Permission> permissions) {
}
