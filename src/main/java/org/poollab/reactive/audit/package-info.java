/**
 * The write workload, reactive: {@code POST /roles/{id}/audit} inserts 100 rows in one
 * transaction, as on the JDBC service.
 */
@NullMarked
package org.poollab.reactive.audit;

import org.jspecify.annotations.NullMarked;
