package org.poollab.bench.load;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.poollab.bench.results.WarmUpRecord;

import static org.assertj.core.api.Assertions.assertThat;

class WarmUpTests {

	@Test
	void aColdInstanceIsNotSettledWhileItsLatencyStillFalls() {
		// The slices of a cold instance at 2000 rps, measured (see WarmUp).
		assertThat(WarmUp.settled(List.of(880.0), 100)).isFalse();
		assertThat(WarmUp.settled(List.of(880.0, 11.6), 100)).isFalse();
		assertThat(WarmUp.settled(List.of(880.0, 11.6, 5.4), 100)).isFalse();
		assertThat(WarmUp.settled(List.of(880.0, 11.6, 5.4, 6.0), 100)).isFalse();
		assertThat(WarmUp.settled(List.of(880.0, 11.6, 5.4, 6.0, 5.8), 100)).isTrue();
	}

	@Test
	void twoEqualSlicesAreNotEnough() {
		// Three instances behind nginx at 1000 rps: 14.0, 14.0 (one bucket), then 1.7 ms.
		assertThat(WarmUp.settled(List.of(14.0, 14.0), 100)).isFalse();
		assertThat(WarmUp.settled(List.of(14.0, 14.0, 1.7), 100)).isFalse();
		assertThat(WarmUp.settled(List.of(14.0, 14.0, 13.0), 100)).isTrue();
	}

	@Test
	void withinTwentyPercentOrOneMillisecondIsSettled() {
		assertThat(WarmUp.settled(List.of(50.0, 45.0, 41.0), 100)).isTrue();
		assertThat(WarmUp.settled(List.of(50.0, 45.0, 39.0), 100)).isFalse();
		assertThat(WarmUp.settled(List.of(2.0, 2.5, 2.9), 100)).isTrue();
		assertThat(WarmUp.settled(List.of(2.0, 2.5, 3.1), 100)).isFalse();
	}

	@Test
	void aSaturatedInstanceAboveTheObjectiveIsNotSettled() {
		// Measured: two slices in one histogram bucket at 2000 rps.
		assertThat(WarmUp.settled(List.of(536.9, 536.9, 536.9), 100)).isFalse();
		assertThat(WarmUp.settled(List.of(536.9, 536.9, 536.9), 1000)).isTrue();
	}

	@Test
	void drowningInstancesEndTheWarmUp() {
		assertThat(WarmUp.overloaded(List.of(5.0, -1.0), 100)).as("an instance did not answer").isTrue();
		assertThat(WarmUp.overloaded(List.of(1431.7, 1073.7), 100)).as("twice above 10x the objective").isTrue();
		assertThat(WarmUp.overloaded(List.of(1431.7), 100)).as("once is a cold start").isFalse();
		assertThat(WarmUp.overloaded(List.of(1431.7, 626.3), 100)).isFalse();
		assertThat(WarmUp.overloaded(List.of(), 100)).isFalse();
	}

	@Test
	void risingLatencyIsNotSettled() {
		assertThat(WarmUp.settled(List.of(5.0, 5.0, 9.0), 100)).isFalse();
	}

	@Test
	void oneSentenceForTheConsoleAndTheReport() {
		assertThat(new WarmUpRecord("single", 2000, 35, 5, WarmUpRecord.End.SETTLED, List.of(880.0, 11.6, 5.4, 6.0))
			.sentence())
			.isEqualTo("Warm-up of single up to 2000 rps, 35s: settled (slowest instance's own p99 per 5 s: "
					+ "880 → 11.6 → 5.4 → 6 ms).");
		assertThat(
				new WarmUpRecord("single", 2000, 12, 5, WarmUpRecord.End.OVERLOADED, List.of(1431.7, -1.0)).sentence())
			.contains("NOT settled, stopped early", "above 10x the objective twice", "1431.7 → ? ms");
	}

	@Test
	void aSliceWithoutFiguresIsNeverSettled() {
		assertThat(WarmUp.settled(List.of(-1.0, -1.0, -1.0), 100)).isFalse();
		assertThat(WarmUp.settled(List.of(5.0, 5.0, -1.0), 100)).isFalse();
	}

}
