package org.poollab.bench.results;

import java.util.List;

/**
 * A fresh deployment's warm-up: load at {@code rateRps} (after a ramp) until the slowest
 * instance's own p99 ({@code http.server.requests}) of one slice was within 20 % or 1 ms
 * of the slice before, or until {@code bench.topologyWarmup}.
 *
 * @param deployment the deployment's label, e.g. {@code single}
 * @param rateRps the rate held
 * @param seconds how long the load ran, ramp included
 * @param sliceSeconds how long each slice was
 * @param end how it ended
 * @param serverP99sMs the slowest instance's p99 in each slice after the ramp, -1 where
 * an instance had no figures
 */
public record WarmUpRecord(String deployment, int rateRps, double seconds, long sliceSeconds, End end,
		List<Double> serverP99sMs) {

	/**
	 * A slice this many times the p99 objective, twice in a row, ends a warm-up as
	 * {@link End#OVERLOADED}.
	 */
	public static final int OVERLOAD_FACTOR = 10;

	/** How a warm-up ended. */
	public enum End {

		/** The slowest instance's p99 settled at the top rate. */
		SETTLED,

		/**
		 * Stopped early: an instance did not answer, or its p99 was above
		 * {@link #OVERLOAD_FACTOR} times the objective twice in a row.
		 */
		OVERLOADED,

		/** {@code bench.topologyWarmup} reached. */
		LIMIT

	}

	public boolean settled() {
		return this.end == End.SETTLED;
	}

}
