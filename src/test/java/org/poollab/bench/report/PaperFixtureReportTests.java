package org.poollab.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.results.ResultsStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report of a real {@code paper} run (2026-11-23), recorded before late starts,
 * refusals and the time account existed: at 2000 rps the single instance with pool 1 died
 * of OutOfMemoryError, and the three instances with pool 10 sent 2161 rps for 2000
 * offered.
 */
class PaperFixtureReportTests {

	private static final String OOM = "OutOfMemoryError: Java heap space";

	@TempDir
	Path runDir;

	private List<Recommendation> recommendations;

	@BeforeEach
	void renderFixture() throws IOException {
		try (InputStream fixture = getClass().getResourceAsStream("paper-results-20261123.json")) {
			Files.copy(fixture, this.runDir.resolve(ResultsStore.RESULTS_JSON));
		}
		this.recommendations = Report.regenerate(this.runDir);
	}

	@Test
	void theDeadInstanceIsAResultThatFailsPoolOneAtTwoThousandRps() {
		Recommendation single = this.recommendations.get(0);
		assertThat(single.topology()).isEqualTo("single");
		assertThat(single.poolSize()).hasValue(5);
		assertThat(single.decidingRateRps()).hasValue(2000);
		assertThat(single.summary()).contains("pool 5 has the best p99 (11 ms)",
				"Smaller pools at that rate: pool 1 died (" + OOM + ").", "Larger: pool 10 p99 29 ms.",
				Recommendation.PROVISIONAL);
		assertThat(single.caveats()).noneMatch((caveat) -> caveat.contains("left out"));
	}

	@Test
	void whenOnlyOnePoolSustainedTheRateTheSummarySaysSoInsteadOfComparingItWithItself() {
		Recommendation multi = this.recommendations.get(1);
		assertThat(multi.poolSize()).hasValue(10);
		assertThat(multi.summary())
			.contains("At 1000 rps, the highest rate at which a pool size sustained every repeat with its p99 clear of "
					+ "the objective or with every larger pool sustaining it too, pool 10 is the only pool size that "
					+ "sustained it (p99 10 ms).")
			.doesNotContain("of the best");
	}

	@Test
	void markdownShowsDiedWithItsCauseAndFlagsTheGeneratorCatchingUp() throws IOException {
		String markdown = Files.readString(this.runDir.resolve("report.md"));

		assertThat(markdown).contains("started 2026-11-23 13:16:45 UTC, 18 points (one run of each).")
			.doesNotContain("695140171", "The run took", "Points left out");
		String single = markdown.substring(markdown.indexOf("## Topology single"),
				markdown.indexOf("## Topology multi"));
		String p99 = ReportFiguresTests.table(single, "### p99 latency (ms)");
		assertThat(p99).contains("| 1 | 8 | 8 | died † ¹ |",
				"- ¹ pool 1 at 2000 rps: instance(s) on port(s) [18081] died during the point (exit code 3: "
						+ "Terminating due to java.lang." + OOM + ")");
		assertThat(ReportFiguresTests.row(ReportFiguresTests.table(single, "### Per point"), "1 | 2000"))
			.contains("instance died (" + OOM + ") † ¹");
		String multi = markdown.substring(markdown.indexOf("## Topology multi"));
		assertThat(ReportFiguresTests.table(multi, "### p99 latency (ms)")).contains(
				"| **10** | **8** | **10** | **705 † ¹** |",
				"- ¹ 2161 rps sent for 2000 offered: the load generator fell behind and caught up");
	}

	@Test
	void htmlDrawsTheDeadPointAsAFailedMarkerAndShowsDiedInTheTables() throws Exception {
		Document page = Jsoup.parse(Chromium.require().dumpDom(this.runDir.resolve("report.html"), this.runDir));

		for (String chart : List.of("p99", "throughput", "acquire", "pending")) {
			Element container = page.getElementById("chart-single-" + chart);
			Elements series = container.select("svg g.ct-series");
			assertThat(series).as("series in " + chart).hasSize(3);
			series.forEach((one) -> assertThat(one.select(".ct-point")).as("points in " + chart).hasSize(3));
			Elements failed = container.select(".ct-point-failed");
			assertThat(failed).as("failed points in " + chart).hasSize(1);
			assertThat(failed.first().select("title").text()).contains("pool 1 · 2000 rps",
					"instance died (" + OOM + ")");
		}
		assertThat(page.select("#chart-single-throughput .ct-point-failed title").text()).contains("596 ok/s");
		Element died = page.select("#topology-single table.grid").first().select("tbody tr").first().child(3);
		assertThat(died.text()).startsWith("died");
		assertThat(died.hasClass("miss")).isTrue();
		assertThat(died.select("sup.fn").attr("title")).contains("java.lang." + OOM);
		assertThat(page.select(".verdicts .verdict-value").eachText()).containsExactly("5", "10");
	}

}
