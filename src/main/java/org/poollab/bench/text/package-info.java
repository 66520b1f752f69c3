/**
 * How the lab writes durations, latencies and rates for people: one formatter below the
 * deciding stage, the report and the console, so they all read alike.
 */
@NullMarked
package org.poollab.bench.text;

import org.jspecify.annotations.NullMarked;
