package org.poollab.bench.load;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.poollab.bench.load.ClockProbe.Reading;
import org.poollab.bench.load.ClockProbe.Skew;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * An engine's clock against the lab's, from fabricated probe requests: the engine stamps
 * a request's start and elapsed by its clock, the lab its arrival by its own.
 */
class ClockProbeTests {

	@Test
	void anEngineWhoseClockAgreesShowsNoSkewWithinItsUncertainty() {
		// Started at 1000 by the engine, 1 ms elapsed: with JMeter's clock (a start up to
		// 1 ms early or 2 ms late, an elapsed time up to 1 ms short) it arrived between
		// 999 and 1004 by the engine's clock; the lab saw it at 1001.5.
		Skew skew = ClockProbe.skew("e:1", List.of(new Reading(1_000, 1, 1_001.5))).orElseThrow();
		assertThat(skew.skewMs()).isCloseTo(0, within(1e-9));
		assertThat(skew.uncertaintyMs()).isCloseTo(2.5, within(1e-9));
		assertThat(skew.requests()).isOne();
	}

	@Test
	void anEngineAheadReadsPositiveAndOneBehindNegative() {
		assertThat(ClockProbe.skew("ahead", List.of(new Reading(1_300, 3, 1_000.0))).orElseThrow().skewMs())
			.isCloseTo(302.5, within(1e-9));
		assertThat(ClockProbe.skew("behind", List.of(new Reading(700, 3, 1_000.0))).orElseThrow().skewMs())
			.isCloseTo(-297.5, within(1e-9));
	}

	@Test
	void theFastestRequestsBoundTheSkewAndTheirMedianIsTaken() {
		// A slow first request (connection set-up) says little; of the three 0 ms ones,
		// the median skew is taken.
		List<Reading> readings = List.of(new Reading(10_000, 40, 10_005.0), new Reading(10_200, 0, 10_180.2),
				new Reading(10_400, 0, 10_380.5), new Reading(10_600, 0, 10_579.9), new Reading(10_800, 2, 10_781.0));
		Skew skew = ClockProbe.skew("e:1", readings).orElseThrow();
		assertThat(skew.uncertaintyMs()).isCloseTo(2, within(1e-9));
		assertThat(skew.skewMs()).isCloseTo(20.8, within(1e-9));
		assertThat(skew.requests()).isEqualTo(5);
	}

	@Test
	void aSkewIsRefusedOnlyWhenEvenItsMostFavourableEndIsBeyondTheLimit() {
		Duration limit = Duration.ofMillis(50);
		assertThat(new Skew("e:1", 50.9, 1, 10).beyond(limit)).as("could be 49.9").isFalse();
		assertThat(new Skew("e:1", -51.5, 1, 10).beyond(limit)).as("at least 50.5 behind").isTrue();
		assertThat(new Skew("e:1", 120, 0.5, 10).beyond(limit)).isTrue();
		assertThat(new Skew("e:1", 0.2, 0.5, 10).beyond(limit)).isFalse();
	}

	@Test
	void noMeasuredRequestNoSkew() {
		assertThat(ClockProbe.skew("e:1", List.of())).isEmpty();
	}

	@Test
	void theSkewIsSaidWithItsDirectionAndUncertainty() {
		assertThat(new Skew("e:1", -0.44, 1, 10).describe())
			.isEqualTo("0.4 ms behind the lab's (± 1.0 ms, 10 probe requests)");
		assertThat(new Skew("e:1", 12.06, 0.5, 9).describe())
			.isEqualTo("12.1 ms ahead of the lab's (± 0.5 ms, 9 probe requests)");
	}

}
