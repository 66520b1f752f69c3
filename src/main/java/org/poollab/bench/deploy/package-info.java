/**
 * Stage 2, deploy: the database, the service instances, nginx and pgbouncer a point runs
 * on, and the pool resize between points.
 */
@NullMarked
package org.poollab.bench.deploy;

import org.jspecify.annotations.NullMarked;
