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
