package org.poollab.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.results.Interval;
import org.poollab.bench.results.Latency;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.Second;
import org.poollab.bench.results.SweepResults;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Renders the report from a recorded results fixture (2 topologies × pools 1, 5, 10 ×
 * rates 500, 1000, 2000; pool 1 saturates at 2000 rps; one point failed).
 */
class ReportTests {

	private static final List<String> TOPOLOGIES = List.of("single", "multi");

	private static final List<String> CHARTS = List.of("p99", "throughput", "acquire", "pending");

	@TempDir
	Path runDir;

	private List<Recommendation> recommendations;

	@BeforeEach
	void renderFixture() throws IOException {
		try (InputStream fixture = getClass().getResourceAsStream("results.json")) {
			Files.copy(fixture, this.runDir.resolve(ResultsStore.RESULTS_JSON));
		}
		Path dashboard = this.runDir.resolve("dashboards/single-pool5-rate1000-rep1/index.html");
		Files.createDirectories(dashboard.getParent());
		Files.writeString(dashboard, "<html></html>");
		this.recommendations = Report.regenerate(this.runDir);
	}

	@Test
	void chartPointsWriteTheirValueBeforeTheirTooltipSoTheReportIsTheSameBytesEveryRun() throws IOException {
		String html = Files.readString(this.runDir.resolve("report.html"));
		assertThat(html).contains("{\"value\":").doesNotContain("{\"meta\":");
	}

	@Test
	void chartsDrawOneSeriesPerRateWithOnePointPerPoolSizeInABrowser() throws Exception {
		String dom = Chromium.require().dumpDom(this.runDir.resolve("report.html"), this.runDir);
		Document page = Jsoup.parse(dom);

		for (String topology : TOPOLOGIES) {
			for (String chart : CHARTS) {
				String id = "chart-" + topology + "-" + chart;
				Element container = page.getElementById(id);
				assertThat(container).as(id).isNotNull();
				Elements series = container.select("svg g.ct-series");
				assertThat(series).as("series (one per rate) in " + id).hasSize(3);
				for (Element one : series) {
					assertThat(one.select(".ct-point")).as("points (one per pool size) in " + id).hasSize(3);
					assertThat(one.select("path.ct-line")).as("line in " + id).hasSize(1);
				}
				assertThat(container.select(".ct-label.ct-horizontal").eachText()).as("x labels in " + id)
					.containsExactly("1", "5", "10");
			}
		}
		// pool 1 at 2000 rps timed out: drawn hollow, with the reason on hover
		Elements failed = page.select("#chart-single-p99 .ct-point-failed");
		assertThat(failed).hasSize(1);
		assertThat(failed.first().select("title").text()).contains("pool 1 · 2000 rps", "not sustained");
		// its p99 is ~700x the healthy ones: the latency axis goes logarithmic
		assertThat(page.select("#chart-single-p99").first().parent().text()).contains("log scale");

		// Pool sizes on a log scale, not categories: 1 -> 5 is log10(5) = 0.70 wide, 5 ->
		// 10
		// log10(2) = 0.30, so the first gap is 2.3 times the second (categories: 1).
		Elements points = page.select("#chart-single-p99 svg g.ct-series").first().select(".ct-point");
		double x1 = Double.parseDouble(points.get(0).attr(points.get(0).hasAttr("x1") ? "x1" : "cx"));
		double x5 = Double.parseDouble(points.get(1).attr(points.get(1).hasAttr("x1") ? "x1" : "cx"));
		double x10 = Double.parseDouble(points.get(2).attr(points.get(2).hasAttr("x1") ? "x1" : "cx"));
		assertThat((x5 - x1) / (x10 - x5)).isCloseTo(Math.log10(5) / Math.log10(2),
				org.assertj.core.data.Offset.offset(0.05));
		// The p99 objective is a line on the p99 chart only; the chosen pool is marked on
		// every chart.
		assertThat(page.select("#chart-single-p99 line.ct-objective")).hasSize(1);
		assertThat(page.select("#chart-single-p99 .ct-objective-label").text()).isEqualTo("objective 100 ms");
		assertThat(page.select("#chart-single-throughput line.ct-objective")).isEmpty();
		for (String chart : CHARTS) {
			Element chosen = page.select("#chart-single-" + chart + " line.ct-chosen").first();
			assertThat(chosen).as("chosen pool marked in " + chart).isNotNull();
			double chosenX = Double.parseDouble(chosen.attr("x1"));
			Elements drawn = page.select("#chart-single-" + chart + " svg g.ct-series").first().select(".ct-point");
			assertThat(chosenX).as("pool 5 is the chosen one")
				.isCloseTo(Double.parseDouble(drawn.get(1).attr(drawn.get(1).hasAttr("x1") ? "x1" : "cx")),
						org.assertj.core.data.Offset.offset(0.5));
		}
		// The answer card leads the page, one per topology.
		Elements cards = page.select(".verdicts .answer-card");
		assertThat(cards).hasSize(2);
		assertThat(cards.first().select("dt").eachText()).contains("chosen at", "fleet", "confirmation", "too small",
				"too large");
	}

