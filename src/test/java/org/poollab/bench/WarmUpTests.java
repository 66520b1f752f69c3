package org.poollab.bench;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WarmUpTests {

	@Test
	void aColdInstanceIsNotSettledWhileItsLatencyStillFalls() {
		// The slices of a cold instance at 2000 rps, measured (see WarmUp).
		assertThat(WarmUp.settled(List.of(880.0))).isFalse();
		assertThat(WarmUp.settled(List.of(880.0, 11.6))).isFalse();
		assertThat(WarmUp.settled(List.of(880.0, 11.6, 5.4))).isFalse();
		assertThat(WarmUp.settled(List.of(880.0, 11.6, 5.4, 6.0))).isTrue();
	}

	@Test
	void withinTwentyPercentOrOneMillisecondIsSettled() {
		assertThat(WarmUp.settled(List.of(50.0, 41.0))).isTrue();
		assertThat(WarmUp.settled(List.of(50.0, 39.0))).isFalse();
		assertThat(WarmUp.settled(List.of(2.0, 2.9))).isTrue();
		assertThat(WarmUp.settled(List.of(2.0, 3.1))).isFalse();
	}

	@Test
	void risingLatencyIsNotSettled() {
		assertThat(WarmUp.settled(List.of(5.0, 9.0))).isFalse();
	}

	@Test
	void aSliceWithoutFiguresIsNeverSettled() {
		assertThat(WarmUp.settled(List.of(-1.0, -1.0))).isFalse();
		assertThat(WarmUp.settled(List.of(5.0, -1.0))).isFalse();
	}

}
