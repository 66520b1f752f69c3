/**
 * The write workload: {@code POST /roles/{id}/audit} inserts 100 rows in one transaction.
 */
@NullMarked
package org.poollab.service.audit;

import org.jspecify.annotations.NullMarked;
