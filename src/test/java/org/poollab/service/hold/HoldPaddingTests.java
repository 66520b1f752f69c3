package org.poollab.service.hold;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HoldPaddingTests {

	private static final long TARGET_NANOS = Duration.ofMillis(20).toNanos();

	private final HoldPadding padding = HoldPadding
		.of(new HoldProperties(Duration.ofMillis(20), null, HoldPlace.DATABASE, 1, null))
		.orElseThrow();

	@Test
	void aSteadyOvershootIsTakenOffTheNextWaits() {
		long overshootNanos = Duration.ofMillis(1).toNanos();
		for (int i = 0; i < 500; i++) {
			// Every wait ends 1 ms late, as pg_sleep's whole milliseconds may.
			this.padding.held(TARGET_NANOS, this.padding.waitNanos(TARGET_NANOS, 0) + overshootNanos);
		}
		assertThat(this.padding.waitNanos(TARGET_NANOS, 0)).as("the wait, the learnt overshoot off")
			.isCloseTo(TARGET_NANOS - overshootNanos, org.assertj.core.data.Offset.offset(overshootNanos / 20));
	}

	@Test
	void theWaitsAreNeverShortenedByMoreThanTheLargestCorrection() {
		for (int i = 0; i < 1000; i++) {
			this.padding.held(TARGET_NANOS, TARGET_NANOS + Duration.ofMillis(50).toNanos());
		}
		assertThat(this.padding.waitNanos(TARGET_NANOS, 0)).isEqualTo(TARGET_NANOS - HoldPadding.MAX_CORRECTION_NANOS);
		for (int i = 0; i < 1000; i++) {
			this.padding.held(TARGET_NANOS, 0);
		}
		assertThat(this.padding.waitNanos(TARGET_NANOS, 0)).isEqualTo(TARGET_NANOS + HoldPadding.MAX_CORRECTION_NANOS);
	}

}
