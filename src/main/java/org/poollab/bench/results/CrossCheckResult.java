package org.poollab.bench.results;

import org.poollab.bench.text.Durations;

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
 * @param agrees whether its p50 and p99 both {@link #agree agree} with JMeter's
 */
public record CrossCheckResult(double p50Ms, double p99Ms, double sendLagP99Ms, double sentRps, long errors,
		double cpuCores, boolean agrees) {

	/** Agreement: within this factor ... */
	public static final double AGREEMENT_FACTOR = 1.5;

	/** ... or within this many milliseconds, whichever is larger. */
	public static final double AGREEMENT_MS = 3.0;

	/**
	 * Whether two latencies agree: within {@link #AGREEMENT_FACTOR} or
	 * {@link #AGREEMENT_MS}, whichever is larger. The lab's one tolerance between two
	 * ways of measuring (or predicting) the same latency.
	 */
	public static boolean agree(double aMs, double bMs) {
		double low = Math.min(aMs, bMs);
		double high = Math.max(aMs, bMs);
		return high - low <= AGREEMENT_MS || high <= low * AGREEMENT_FACTOR;
	}

	/** The tolerance in words: {@code 1.5x or 3 ms}. */
	public static String tolerance() {
		return Durations.ms(AGREEMENT_FACTOR) + "x or " + Durations.ms(AGREEMENT_MS) + " ms";
	}

}
