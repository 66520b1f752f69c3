package org.poollab.bench.results;

/**
 * A 95 % confidence interval of a percentile, from the window's samples by a block
 * bootstrap (see {@code BlockBootstrap}).
 *
 * @param lowMs lower bound
 * @param highMs upper bound
 */
public record Interval(double lowMs, double highMs) {
}
