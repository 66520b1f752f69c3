package org.poollab.bench;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.poollab.bench.grid.Preset;
import org.poollab.bench.results.EmulatedHold;
import org.poollab.service.hold.HoldPlace;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contention preset measures the database's CPU ceiling before its grid, and only
 * where its rates come from it.
 */
class ContentionCeilingTests {

	private static final EmulatedHold CPU = EmulatedHold.cpu(5, "bench.preset=contention");

	@Test
	void theContentionPresetOnInstancesTheLabDeploysMeasuresIt() {
		assertThat(ContentionCeiling.applies(Preset.CONTENTION, null, CPU, true)).isTrue();
	}

	@Test
	void ratesGivenInBenchRatesAreKept() {
		assertThat(ContentionCeiling.applies(Preset.CONTENTION, List.of(100, 150), CPU, true)).isFalse();
	}

	@Test
	void aTeamsDeploymentInTargetModeIsNotMeasured() {
		assertThat(ContentionCeiling.applies(Preset.CONTENTION, null, CPU, false)).isFalse();
	}

	@Test
	void otherPresetsAndHoldsWithoutCpuKeepTheirRates() {
		assertThat(ContentionCeiling.applies(Preset.named("full"), null, CPU, true)).isFalse();
		assertThat(ContentionCeiling.applies(Preset.CONTENTION, null, null, true)).isFalse();
		assertThat(ContentionCeiling.applies(Preset.CONTENTION, null,
				EmulatedHold.of(Preset.TYPICAL_HOLD, HoldPlace.DATABASE, "bench.holdTime"), true))
			.isFalse();
	}

}
