package org.poollab.bench.console;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.poollab.bench.results.DatabaseFacts;
import org.poollab.bench.results.Host;
import org.poollab.bench.results.Latency;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Pool;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.SweepResults;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's Tables I-IV show the report's cells, not the first repeat's. */
class ConsoleTablesTests {

	@Test
	void cellsAreTheMedianAcrossRepeatsLikeTheReport() {
		List<Point> points = new ArrayList<>();
		double[] p99Ms = { 40, 4, 5 };
		for (int repeat = 1; repeat <= 3; repeat++) {
			points.add(point(5, repeat, p99Ms[repeat - 1]));
		}
		SweepResults results = new SweepResults(
				Instant.parse("2026-11-22T10:00:00Z"), "test", new Host(2, "JMeter"), new DatabaseFacts("embedded",
						DatabaseFacts.DEFAULT_VENDOR, "jdbc:postgresql://localhost/x", "17", 100, 3),
				100, null, points);

		String console = ConsoleTables.render(results);

		// max is 3 x p99 in these points: median 15 / 5, where the first repeat says 120
		// / 40
		assertThat(console).contains("medians across repeats").contains("     5 |      15 /     5 ");
		assertThat(console).doesNotContain("120 /    40");
	}

	@Test
	void aDeadInstanceShowsAsDiedAndAFailedCellIsMarked() throws IOException, URISyntaxException {
		Path fixture = Path
			.of(ConsoleTablesTests.class.getResource("/org/poollab/bench/report/paper-results-20261123.json").toURI());

		String console = ConsoleTables.render(ResultsStore.read(fixture));

		List<String> lines = console.lines().toList();
		assertThat(lines).contains("     1 |      16 /     8  |      24 /     8  |            died*",
				"    10 |      23 /     8  |      65 /    10  |     793 /   705*");
	}

	private static Point point(int poolSize, int repeat, double p99Ms) {
		Latency latency = new Latency(p99Ms / 3, p99Ms / 4, p99Ms / 2, p99Ms, p99Ms * 2, p99Ms * 3);
		Pool pool = new Pool(List.of(poolSize), 3, 0, 0.5, 1.5, 0, 30);
		return Point.builder()
			.topology("single")
			.poolSize(poolSize)
			.rateRps(1000)
			.repeat(repeat)
			.warmupSeconds(10)
			.durationSeconds(30)
			.achievedRps(1000)
			.samples(30_000)
			.errors(0)
			.statusCounts(Map.of("200", 30_000L))
			.latency(latency)
			.failedMaxMs(0)
			.pool(pool)
			.loadGeneratorCpuCores(0.4)
			.build();
	}

}
