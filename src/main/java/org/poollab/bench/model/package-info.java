/**
 * The lab's models, pure arithmetic with no part of a running sweep: a multi-server queue
 * per instance between the grid's pool sizes ({@link org.poollab.bench.model.ErlangC},
 * {@link org.poollab.bench.model.QueueModel}), the database's Universal Scalability Law
 * ({@link org.poollab.bench.model.Usl}), the fleet's connection arithmetic
 * ({@link org.poollab.bench.model.Fleet}) and the search over pool sizes
 * ({@link org.poollab.bench.model.PoolSearch}). Every stage may use them; they use none.
 */
@NullMarked
package org.poollab.bench.model;

import org.jspecify.annotations.NullMarked;
