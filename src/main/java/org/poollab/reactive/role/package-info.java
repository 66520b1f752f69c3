/**
 * The read workload, reactive: {@code GET /roles}, 20 roles with their permissions in the
 * JDBC service's one SQL statement.
 */
@NullMarked
package org.poollab.reactive.role;

import org.jspecify.annotations.NullMarked;
