package org.poollab.service.hold;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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

	@Test
	void theDatabaseSleepsWholeMillisecondsEndingWellBeforeTheWait() {
		assertThat(HoldPadding.databaseSleepNanos(-1)).isZero();
		assertThat(HoldPadding.databaseSleepNanos(Duration.ofNanos(700_000).toNanos())).isZero();
		assertThat(HoldPadding.databaseSleepNanos(Duration.ofNanos(2_400_000).toNanos())).isZero();
		assertThat(HoldPadding.databaseSleepNanos(Duration.ofNanos(2_600_000).toNanos()))
			.isEqualTo(Duration.ofMillis(1).toNanos());
		assertThat(HoldPadding.databaseSleepNanos(Duration.ofNanos(15_700_000).toNanos()))
			.isEqualTo(Duration.ofMillis(14).toNanos());
	}

	@Test
	void everyDrawIsTimedAsDrawnBesideTheHoldsHeld() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		HoldPadding timed = HoldPadding
			.of(new HoldProperties(Duration.ofMillis(10), Duration.ofMillis(40), HoldPlace.DATABASE, 1, null), registry)
			.orElseThrow();
		long drawnNanos = 0;
		for (int i = 0; i < 1_000; i++) {
			drawnNanos += timed.drawNanos();
		}
		Timer drawn = registry.get(ConnectionHold.DRAWN_METRIC).timer();
		assertThat(drawn.count()).isEqualTo(1_000);
		assertThat(drawn.totalTime(TimeUnit.NANOSECONDS)).isCloseTo(drawnNanos, within(1_000.0));
		assertThat(drawn.mean(TimeUnit.MILLISECONDS)).as("a lognormal of mean 10 ms, 1,000 stratified draws")
			.isCloseTo(10, within(0.3));
	}

	@Test
	void theFractionOfAUseIsDrawnAndTheWholePartAlwaysTaken() {
		HoldPadding uses = HoldPadding
			.of(new HoldProperties(Duration.ofMillis(20), null, HoldPlace.DATABASE, 1, null, null, 2.4))
			.orElseThrow();
		int[] extra = new int[3];
		for (int i = 0; i < 10_000; i++) {
			extra[uses.extraUsesDrawn()]++;
		}
		assertThat(extra[0]).as("requests with one use only").isZero();
		assertThat(extra[2] / 10_000.0).as("the share with a third use").isCloseTo(0.4, within(0.02));
		assertThat(this.padding.extraUsesDrawn()).as("one use per request unless told").isZero();
	}

	@Test
	void aHistogramIsDrawnFromInPlaceOfTheLognormal() {
		HoldPadding measured = HoldPadding
			.of(new HoldProperties(Duration.ofMillis(10), null, HoldPlace.DATABASE, 1, null, "2:0.5,50:1", 1))
			.orElseThrow();
		long longest = 0;
		for (int i = 0; i < 10_000; i++) {
			longest = Math.max(longest, measured.drawNanos());
		}
		// Bucket middles average 13.5 ms, scaled to 10: nothing beyond 50 x 10 / 13.5 ms.
		assertThat(longest).isLessThanOrEqualTo(Math.round(50 * 10 / 13.5 * 1e6) + 1)
			.isGreaterThan(Duration.ofMillis(30).toNanos());
	}

}
