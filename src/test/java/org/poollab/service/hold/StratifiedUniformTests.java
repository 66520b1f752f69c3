package org.poollab.service.hold;

import java.util.Arrays;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;

import org.apache.commons.math3.random.Well19937c;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Stratified draws: every block of 100 holds each percentile once, and a window of a few
 * thousand draws holds a heavy tail in proportion where independent draws do not.
 */
class StratifiedUniformTests {

	/**
	 * Shaped like an orders app's window (connection-hold.md): most uses within 2 ms,
	 * 1.55 % of them from 56 to 68 ms (a rare 60 ms query) carrying most of the mean.
	 */
	private static final HoldHistogram TAIL = HoldHistogram.parse("0.5:0.35,1:0.75,2:0.9845,56:0.9845,60:0.993,68:1",
			1.47);

	@Test
	void everyBlockHoldsEachPercentileOnce() {
		StratifiedUniform uniform = new StratifiedUniform(5);
		for (int block = 0; block < 20; block++) {
			int[] strata = IntStream.range(0, StratifiedUniform.BLOCK)
				.map((i) -> (int) (uniform.getAsDouble() * StratifiedUniform.BLOCK))
				.sorted()
				.toArray();
			assertThat(strata).containsExactly(IntStream.range(0, StratifiedUniform.BLOCK).toArray());
		}
	}

	@Test
	void theOrderWithinABlockIsShuffled() {
		StratifiedUniform uniform = new StratifiedUniform(5);
		double[] first = DoubleStream.generate(uniform).limit(StratifiedUniform.BLOCK).toArray();
		double[] second = DoubleStream.generate(uniform).limit(StratifiedUniform.BLOCK).toArray();
		assertThat(first).isNotEqualTo(Arrays.stream(first).sorted().toArray());
		int[] firstOrder = Arrays.stream(first).mapToInt((u) -> (int) (u * StratifiedUniform.BLOCK)).toArray();
		int[] secondOrder = Arrays.stream(second).mapToInt((u) -> (int) (u * StratifiedUniform.BLOCK)).toArray();
		assertThat(secondOrder).isNotEqualTo(firstOrder);
	}

	@Test
	void oneSeedOneSequence() {
		double[] first = DoubleStream.generate(new StratifiedUniform(9)).limit(1_000).toArray();
		assertThat(DoubleStream.generate(new StratifiedUniform(9)).limit(1_000).toArray()).containsExactly(first);
		assertThat(DoubleStream.generate(new StratifiedUniform(10)).limit(1_000).toArray()).isNotEqualTo(first);
	}

	@Test
	void everyWindowHoldsAHeavyTailInProportion() {
		double mean = TAIL.meanMs();
		Well19937c independent = new Well19937c(18081);
		double[] stratified = DoubleStream.generate(TAIL.sampler(18081)).limit(60_000).toArray();
		double[] drawnIndependently = DoubleStream.generate(() -> TAIL.quantileMs(independent.nextDouble()))
			.limit(60_000)
			.toArray();
		double stratifiedWorst7500 = worstWindow(stratified, 7_500, mean);
		double independentWorst7500 = worstWindow(drawnIndependently, 7_500, mean);
		double stratifiedWorst1000 = worstWindow(stratified, 1_000, mean);
		double independentWorst1000 = worstWindow(drawnIndependently, 1_000, mean);
		System.out.printf(
				"worst window mean off the histogram's: 7,500 draws %.1f %% stratified, %.1f %% independent;"
						+ " 1,000 draws %.1f %%, %.1f %%%n",
				100 * stratifiedWorst7500, 100 * independentWorst7500, 100 * stratifiedWorst1000,
				100 * independentWorst1000);
		assertThat(stratifiedWorst7500).isLessThan(0.03);
		assertThat(stratifiedWorst1000).isLessThan(0.15);
		assertThat(independentWorst7500).isGreaterThan(2 * stratifiedWorst7500);
		assertThat(Arrays.stream(stratified).average().orElseThrow()).isCloseTo(mean, within(mean * 0.005));
	}

	@Test
	void theHoldsDrawnStillFollowTheDistribution() {
		HoldTime lognormal = new HoldTime(10, 40.0);
		double[] draws = DoubleStream.generate(lognormal.sampler(3)).limit(100_000).sorted().toArray();
		assertThat(Arrays.stream(draws).average().orElseThrow()).isCloseTo(10, within(0.1));
		assertThat(draws[99_000]).isCloseTo(40, within(0.4));
	}

	/**
	 * The largest share by which a window's mean is off {@code mean}, windows every 50
	 * draws.
	 */
	private static double worstWindow(double[] draws, int window, double mean) {
		double worst = 0;
		for (int start = 0; start + window <= draws.length; start += 50) {
			double sum = 0;
			for (int i = start; i < start + window; i++) {
				sum += draws[i];
			}
			worst = Math.max(worst, Math.abs(sum / window / mean - 1));
		}
		return worst;
	}

}
