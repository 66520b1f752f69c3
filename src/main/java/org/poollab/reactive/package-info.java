/**
 * The reactive twin of the service under test ({@code org.poollab.service}): the same
 * {@code GET /roles} and the write workload on WebFlux over an r2dbc-pool, on the same
 * schema and seed data.
 */
@NullMarked
package org.poollab.reactive;

import org.jspecify.annotations.NullMarked;
