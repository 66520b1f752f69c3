package org.poollab.bench.results;

/**
 * A point measured a second time, right after JMeter's window, on the same deployment at
 * the same pool size and rate, by the lab's independent open-loop generator
 * ({@code org.poollab.crosscheck.OpenLoopCheck}): latency from each request's intended
 * send time, microsecond resolution.
 *
 * @param p50Ms median
 * @param p99Ms 99th percentile
 * @param sendLagP99Ms how late its sends were, 99th percentile
 * @param sentRps the rate it sent in its window
 * @param errors requests without a 2xx answer (timeouts included)
 * @param cpuCores its own process CPU over the run
 * @param agrees whether its p50 and p99 are both within 1.5x or 3 ms (whichever is
 * larger) of JMeter's
 */
public record CrossCheck(double p50Ms, double p99Ms, double sendLagP99Ms, double sentRps, long errors, double cpuCores,
		boolean agrees) {
}
