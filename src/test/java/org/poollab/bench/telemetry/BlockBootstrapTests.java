package org.poollab.bench.telemetry;

import java.util.Arrays;
import java.util.Random;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import org.poollab.bench.results.Interval;

import static org.assertj.core.api.Assertions.assertThat;

class BlockBootstrapTests {

	/**
	 * Known answer: independent exponential latencies with a mean of 10 ms have a median
	 * of 10 ln 2 = 6.93 ms and a 99th percentile of 10 ln 100 = 46.05 ms. Over 200
	 * windows of 5,000 requests (seeded, so the count is always the same), a 95 %
	 * interval must hold the true value in about 95 % of them: a binomial count of 200 at
	 * 0.95 lies within 180-200 with probability above 0.999, so a correct interval passes
	 * and one much too narrow (or too wide: 200 every time for the median is allowed, but
	 * not below 180) fails.
	 */
	@Test
	void intervalsHoldTheTruePercentilesAboutNineteenTimesInTwenty() {
		Random random = new Random(42);
		int medianHeld = 0;
		int p99Held = 0;
		for (int window = 0; window < 200; window++) {
			long[] valuesUs = new long[5_000];
			for (int i = 0; i < valuesUs.length; i++) {
				// microseconds, so that whole units do not blunt the percentiles
				valuesUs[i] = Math.round(-10_000 * Math.log(1 - random.nextDouble()));
			}
			BlockBootstrap.Intervals intervals = BlockBootstrap.of(valuesUs, 1000);
			medianHeld += holds(intervals.p50(), 10_000 * Math.log(2)) ? 1 : 0;
			p99Held += holds(intervals.p99(), 10_000 * Math.log(100)) ? 1 : 0;
		}
		assertThat(medianHeld).as("windows whose median interval holds the true median").isBetween(180, 200);
		assertThat(p99Held).as("windows whose p99 interval holds the true p99").isBetween(180, 200);
	}

	/**
	 * Slow episodes (a GC pause slowing 50 requests in a row) make a p99 depend on how
	 * many episodes a window caught: blocks keep an episode together, so the interval is
	 * wider than one that resamples requests one by one.
	 */
	@Test
	void correlatedSlowEpisodesWidenTheInterval() {
		Random random = new Random(7);
		long[] values = new long[10_000];
		for (int i = 0; i < values.length; i++) {
			values[i] = 1 + random.nextInt(3);
		}
		for (int episode = 0; episode < 4; episode++) {
			int start = random.nextInt(values.length - 50);
			for (int i = start; i < start + 50; i++) {
				values[i] = 40 + random.nextInt(20);
			}
		}
		Interval blocks = BlockBootstrap.of(values, 1000).p99();
		Interval singles = singleRequestBootstrap(values);
		assertThat(blocks.highMs() - blocks.lowMs()).isGreaterThan(2 * (singles.highMs() - singles.lowMs()));
	}

	@Test
	void blocksAreHalfASecondOfRequestsAndNeverShorterThanTheCubeRoot() {
		assertThat(BlockBootstrap.blockLength(10_000, 1000)).isEqualTo(500);
		assertThat(BlockBootstrap.blockLength(1_000, 2)).isEqualTo(10);
	}

	@Test
	void tooFewSamplesForTwoBlocksHaveNoInterval() {
		assertThat(BlockBootstrap.of(new long[] { 1, 2, 3 }, 1000)).isNull();
		assertThat(BlockBootstrap.of(new long[0], 1000)).isNull();
	}

	@Test
	void theSameSamplesGiveTheSameInterval() {
		long[] values = new Random(3).longs(5_000, 1, 30).toArray();
		assertThat(BlockBootstrap.of(values, 500)).isEqualTo(BlockBootstrap.of(values, 500));
	}

	private static boolean holds(Interval interval, double truth) {
		return interval.lowMs() <= truth && truth <= interval.highMs();
	}

	/** The naive bootstrap, for comparison: every request drawn on its own. */
	private static Interval singleRequestBootstrap(long[] values) {
		Random random = new Random(11);
		double[] p99s = new double[1000];
		Histogram histogram = new Histogram(3_600_000, 3);
		for (int r = 0; r < p99s.length; r++) {
			histogram.reset();
			for (int i = 0; i < values.length; i++) {
				histogram.recordValue(values[random.nextInt(values.length)]);
			}
			p99s[r] = histogram.getValueAtPercentile(99);
		}
		Arrays.sort(p99s);
		return new Interval(p99s[25], p99s[974]);
	}

}
