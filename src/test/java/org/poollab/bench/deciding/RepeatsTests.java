package org.poollab.bench.deciding;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.poollab.bench.results.Point;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cell's repeats are judged each on its own, and a failed one is named by its place in
 * the order the repeats ran.
 */
class RepeatsTests {

	private static final double OBJECTIVE_MS = 100;

	@Test
	void theRepeatThatTimedOutIsTheOneFailedByItsPlace() {
		Point fine = RecommenderTests.point("single", 10, 200, 40);
		Point timedOut = RecommenderTests.point("single", 10, 200, 200, 3, 40);
		Cell cell = Cell.of(List.of(fine, timedOut, fine), OBJECTIVE_MS);

		assertThat(Repeats.failed(cell)).containsOnlyKeys(2);
		assertThat(Repeats.failed(cell).get(2).pool().timeouts()).isEqualTo(3);
		assertThat(Repeats.allSustained(cell)).isFalse();
	}

	@Test
	void repeatsThatEachSustainedHaveNoFailure() {
		Point fine = RecommenderTests.point("single", 10, 200, 40);
		Cell cell = Cell.of(List.of(fine, fine), OBJECTIVE_MS);

		assertThat(Repeats.failed(cell)).isEmpty();
		assertThat(Repeats.allSustained(cell)).isTrue();
	}

}
