package org.poollab.service.hold;

import java.util.Arrays;
import java.util.function.DoubleSupplier;
import java.util.stream.DoubleStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.data.Percentage.withPercentage;

class HoldTimeTests {

	private static final int DRAWS = 200_000;

	@Test
	void lognormalDrawsHaveTheMeanAndP99Asked() {
		double[] draws = draw(new HoldTime(20, 80.0).sampler(42));
		assertThat(mean(draws)).isCloseTo(20, withPercentage(2));
		assertThat(draws[(int) (0.99 * DRAWS)]).isCloseTo(80, withPercentage(3));
		assertThat(draws[0]).isPositive();
	}

	@Test
	void cv2IsTheDrawsSquaredCoefficientOfVariation() {
		HoldTime hold = new HoldTime(20, 80.0);
		double[] draws = draw(hold.sampler(7));
		double mean = mean(draws);
		double variance = Arrays.stream(draws).map((d) -> (d - mean) * (d - mean)).sum() / (DRAWS - 1);
		assertThat(hold.cv2()).isCloseTo(variance / (mean * mean), withPercentage(5));
		assertThat(HoldTime.cv2Of(20, 80)).isEqualTo(hold.cv2());
		assertThat(HoldTime.cv2Of(20, 20)).isZero();
		assertThat(HoldTime.cv2Of(20, 1000)).as("beyond the widest lognormal: the widest's")
			.isEqualTo(HoldTime.cv2Of(20, 20 * HoldTime.MAX_P99_TO_MEAN));
	}

	@Test
	void meanAloneIsConstant() {
		HoldTime hold = new HoldTime(20, null);
		assertThat(hold.constant()).isTrue();
		assertThat(hold.cv2()).isZero();
		assertThat(DoubleStream.generate(hold.sampler(1)).limit(1000)).containsOnly(20.0);
		assertThat(new HoldTime(20, 20.0).constant()).isTrue();
		assertThat(new HoldTime(20, 20.0).describe()).isEqualTo("20ms,20ms");
		assertThat(new HoldTime(0.5, null).describe()).isEqualTo("0.5ms");
		assertThat(new HoldTime(14.88877911079746, 22.729132749999955).describe()).as("a hold read from metrics")
			.isEqualTo("14.89ms,22.73ms");
	}

	@Test
	void sameSeedDrawsTheSameSequence() {
		HoldTime hold = new HoldTime(5, 30.0);
		double[] first = DoubleStream.generate(hold.sampler(3)).limit(100).toArray();
		assertThat(DoubleStream.generate(hold.sampler(3)).limit(100).toArray()).containsExactly(first);
		assertThat(DoubleStream.generate(hold.sampler(4)).limit(100).toArray()).isNotEqualTo(first);
	}

	@Test
	void problemsSayWhatIsWrong() {
		assertThat(HoldTime.problem(20, 80.0)).isEmpty();
		assertThat(HoldTime.problem(0, null)).hasValue("the mean hold must be from 0.1ms to 60s");
		assertThat(HoldTime.problem(-1, null)).hasValue("the mean hold must be from 0.1ms to 60s");
		assertThat(HoldTime.problem(61_000, null)).hasValue("the mean hold must be from 0.1ms to 60s");
		assertThat(HoldTime.problem(20, 10.0)).hasValue("the p99 must be at least the mean");
		assertThat(HoldTime.problem(20, 300.0)).as("beyond a lognormal: the mixture").isEmpty();
		assertThat(HoldTime.problem(20, 1000.0)).hasValueSatisfying(
				(why) -> assertThat(why).startsWith("the p99 must be at most 45 times the mean (beyond it"));
		assertThat(HoldTime.problem(5000, 61_000.0)).hasValue("the p99 must be at most 60s");
		assertThatIllegalArgumentException().isThrownBy(() -> new HoldTime(20, 10.0))
			.withMessage("the p99 must be at least the mean");
	}

	private static double[] draw(DoubleSupplier sampler) {
		double[] draws = DoubleStream.generate(sampler).limit(DRAWS).toArray();
		Arrays.sort(draws);
		return draws;
	}

	private static double mean(double[] draws) {
		return Arrays.stream(draws).average().orElseThrow();
	}

}