	@Test
	void p99PointsWithAnIntervalGetAnErrorBarThroughThemInABrowser() throws Exception {
		Path withIntervals = Files.createDirectories(this.runDir.resolve("with-intervals"));
		SweepResults fixture = ResultsStore.read(this.runDir.resolve(ResultsStore.RESULTS_JSON));
		List<Point> points = fixture.points().stream().map((point) -> {
			Latency l = point.latency();
			return point.withLatency(new Latency(l.meanMs(), l.p50Ms(), l.p95Ms(), l.p99Ms(), l.p999Ms(), l.maxMs(),
					new Interval(0.8 * l.p50Ms(), 1.2 * l.p50Ms()), new Interval(0.5 * l.p99Ms(), 2 * l.p99Ms())));
		}).toList();
		Report.write(new SweepResults(fixture.startedAt(), fixture.preset(), fixture.host(), fixture.database(),
				fixture.p99ObjectiveMs(), fixture.workload(), new ArrayList<>(points))
			.withTiming(fixture.timing()), withIntervals);
		Document page = Jsoup.parse(Chromium.require().dumpDom(withIntervals.resolve("report.html"), withIntervals));

		Elements bars = page.select("#chart-single-p99 line.ct-error-bar");
		// one per point drawn: 3 rates x 3 pool sizes, every one with an interval
		assertThat(bars).hasSize(9);
		for (Element bar : bars) {
			double low = Double.parseDouble(bar.attr("y1"));
			double high = Double.parseDouble(bar.attr("y2"));
			assertThat(low).as("the lower bound is drawn below the upper one (SVG y grows downwards)")
				.isGreaterThan(high);
		}
		assertThat(page.select("#chart-single-throughput line.ct-error-bar")).as("only latency has intervals")
			.isEmpty();
		assertThat(page.select("#chart-single-p99 .ct-point title").eachText())
			.anySatisfy((title) -> assertThat(title).contains("95 % interval ["));
	}

	@Test
	void theDecidingPointsAreDrawnSecondBySecondInABrowser() throws Exception {
		Path withSeconds = Files.createDirectories(this.runDir.resolve("with-seconds"));
		SweepResults fixture = ResultsStore.read(this.runDir.resolve(ResultsStore.RESULTS_JSON));
		// Every point gets ten seconds; only the deciding ones (pool 5, the choice, and
		// pool 1, its smaller neighbour, at 2000 rps) are drawn.
		List<Point> points = fixture.points().stream().map((point) -> {
			List<Second> seconds = new ArrayList<>();
			for (int second = 0; second < 10; second++) {
				seconds.add(new Second(second, point.rateRps(), point.rateRps(), point.latency().p99Ms() + second,
						second % 3));
			}
			return point.withSeconds(seconds);
		}).toList();
		Report.write(new SweepResults(fixture.startedAt(), fixture.preset(), fixture.host(), fixture.database(),
				fixture.p99ObjectiveMs(), fixture.workload(), new ArrayList<>(points))
			.withTiming(fixture.timing()), withSeconds);
		Document page = Jsoup.parse(Chromium.require().dumpDom(withSeconds.resolve("report.html"), withSeconds));

		for (String metric : List.of("p99", "throughput", "pending")) {
			Element chart = page.getElementById("series-single-" + metric);
			assertThat(chart).as(metric).isNotNull();
			Elements series = chart.select("svg g.ct-series");
			assertThat(series).as("pool 5 and pool 1 in " + metric).hasSize(2);
			for (Element one : series) {
				assertThat(one.select(".ct-point")).as("a point per second in " + metric).hasSize(10);
			}
		}
		assertThat(page.select(".series .legend").first().text()).contains("pool 5", "pool 1");
		assertThat(page.select("#series-single-p99 line.ct-objective")).hasSize(1);
	}

