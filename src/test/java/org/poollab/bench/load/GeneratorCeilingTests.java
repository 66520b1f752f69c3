package org.poollab.bench.load;

import java.util.List;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class GeneratorCeilingTests {

	@Test
	void stepsRiseBy500ToOneAndAHalfTimesTheGridsHighestRate() {
		assertThat(GeneratorCeiling.steps(50)).containsExactly(500);
		assertThat(GeneratorCeiling.steps(300)).containsExactly(500);
		assertThat(GeneratorCeiling.steps(400)).containsExactly(500, 1000);
		assertThat(GeneratorCeiling.steps(1000)).containsExactly(500, 1000, 1500);
		assertThat(GeneratorCeiling.steps(12000)).as("wider steps, at most eight")
			.containsExactly(2500, 5000, 7500, 10000, 12500, 15000, 17500);
	}

	@Test
	void aGridAtAFifthOfTheFirstStepOrLessIsNotWorthTheCeilingsRun() {
		assertThat(GeneratorCeiling.worthMeasuring(50)).isFalse();
		assertThat(GeneratorCeiling.worthMeasuring(100)).isFalse();
		assertThat(GeneratorCeiling.worthMeasuring(101)).isTrue();
		assertThat(GeneratorCeiling.worthMeasuring(400)).isTrue();
		assertThat(GeneratorCeiling.notMeasured(50)).contains("not measured", "(50 rps)", "(500 rps)",
				"each point's own check");
	}

	@Test
	void theCeilingLineNamesTheGridRatesAboveIt() {
		assertThat(GeneratorCeiling.describe(OptionalInt.of(1000), List.of(500, 1500)))
			.contains("JMeter's ceiling here: 1000 rps", "Grid rate(s) [1500] rps are above it");
		assertThat(GeneratorCeiling.describe(OptionalInt.empty(), List.of(400)))
			.contains("below 500 rps, the lowest step tried");
	}

}
