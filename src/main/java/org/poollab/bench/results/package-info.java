/**
 * The results contract every stage writes and the report reads: {@code results.json},
 * {@code results.csv} and their records.
 */
@NullMarked
package org.poollab.bench.results;

import org.jspecify.annotations.NullMarked;
