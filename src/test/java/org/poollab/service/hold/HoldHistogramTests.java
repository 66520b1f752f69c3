package org.poollab.service.hold;

import java.util.Arrays;
import java.util.TreeMap;
import java.util.stream.DoubleStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * Holds drawn from a measured histogram follow its buckets (linear within each, the
 * {@code +Inf} share at the last bound), scaled to the measured mean; the heavy-tailed
 * mixture gives a hand-given mean and p99 beyond a lognormal. Drawn from real expositions
 * in HoldTimeFromTests.
 */
class HoldHistogramTests {

	/** Half the holds within 0-2 ms, 40 % within 2-10 ms, 10 % within 10-50 ms. */
	private static final double[] UPPER_MS = { 2, 10, 50 };

	private static final double[] CUMULATIVE = { 0.5, 0.9, 1 };

	@Test
	void quantilesInterpolateLinearlyWithinTheirBucket() {
		// Unscaled mean: 0.5 x 1 + 0.4 x 6 + 0.1 x 30 = 5.9 ms; asking for it keeps scale
		// 1.
		HoldHistogram histogram = new HoldHistogram(UPPER_MS, CUMULATIVE, 5.9);
		assertThat(histogram.scale()).isCloseTo(1, within(1e-12));
		assertThat(histogram.quantileMs(0.25)).isCloseTo(1, within(1e-9));
		assertThat(histogram.quantileMs(0.7)).isCloseTo(6, within(1e-9));
		assertThat(histogram.quantileMs(0.99)).isCloseTo(46, within(1e-9));
		assertThat(histogram.maxMs()).isCloseTo(50, within(1e-9));
	}

	@Test
	void drawsAreScaledToTheMeasuredMean() {
		HoldHistogram histogram = new HoldHistogram(UPPER_MS, CUMULATIVE, 11.8);
		assertThat(histogram.scale()).isCloseTo(2, within(1e-12));
		double[] draws = DoubleStream.generate(histogram.sampler(7)).limit(200_000).toArray();
		assertThat(Arrays.stream(draws).average().orElseThrow()).isCloseTo(11.8, within(11.8 * 0.01));
		Arrays.sort(draws);
		assertThat(draws[(int) (0.99 * draws.length)]).isCloseTo(92, within(92 * 0.02));
	}

	@Test
	void theInfBucketIsDrawnAtTheLastFiniteBound() {
		// 5 % of holds beyond 50 ms: the histogram does not say how far.
		HoldHistogram histogram = new HoldHistogram(UPPER_MS, new double[] { 0.5, 0.9, 0.95 }, 10);
		assertThat(histogram.quantileMs(0.97) / histogram.scale()).isEqualTo(50);
		assertThat(histogram.quantileMs(0.999999) / histogram.scale()).isEqualTo(50);
	}

	@Test
	void oneSeedDrawsOneSequence() {
		HoldHistogram histogram = new HoldHistogram(UPPER_MS, CUMULATIVE, 5.9);
		double[] first = DoubleStream.generate(histogram.sampler(3)).limit(100).toArray();
		assertThat(DoubleStream.generate(histogram.sampler(3)).limit(100).toArray()).containsExactly(first);
		assertThat(DoubleStream.generate(histogram.sampler(4)).limit(100).toArray()).isNotEqualTo(first);
	}

	@Test
	void theWrittenFormReadsBackAsTheSameTable() {
		HoldHistogram histogram = new HoldHistogram(new double[] { 1.048576, 8.388607, 30000 },
				new double[] { 0.25, 0.987654, 1 }, 3.5);
		HoldHistogram read = HoldHistogram.parse(histogram.written(), 3.5);
		assertThat(read.written()).isEqualTo(histogram.written());
		assertThat(read.quantileMs(0.5)).isCloseTo(histogram.quantileMs(0.5), within(1e-6));
	}

	@Test
	void cumulativeCountsDropTheEmptyTopAndKeepOneEmptyBucketBelow() {
		TreeMap<Double, Double> counts = new TreeMap<>();
		counts.put(0.001, 0.0);
		counts.put(0.002, 0.0);
		counts.put(0.004, 40.0);
		counts.put(0.008, 100.0);
		counts.put(0.016, 100.0);
		counts.put(Double.POSITIVE_INFINITY, 100.0);
		HoldHistogram histogram = HoldHistogram.ofCounts(counts, 4);
		assertThat(histogram.written()).isEqualTo("2:0,4:0.4,8:1");
	}

	@Test
	void aTableThatIsNotAHistogramIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> HoldHistogram.parse("5:0.5,2:1", 3))
			.withMessageContaining("bounds must rise");
		assertThatIllegalArgumentException().isThrownBy(() -> HoldHistogram.parse("2:0.5,5:0.4", 3))
			.withMessageContaining("shares must not fall");
		assertThatIllegalArgumentException().isThrownBy(() -> HoldHistogram.parse("2", 3))
			.withMessageContaining("upperMs:share");
	}

	@Test
	void aP99BeyondALognormalIsDrawnFromTheMixtureWithItsMeanAndP99() {
		HoldTime hold = new HoldTime(5, 100.0);
		assertThat(hold.mixture()).isTrue();
		double[] draws = DoubleStream.generate(hold.sampler(11)).limit(400_000).toArray();
		assertThat(Arrays.stream(draws).average().orElseThrow()).isCloseTo(5, within(5 * 0.02));
		Arrays.sort(draws);
		assertThat(draws[(int) (0.99 * draws.length)]).isCloseTo(100, within(100 * 0.02));
		assertThat(Arrays.stream(draws).filter((draw) -> draw > 120).count()).as("beyond the slow holds")
			.isLessThan(draws.length / 10_000);
		assertThat(new HoldTime(5, 40.0).mixture()).as("within a lognormal").isFalse();
	}

}
