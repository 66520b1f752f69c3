/**
 * Stage 1, the grid: presets and the points they expand into (topology, pool size, rate,
 * repeat, arrivals, workload).
 */
@NullMarked
package org.poollab.bench.grid;

import org.jspecify.annotations.NullMarked;
