package org.poollab.service.role;

import java.util.List;

/**
 * A role with the permissions it grants.
 */
record Role(long id, String name, String description, List<Permission> permissions) {
}
