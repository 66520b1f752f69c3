package org.poollab.crosscheck;

import java.util.SplittableRandom;

/**
 * When each request is due, as an offset from the start of the run. Each call to
 * {@link #nextOffsetNs()} gives the next request's; two schedules made alike give the
 * same offsets, so the timer thread and the sending loop can each walk their own copy.
 */
abstract class Schedule {

	abstract long nextOffsetNs();

	/** Request k at exactly k / rate, computed from k so that no rounding accumulates. */
	static Schedule even(double rateRps) {
		double intervalNs = 1e9 / rateRps;
		return new Schedule() {

			private long k;

			@Override
			long nextOffsetNs() {
				return Math.round(this.k++ * intervalNs);
			}

		};
	}

	/**
	 * Poisson arrivals: exponentially distributed gaps with mean 1 / rate, the first
	 * request at 0.
	 */
	static Schedule poisson(double rateRps, long seed) {
		double meanIntervalNs = 1e9 / rateRps;
		SplittableRandom random = new SplittableRandom(seed);
		return new Schedule() {

			private double offsetNs;

			@Override
			long nextOffsetNs() {
				long offset = Math.round(this.offsetNs);
				// 1 - nextDouble() is in (0, 1], so the logarithm is finite.
				this.offsetNs += -Math.log(1.0 - random.nextDouble()) * meanIntervalNs;
				return offset;
			}

		};
	}

}
