package org.poollab.bench.grid;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * Slow motion's arithmetic: lab rates, stretched time constants, latencies mapped back to
 * the team's time, and windows that keep enough samples.
 */
class TimeScaleTests {

	@Test
	void theLabSendsTheTeamsRateDividedByK() {
		assertThat(TimeScale.of(4).labRateRps(400)).isEqualTo(100.0);
		assertThat(TimeScale.of(8).labRateRps(550)).isEqualTo(68.75);
		assertThat(TimeScale.NONE.labRateRps(550)).isEqualTo(550.0);
	}

	@Test
	void holdsAndTimeoutsAreStretchedByK() {
		assertThat(TimeScale.of(4).labMs(15)).isEqualTo(60.0);
		assertThat(TimeScale.of(2).labMs(2000)).isEqualTo(4000.0);
		assertThat(TimeScale.NONE.labMs(15)).isEqualTo(15.0);
	}

	@Test
	void aLatencyMapsBackAsOverheadPlusTheStretchedPartDividedByK() {
		TimeScale scale = new TimeScale(4, 3);
		// 3 ms of HTTP and statement, 60 ms of stretched hold: 3 + 60 / 4.
		assertThat(scale.teamMs(63)).isCloseTo(18.0, within(1e-9));
		assertThat(scale.teamMs(3)).isEqualTo(3.0);
		assertThat(TimeScale.NONE.teamMs(63)).isEqualTo(63.0);
		assertThat(TimeScale.of(2).teamMs(40)).isEqualTo(20.0);
	}

	@Test
	void aLatencyBelowTheOverheadHadNothingStretchedAndStaysAsMeasured() {
		TimeScale scale = new TimeScale(4, 3);
		assertThat(scale.teamMs(2.5)).isEqualTo(2.5);
		assertThat(scale.teamMs(-1)).as("a figure not measured").isEqualTo(-1.0);
	}

	@Test
	void aWindowKeepsTheTeamsLengthWhileItHoldsEnoughSamples() {
		// 400 rps ÷ 2 = 200 rps: 20 s hold 4,000 requests.
		assertThat(TimeScale.of(2).labWindow(Duration.ofSeconds(20), 400)).isEqualTo(Duration.ofSeconds(20));
		assertThat(TimeScale.NONE.labWindow(Duration.ofSeconds(5), 50)).isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void aWindowGrowsUntilItHoldsAThousandSamples() {
		// 200 rps ÷ 4 = 50 rps: 10 s hold 500; 20 s hold 1,000.
		assertThat(TimeScale.of(4).labWindow(Duration.ofSeconds(10), 200)).isEqualTo(Duration.ofSeconds(20));
		// 550 ÷ 8 = 68.75 rps: 1,000 need 14.5 s, whole seconds: 15.
		assertThat(TimeScale.of(8).labWindow(Duration.ofSeconds(10), 550)).isEqualTo(Duration.ofSeconds(15));
	}

	@Test
	void aWindowNeverGrowsBeyondKTimesTheTeams() {
		// 40 rps ÷ 4 = 10 rps would need 100 s; 4 x 10 s is what k = 1 sent.
		assertThat(TimeScale.of(4).labWindow(Duration.ofSeconds(10), 40)).isEqualTo(Duration.ofSeconds(40));
	}

	@Test
	void slowedOnlyAboveOne() {
		assertThat(TimeScale.NONE.slowed()).isFalse();
		assertThat(TimeScale.of(2).slowed()).isTrue();
		assertThat(TimeScale.SERIES).containsExactly(1, 2, 4, 8);
	}

	@Test
	void aFactorBelowOneOrANegativeOverheadIsNoScale() {
		assertThatIllegalArgumentException().isThrownBy(() -> TimeScale.of(0));
		assertThatIllegalArgumentException().isThrownBy(() -> new TimeScale(2, -1));
	}

	@ParameterizedTest
	@ValueSource(strings = { "auto", "AUTO", " auto " })
	void autoIsTheProbesChoice(String written) {
		assertThat(TimeScaleSetting.parse(written)).isEqualTo(TimeScaleSetting.AUTO);
		assertThat(TimeScaleSetting.AUTO.fixedSlowMotion()).isFalse();
	}

	@Test
	void aWholeNumberIsAFixedK() {
		assertThat(TimeScaleSetting.parse("2")).isEqualTo(new TimeScaleSetting.Fixed(2));
		assertThat(TimeScaleSetting.parse("2").fixedSlowMotion()).isTrue();
		assertThat(TimeScaleSetting.parse("1").fixedSlowMotion()).isFalse();
		assertThat(((TimeScaleSetting.Fixed) TimeScaleSetting.parse("4")).scale()).isEqualTo(TimeScale.of(4));
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "-2", "abc", "1.5", "101", "" })
	void anythingElseIsRefusedNamingWhatIsAllowed(String written) {
		assertThatIllegalArgumentException().isThrownBy(() -> TimeScaleSetting.parse(written))
			.withMessage("bench.timeScale=%s is not allowed: use %s.", written, TimeScaleSetting.ALLOWED);
	}

}
