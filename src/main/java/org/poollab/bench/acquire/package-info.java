/**
 * Pooled vs unpooled acquire cost, after Vlad Mihalcea's "The anatomy of Connection
 * Pooling" (2014).
 */
@NullMarked
package org.poollab.bench.acquire;

import org.jspecify.annotations.NullMarked;
