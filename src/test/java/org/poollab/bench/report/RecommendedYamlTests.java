package org.poollab.bench.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.poollab.bench.SweepResults;
import org.poollab.bench.SweepResults.Database;
import org.poollab.bench.SweepResults.Host;
import org.poollab.bench.SweepResults.Point;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class RecommendedYamlTests {

	private static final Host HOST = new Host(2, "JMeter 5.6.3 OpenModelThreadGroup");

	private static final Database DATABASE = new Database("embedded", "jdbc:postgresql://localhost:5432/roles", "17.11",
			100, 3);

	@TempDir
	Path runDir;

	@Test
	void flagsThePoolSizeAsNotMeasuredWhenEverythingSaturated() throws Exception {
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { 1, 5, 10 }) {
			points.add(RecommenderTests.point("single", pool, 2000, 1200, 800, 3000));
		}

		Report.write(results(points), this.runDir);

		String yaml = Files.readString(this.runDir.resolve("recommended-application.yml"));
		assertThat(yaml).contains("maximum-pool-size: 4   # per instance; NOT MEASURED (no conclusion: every pool "
				+ "size saturated): HikariCP's starting formula");
		assertThat(yaml).contains("connection-timeout: 30000   # ms; HikariCP's default");
		String html = Files.readString(this.runDir.resolve("report.html"));
		assertThat(html).contains("no conclusion: every pool size saturated");
	}

	@Test
	void flagsTheSmallestPoolWhenPoolSizeDoesNotMatter() throws Exception {
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { 2, 5, 10 }) {
			points.add(RecommenderTests.point("multi", pool, 1000, 4));
		}

		Report.write(results(points), this.runDir);

		assertThat(Files.readString(this.runDir.resolve("recommended-application.yml")))
			.contains("maximum-pool-size: 2   # per instance; NOT a measured knee");
		assertThat(Files.readString(this.runDir.resolve("report.html"))).contains("not a measured knee");
		assertThat(Files.readString(this.runDir.resolve("report.md"))).contains("pool size does not matter here");
	}

	@Test
	void saysSoWhenNoPointOfATopologyFinishedOk() throws Exception {
		Point failed = RecommenderTests.point("single", 5, 1000, 4);
		failed = new Point(failed.topology(), failed.instances(), failed.loadBalancer(), failed.poolSize(),
				failed.rateRps(), failed.arrivals(), failed.repeat(), failed.warmupSeconds(), failed.durationSeconds(),
				failed.achievedRps(), failed.samples(), failed.errors(), failed.statusCounts(), failed.latency(),
				failed.failedMaxMs(), failed.pool(), failed.loadGeneratorCpuCores(), "instance did not start",
				failed.limits());

		List<Recommendation> recommendations = Report.write(results(List.of(failed)), this.runDir);

		assertThat(recommendations).singleElement()
			.satisfies(
					(recommendation) -> assertThat(recommendation.verdict()).isEqualTo(Recommendation.Verdict.NO_DATA));
		assertThat(Files.readString(this.runDir.resolve("report.md"))).contains("no conclusion: no usable points",
				"instance did not start");
	}

	@Test
	void saysFiguresAreMediansWhenPointsRepeat() throws Exception {
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { 2, 5 }) {
			for (int repeat = 1; repeat <= 3; repeat++) {
				Point one = RecommenderTests.point("single", pool, 1000, (pool == 2) ? 9 : 4);
				points.add(new Point(one.topology(), one.instances(), one.loadBalancer(), one.poolSize(), one.rateRps(),
						one.arrivals(), repeat, one.warmupSeconds(), one.durationSeconds(), one.achievedRps(),
						one.samples(), one.errors(), one.statusCounts(), one.latency(), one.failedMaxMs(), one.pool(),
						one.loadGeneratorCpuCores(), one.outcome(), one.limits()));
			}
		}

		Report.write(results(points), this.runDir);

		assertThat(Files.readString(this.runDir.resolve("report.md"))).contains(Section.REPEATS_NOTE,
				"Per point (medians across repeats");
		assertThat(Files.readString(this.runDir.resolve("report.html"))).contains("the median across repeats");
	}

	@Test
	void readsResultsAsJacksonWritesThem() throws Exception {
		SweepResults written = results(List.of(RecommenderTests.point("single", 5, 1000, 4)));
		Files.writeString(this.runDir.resolve(Report.RESULTS_FILE),
				JsonMapper.builder().build().writeValueAsString(written));

		assertThat(Report.read(this.runDir.resolve(Report.RESULTS_FILE))).isEqualTo(written);
	}

	private static SweepResults results(List<Point> points) {
		return new SweepResults(Instant.parse("2026-11-22T10:00:00Z"), "test", HOST, DATABASE, 0, null, points);
	}

}
