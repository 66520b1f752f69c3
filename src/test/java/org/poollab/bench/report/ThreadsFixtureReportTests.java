package org.poollab.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.results.ResultsStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report of a real {@code threads} run (2026-11-25,
 * src/site/markdown/measurements.md, "Platform vs virtual threads"): one instance on
 * Tomcat's 200 platform threads and on virtual threads, pools 1, 2, 5 and 20 at 300 and
 * 1200 rps. At 1200 rps platform threads sustained every pool; virtual threads collapsed
 * at every pool, pool 1's instance dying of OutOfMemoryError. The platform answer's two
 * confirmations were refuted; the virtual answer's confirmed.
 */
class ThreadsFixtureReportTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@TempDir
	Path runDir;

	private List<Recommendation> recommendations;

	@BeforeEach
	void renderFixture() throws IOException {
		try (InputStream fixture = getClass().getResourceAsStream("threads-results-20261125.json")) {
			Files.copy(fixture, this.runDir.resolve(ResultsStore.RESULTS_JSON));
		}
		this.recommendations = Report.regenerate(this.runDir);
	}

	@Test
	void eachThreadModelGetsItsOwnAnswer() {
		assertThat(this.recommendations).extracting(Recommendation::topology)
			.containsExactly("single", "single (virtual threads)");
		// Platform threads: the grid held 1200 rps with pools 2, 5 and 20, but the
		// confirmations refuted 2 and 5 there as pasted, so 300 rps decides.
		assertThat(this.recommendations.get(0).decidingRateRps()).hasValue(300);
		assertThat(this.recommendations.get(0).poolSize()).hasValue(1);
		assertThat(this.recommendations.get(1).poolSize()).hasValue(1);
		assertThat(this.recommendations.get(1).decidingRateRps()).hasValue(300);
	}

	@Test
	void theComparisonSetsEveryPoolAndRateSideBySide() throws IOException {
		String markdown = Files.readString(this.runDir.resolve("report.md"));
		String comparison = ReportFiguresTests.table(markdown,
				"### Platform vs virtual threads: single (200 Tomcat threads → virtual threads)");

		assertThat(comparison.lines().filter((line) -> line.matches("\\| [0-9]+ \\| [0-9]+ \\|.*"))).hasSize(8);
		assertThat(ReportFiguresTests.row(comparison, "2 | 1200"))
			.contains("| 19 → 3909 | none → 3214 pool-timeout | 20 → 3997 |", "| yes → no |");
		assertThat(ReportFiguresTests.row(comparison, "1 | 1200")).contains("| 72 → died |");
		assertThat(comparison).contains("Recommended: 200 Tomcat threads → pool 1,",
				"virtual threads → pool 1, connection-timeout 10000 ms",
				"Pinned virtual threads in the measured windows: 1 over 7 window(s) (1 more had no scrape");
	}

	@Test
	void withNoPointOnVirtualThreadsMeasuredThePinnedNoteSaysSoRatherThanBlameTheScrapes(@TempDir Path busy)
			throws IOException {
		// A busy machine: JMeter fell behind at every virtual-thread point and the
		// instances saw no saturation, so no window measured the service and there is
		// nothing to count pins over.
		ObjectNode results = (ObjectNode) JSON.readTree(this.runDir.resolve(ResultsStore.RESULTS_JSON).toFile());
		results.path("points").forEach((point) -> {
			if (point.path("limits").path("virtualThreads").asBoolean()) {
				ObjectNode behind = (ObjectNode) point;
				behind.put("outcome",
						"generator-bound: JMeter sent late; its window measured the generator, " + "not the service");
				((ObjectNode) behind.get("server")).putObject("refusals");
				((ObjectNode) behind.get("server")).putArray("latency");
				((ObjectNode) behind.get("pool")).put("timeouts", 0);
			}
		});
		JSON.writeValue(busy.resolve(ResultsStore.RESULTS_JSON).toFile(), results);

		Report.regenerate(busy);

		assertThat(busy.resolve("report.md")).content()
			.contains("Pinned virtual threads: not counted, as no point on virtual threads measured the service")
			.doesNotContain("Pinned virtual threads in the measured windows", "no scrape reached an instance");
	}

	@Test
	void aThreadModelsAnswerCardShowsOnlyItsOwnConfirmations() throws IOException {
		String markdown = Files.readString(this.runDir.resolve("report.md"));
		String platform = markdown.substring(markdown.indexOf("### single: maximum-pool-size"),
				markdown.indexOf("### single (virtual threads): maximum-pool-size 1 per instance"));
		String virtual = markdown.substring(markdown.indexOf("### single (virtual threads): maximum-pool-size"),
				markdown.indexOf("**Rule.**"));

		assertThat(platform).contains("NOT confirmed", "pool 2: 1 instance started with exactly this block");
		assertThat(virtual).contains("Confirmed (2026-11-25, embedded PostgreSQL 17.11, pool 1:")
			.doesNotContain("NOT confirmed", "pool 2: 1 instance");
	}

	@Test
	void theBrowserShowsTheComparisonAndTheYmlOffersTheVirtualBlock() throws Exception {
		Document page = Jsoup.parse(Chromium.require().dumpDom(this.runDir.resolve("report.html"), this.runDir));
		Element section = page.selectFirst("section.threads");

		assertThat(section).isNotNull();
		assertThat(section.select("h2").text()).isEqualTo("Platform vs virtual threads");
		assertThat(section.select("tbody tr")).hasSize(8);
		assertThat(Files.readString(this.runDir.resolve("recommended-application.yml")))
			.contains("# --- alternative: topology 'single (virtual threads)' ---");
	}

}
