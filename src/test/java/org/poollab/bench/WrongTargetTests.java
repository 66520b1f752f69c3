package org.poollab.bench;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.poollab.bench.deciding.RecommenderTests;
import org.poollab.bench.results.Point;

import static org.assertj.core.api.Assertions.assertThat;

class WrongTargetTests {

	private static Point point(int poolSize, Map<String, Long> statusCounts) {
		long samples = statusCounts.values().stream().mapToLong(Long::longValue).sum();
		return RecommenderTests.point("single", poolSize, 50, 50, 0, 5)
			.toBuilder()
			.samples(samples)
			.statusCounts(statusCounts)
			.build();
	}

	@Test
	void theFirstPointWhoseRequestsMostlyFailedWith4xxIsNamedWithItsStatusAndRequests() {
		List<Point> points = List.of(point(4, Map.of("200", 100L)), point(2, Map.of("404", 90L, "200", 10L)),
				point(1, Map.of("400", 100L)));

		assertThat(WrongTarget.first(points, "GET /vetz x1")).hasValue(
				"Pool 2 at 50 rps: 90 of 100 requests (90 %) answered HTTP 404 to GET /vetz x1: a wrong target, path or body, not a pool verdict. The sweep stopped at this point and wrote no block; check bench.targets and bench.requests.");
	}

	@Test
	void failuresOfThePoolAndAMinorityOf4xxAreAPoolVerdict() {
		List<Point> points = List.of(point(1, Map.of("500", 80L, "200", 20L)), point(2, Map.of("404", 50L, "200", 50L)),
				point(3, Map.of()));

		assertThat(WrongTarget.first(points, "GET /vets x1")).isEmpty();
	}

}
