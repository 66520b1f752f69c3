package org.poollab.bench.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

class UslTests {

	private static final int[] CONNECTIONS = { 1, 2, 4, 8, 16, 32, 64 };

	@Test
	void recoversKnownParametersFromExactData() {
		Usl truth = new Usl(1000, 0.05, 0.002);
		Usl fitted = Usl.fit(samples(truth, 0, new Random(1)));
		assertThat(fitted.lambda()).isCloseTo(1000, within(1e-3));
		assertThat(fitted.alpha()).isCloseTo(0.05, within(1e-6));
		assertThat(fitted.beta()).isCloseTo(0.002, within(1e-8));
		// N* = sqrt(0.95 / 0.002) = 21.8
		assertThat(fitted.peakConnections()).isCloseTo(Math.sqrt(0.95 / 0.002), within(1e-3));
	}

	@Test
	void recoversThemFromNoisyData() {
		Usl truth = new Usl(800, 0.1, 0.001);
		Usl fitted = Usl.fit(samples(truth, 0.02, new Random(42)));
		assertThat(fitted.alpha()).isCloseTo(0.1, within(0.03));
		assertThat(fitted.beta()).isCloseTo(0.001, within(0.0005));
		assertThat(fitted.peakConnections()).isCloseTo(truth.peakConnections(), within(8.0));
	}

	@Test
	void linearScalingHasNoPeak() {
		Usl fitted = Usl.fit(samples(new Usl(500, 0, 0), 0, new Random(1)));
		assertThat(fitted.alpha()).isCloseTo(0, within(1e-6));
		assertThat(fitted.beta()).isCloseTo(0, within(1e-9));
		assertThat(new Usl(500, 0, 0).peakConnections()).isInfinite();
	}

	@Test
	void needsThreeConcurrencies() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Usl.fit(List.of(new Usl.Sample(1, 10), new Usl.Sample(2, 19), new Usl.Sample(2, 18))));
	}

	@Test
	void aPlateauWithNoiseMeasuresNoContention() {
		// beta 0: throughput levels off at lambda / alpha and never falls. A fit through
		// 3 %
		// noise once found a finite N* in every one of 200 runs.
		Usl plateau = new Usl(1000, 0.3, 0);
		double[] seconds = new double[CONNECTIONS.length];
		java.util.Arrays.fill(seconds, 3);
		int claimed = 0;
		for (int seed = 0; seed < 200; seed++) {
			Random random = new Random(seed);
			List<Usl.Sample> once = new ArrayList<>();
			for (int n : CONNECTIONS) {
				once.add(new Usl.Sample(n, plateau.throughput(n) * (1 + 0.03 * random.nextGaussian())));
			}
			if (Double.isFinite(Usl.measuredPeak(once, seconds))) {
				claimed++;
			}
		}
		assertThat(claimed).as("N* claimed on a plateau, of 200").isLessThanOrEqualTo(10);
	}

	@Test
	void throughputFallingFromOneConnectionToTwoClaimsNoPeakOfZero() {
		// alpha 1 and N* 0 by the fit: the fleet planner once called every row
		// infeasible.
		List<Usl.Sample> samples = List.of(new Usl.Sample(1, 1000), new Usl.Sample(2, 700), new Usl.Sample(4, 690),
				new Usl.Sample(8, 700), new Usl.Sample(16, 695));
		assertThat(Usl.measuredPeak(samples, new double[] { 3, 3, 3, 3, 3 })).isInfinite();
	}

	@Test
	void aMeasuredRetrogradeRegionHasItsPeak() {
		Usl truth = new Usl(800, 0.1, 0.001);
		List<Usl.Sample> samples = samples(truth, 0.01, new Random(7));
		double[] seconds = new double[samples.size()];
		java.util.Arrays.fill(seconds, 3);
		assertThat(Usl.measuredPeak(samples, seconds)).isCloseTo(truth.peakConnections(), within(5.0));
	}

	private static List<Usl.Sample> samples(Usl truth, double noise, Random random) {
		List<Usl.Sample> samples = new ArrayList<>();
		for (int n : CONNECTIONS) {
			for (int repeat = 0; repeat < 3; repeat++) {
				samples.add(new Usl.Sample(n, truth.throughput(n) * (1 + noise * random.nextGaussian())));
			}
		}
		return samples;
	}

}
