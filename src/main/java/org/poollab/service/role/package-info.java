/**
 * The read workload: {@code GET /roles}, 20 roles with their permissions in one SQL
 * statement.
 */
@NullMarked
package org.poollab.service.role;

import org.jspecify.annotations.NullMarked;
