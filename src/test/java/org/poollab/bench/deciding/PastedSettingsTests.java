package org.poollab.bench.deciding;

import java.util.OptionalDouble;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PastedSettingsTests {

	@Test
	void aMeasuredPoolBelowAPlainAppsFloorIsWrittenAtTheFloorWithBothFigures() {
		PastedSettings pasted = of(OptionalLong.of(1), 1, OptionalDouble.of(20));
		assertThat(pasted.poolSize()).hasValue(PastedSettings.PLAIN_APP_MIN_POOL);
		assertThat(pasted.poolWhy()).startsWith("measured why; WRITTEN 2, not the 1 measured:")
			.contains("Flyway on this pool needs 2 to start");
	}

	@Test
	void aMeasuredPoolAtOrAboveTheFloorIsWrittenAsMeasured() {
		PastedSettings pasted = of(OptionalLong.of(5), 1, OptionalDouble.of(20));
		assertThat(pasted.poolSize()).hasValue(5);
		assertThat(pasted.poolWhy()).isEqualTo("measured why");
		assertThat(of(OptionalLong.empty(), 1, OptionalDouble.of(20)).poolSize()).isEmpty();
	}

	@Test
	void theDeadlockFloorRaisesThePoolWhenItIsHigher() {
		PastedSettings pasted = of(OptionalLong.of(3), 9, OptionalDouble.of(20));
		assertThat(pasted.poolSize()).hasValue(9);
		assertThat(pasted.poolWhy()).contains("WRITTEN 9, not the 3 measured: HikariCP's deadlock floor");
	}

	@Test
	void connectionTimeoutNeverGoesBelowTheLoginFloorAndSaysWhatTheRuleGave() {
		PastedSettings pasted = of(OptionalLong.of(5), 1, OptionalDouble.of(120));
		assertThat(pasted.connectionTimeoutMs()).isEqualTo(PastedSettings.CONNECTION_TIMEOUT_FLOOR_MS);
		assertThat(pasted.connectionTimeoutWhy()).contains("a documented floor, not measured", "login timeout",
				"gives 500 ms", "answers 500");
		assertThat(pasted.validationTimeoutMs()).isEqualTo(PastedSettings.DEFAULT_VALIDATION_TIMEOUT_MS);
	}

	@Test
	void aSlowHealthyRequestTakesConnectionTimeoutAboveTheFloor() {
		// 4 x 3.1 s = 12.4 s, rounded up to 12.5 s.
		PastedSettings pasted = of(OptionalLong.of(5), 1, OptionalDouble.of(3_100));
		assertThat(pasted.connectionTimeoutMs()).isEqualTo(12_500);
		assertThat(pasted.connectionTimeoutWhy()).contains("above the 10 s floor");
	}

	@Test
	void withoutASustainedPointTheTimeoutIsHikarisDefaultAndTheLeakSuggestionAMinute() {
		PastedSettings pasted = of(OptionalLong.of(5), 1, OptionalDouble.empty());
		assertThat(pasted.connectionTimeoutMs()).isEqualTo(30_000);
		assertThat(pasted.connectionTimeoutWhy()).startsWith("ms; HikariCP's default");
		assertThat(pasted.leakDetectionThresholdMs()).isEqualTo(60_000);
	}

	@Test
	void theLeakSuggestionIsTheLongestHoldInWholeSecondsAtLeastTwo() {
		assertThat(PastedSettings.leakDetectionThresholdMs(OptionalDouble.of(70))).isEqualTo(2_000);
		assertThat(PastedSettings.leakDetectionThresholdMs(OptionalDouble.of(2_300))).isEqualTo(3_000);
		assertThat(of(OptionalLong.of(5), 1, OptionalDouble.of(70)).leakDetectionThresholdWhy())
			.contains("opt-in, so commented out", "@Scheduled");
	}

	private static PastedSettings of(OptionalLong pool, int deadlockFloor, OptionalDouble slowestMs) {
		return PastedSettings.of(pool, "measured why", deadlockFloor, slowestMs, "the slowest", slowestMs,
				"the longest hold");
	}

}
