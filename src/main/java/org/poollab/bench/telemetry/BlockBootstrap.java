package org.poollab.bench.telemetry;

import org.HdrHistogram.Histogram;
import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.random.Well19937c;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.apache.commons.math3.stat.descriptive.rank.Percentile.EstimationType;
import org.jspecify.annotations.Nullable;

import org.poollab.bench.results.Interval;

/**
 * How sure a window's p50 and p99 are: a 95 % confidence interval from the window's own
 * samples by the circular moving-block bootstrap (Künsch 1989; Politis and Romano 1992).
 * <p>
 * Neighbouring requests are not independent here: a GC pause, a JIT compilation or the
 * scheduler handing both cores to PostgreSQL slows every request for tens to hundreds of
 * milliseconds, and a p99 is made of such episodes. Resampling single requests would
 * treat one episode's 20 slow requests as 20 independent draws and give intervals far too
 * narrow; resampling blocks of {@link #BLOCK_MS} keeps an episode together, so the
 * interval says how much the percentile depends on how many episodes fell into the
 * window. The resampling is written here because neither commons-math3 nor Hipparchus has
 * a bootstrap; each replicate's percentile comes from HdrHistogram (the same definition
 * as the point's own figure) and the interval from commons-math3's {@link Percentile} of
 * the replicates.
 * <p>
 * The generator is seeded, so the same samples always give the same interval.
 */
final class BlockBootstrap {

	/** Replicates per interval: enough for stable 2.5 % and 97.5 % quantiles. */
	static final int REPLICATES = 1000;

	/** The interval's confidence. */
	static final double CONFIDENCE = 0.95;

	/**
	 * A block's length in time: longer than the episodes that make a p99 on this box (GC
	 * pauses and scheduler stalls of tens to hundreds of milliseconds).
	 */
	static final long BLOCK_MS = 500;

	private static final long SEED = 20261124L;

	private BlockBootstrap() {
	}

	/**
	 * The intervals of the median and the 99th percentile.
	 * @param valuesMs the window's latencies in order of sending, whole milliseconds
	 * @param rateRps requests per second, to size the blocks in requests
	 * @return the two intervals, or {@code null} for fewer than two blocks' worth of
	 * samples (no interval can be told from one block)
	 */
	static @Nullable Intervals of(long[] valuesMs, double rateRps) {
		int n = valuesMs.length;
		int block = blockLength(n, rateRps);
		if (n < 2 * block || n == 0) {
			return null;
		}
		RandomGenerator random = new Well19937c(SEED);
		Histogram histogram = new Histogram(LoadWindow.HIGHEST_MS, 3);
		double[] p50s = new double[REPLICATES];
		double[] p99s = new double[REPLICATES];
		for (int r = 0; r < REPLICATES; r++) {
			histogram.reset();
			int taken = 0;
			while (taken < n) {
				int start = random.nextInt(n);
				for (int i = 0; i < block && taken < n; i++, taken++) {
					histogram.recordValue(Math.min(valuesMs[(start + i) % n], LoadWindow.HIGHEST_MS));
				}
			}
			p50s[r] = histogram.getValueAtPercentile(50);
			p99s[r] = histogram.getValueAtPercentile(99);
		}
		return new Intervals(interval(p50s), interval(p99s));
	}

	/**
	 * Requests per block: {@link #BLOCK_MS} at the rate, and at least n^(1/3), the usual
	 * order of a block bootstrap's block (Hall, Horowitz and Jing 1995).
	 */
	static int blockLength(int n, double rateRps) {
		int byTime = (int) Math.ceil(rateRps * BLOCK_MS / 1000.0);
		return Math.max(1, Math.max(byTime, (int) Math.ceil(Math.cbrt(n))));
	}

	private static Interval interval(double[] replicates) {
		Percentile percentile = new Percentile().withEstimationType(EstimationType.R_7);
		percentile.setData(replicates);
		double tail = 100 * (1 - CONFIDENCE) / 2;
		return new Interval(percentile.evaluate(tail), percentile.evaluate(100 - tail));
	}

	/**
	 * @param p50 the median's interval
	 * @param p99 the 99th percentile's interval
	 */
	record Intervals(Interval p50, Interval p99) {
	}

}
