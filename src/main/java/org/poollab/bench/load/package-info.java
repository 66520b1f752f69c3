/**
 * Stage 3, load: JMeter runs (warm-up, measured windows, the generator's own ceiling),
 * the cross-check and the confirmation run.
 */
@NullMarked
package org.poollab.bench.load;

import org.jspecify.annotations.NullMarked;
