/**
 * Stage 4, collect: every window cut out of JMeter's samples by timestamp, and the
 * instances' own pool and latency figures scraped beside it.
 */
@NullMarked
package org.poollab.bench.telemetry;

import org.jspecify.annotations.NullMarked;