	@Test
	void htmlOpensOfflineAndLinksTheDashboardsThatExist() throws IOException {
		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));

		assertThat(page.select("script[src], link[href]")).isEmpty();
		assertThat(page.select("script").html()).contains("Chartist");
		assertThat(page.select("a[href^=dashboards/]").eachAttr("href"))
			.containsExactly("dashboards/single-pool5-rate1000-rep1/index.html");
		assertThat(page.select(".verdicts .verdict-value").eachText()).containsExactly("5", "5");
		assertThat(page.select("#topology-multi table.grid caption").eachText()).containsExactly("Max latency (ms)",
				"p99 latency (ms)");
	}

	@Test
	void markdownHasThePapersTablesPerTopologyAndListsExcludedPoints() throws IOException {
		String markdown = Files.readString(this.runDir.resolve("report.md"));

		assertThat(markdown).contains("## Topology single", "## Topology multi",
				"| pool \\ rate | 500 rps | 1000 rps | 2000 rps |", "| 1 | 3 | 11 | 2100 † |",
				"| **5** | **4** | **6** | **12** |", Recommendation.RULE);
		assertThat(markdown.split("### Max latency \\(ms\\)", -1)).hasSize(3);
		assertThat(markdown.split("### p99 latency \\(ms\\)", -1)).hasSize(3);
		assertThat(markdown).contains("Points left out", "JMeter exited with code 1 before the window ended");
	}

	@Test
	void recommendsPoolFiveForBothTopologies() {
		assertThat(this.recommendations).extracting(Recommendation::topology).containsExactly("single", "multi");
		assertThat(this.recommendations).allSatisfy((recommendation) -> {
			assertThat(recommendation.verdict()).isEqualTo(Recommendation.Verdict.CHOSEN);
			assertThat(recommendation.poolSize()).hasValue(5);
			assertThat(recommendation.decidingRateRps()).hasValue(2000);
		});
	}

	@Test
	@SuppressWarnings("unchecked")
	void recommendedYamlIsPasteReadyAndWithinHikariLimits() throws IOException {
		String text = Files.readString(this.runDir.resolve("recommended-application.yml"));
		Map<String, Object> yaml = new Yaml().load(text);
		Map<String, Object> hikari = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) yaml
			.get("spring")).get("datasource")).get("hikari");

		assertThat(hikari).containsEntry("maximum-pool-size", 5).doesNotContainKey("minimum-idle");
		int connectionTimeoutMs = (int) hikari.get("connection-timeout");
		int maxLifetimeMs = (int) hikari.get("max-lifetime");
		int keepaliveTimeMs = (int) hikari.get("keepalive-time");
		// Never below the floor that bounds opening a new connection too (the login
		// timeout).
		assertThat(connectionTimeoutMs).isGreaterThanOrEqualTo(10_000);
		assertThat(maxLifetimeMs).isGreaterThanOrEqualTo(30_000);
		assertThat(keepaliveTimeMs).isGreaterThanOrEqualTo(30_000).isLessThan(maxLifetimeMs);
		// Opt-in: written commented out, at HikariCP's 2 s minimum (the slowest sustained
		// request of the multi topology is 70 ms).
		assertThat(hikari).doesNotContainKey("leak-detection-threshold");
		assertThat(text).contains("\n      # leak-detection-threshold: 2000\n");
		assertThat((int) hikari.get("validation-timeout")).as("HikariCP's default").isEqualTo(5_000);
		List<String> lines = text.lines().toList();
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).matches("\\s+[a-z-]+: \\d+")) {
				assertThat(lines.get(i - 1)).as("the reason above " + lines.get(i)).matches("\\s+# .+");
			}
		}
		assertThat(text).contains("minimum-idle is deliberately unset", "alternative: topology 'single'");
	}

}
