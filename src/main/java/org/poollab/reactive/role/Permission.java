package org.poollab.reactive.role;

/**
 * Something a role may do, e.g. {@code orders:read}. The JDBC service's record, field for
 * field, so that both serialize to the same JSON.
 */
record Permission(long id, String name) {
}
