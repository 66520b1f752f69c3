package org.poollab.service.role;

/**
 * Something a role may do, e.g. {@code orders:read}.
 */
record Permission(long id, String name) {
}
