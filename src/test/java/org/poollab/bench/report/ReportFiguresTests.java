package org.poollab.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.deciding.RecommenderTests;
import org.poollab.bench.results.Interval;
import org.poollab.bench.results.Latency;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Pool;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.ServerLatency;
import org.poollab.bench.results.SweepResults;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The figures each point carries beside its latency (throughput, late starts, refusals,
 * the generator's CPU, the acquire histogram's bounds) and how the report words them.
 */
class ReportFiguresTests {

	/** The second per-point table: the pool's figures. */
	private static final String POOL_TABLE = "### Per point, the pool";

	@TempDir
	Path runDir;

	@Test
	void lateStartsOfTenMillisecondsOrMoreMarkTheLatencyAsUnderstated() throws IOException {
		render(List.of(RecommenderTests.withStartLag(RecommenderTests.point("single", 2, 1000, 20), 3, 1000),
				RecommenderTests.withStartLag(RecommenderTests.point("single", 5, 1000, 5), 14, 1000)));

		String markdown = markdown();
		String note = "the load generator fell behind by up to 14 ms (late starts p99): latency understated";
		// pool 5's lower p99 does not vote: the answer (the row in bold) is pool 2
		assertThat(table(markdown, "### p99 latency (ms)")).contains("| **2** | **20** |", "| 5 | 5 ¹ |",
				"- ¹ " + note);
		String detail = table(markdown, "### Per point");
		assertThat(detail).contains("late starts p99 (ms)", "- ¹ " + note);
		assertThat(row(detail, "**2**")).contains("| **3** |").doesNotContain("¹");
		assertThat(row(detail, "5")).contains("| 14 ¹ |");
	}

	@Test
	void everyFigureWithAnIntervalShowsItInBrackets() throws IOException {
		render(List.of(RecommenderTests.point("single", 2, 1000, 20), withIntervals(
				RecommenderTests.point("single", 5, 1000, 6), new Interval(1.2, 1.8), new Interval(5, 9))));

		String markdown = markdown();
		String grid = table(markdown, "### p99 latency (ms)");
		assertThat(grid).contains("with its 95 % interval in brackets");
		assertThat(row(grid, "**5**")).contains("| **6 [5–9]** |");
		assertThat(row(grid, "2")).as("results without intervals show the figure alone").contains("| 20 |");
		assertThat(row(table(markdown, "### Per point"), "**5**")).contains("| **1.5 [1.2–1.8]** |");
	}

	@Test
	void repeatsShowTheEnvelopeOfTheirIntervals() {
		Point first = withIntervals(RecommenderTests.point("single", 5, 1000, 6), new Interval(1, 2),
				new Interval(5, 9));
		Point second = withIntervals(RecommenderTests.point("single", 5, 1000, 5), new Interval(1, 2),
				new Interval(4, 7));
		assertThat(Cell.of(List.of(first, second), 100).latency().p99Interval()).contains(new Interval(4, 9));
		assertThat(Cell.of(List.of(first, RecommenderTests.point("single", 5, 1000, 5)), 100).latency().p99Interval())
			.as("a repeat without one leaves the cell without one")
			.isEmpty();
	}

	@Test
	void refusalsShowByReasonAndTooManyClientsSaysTheDatabaseWasAtItsLimit() throws IOException {
		render(List.of(RecommenderTests.point("single", 5, 1000, 5), RecommenderTests.withRefusals(
				RecommenderTests.point("single", 50, 1000, 5), Map.of("too-many-clients", 120L, "pool-timeout", 4L))));

		String markdown = markdown();
		assertThat(row(table(markdown, POOL_TABLE), "50")).contains("| 503: 4 pool-timeout, 120 too-many-clients |");
		assertThat(row(table(markdown, POOL_TABLE), "**5**")).contains("| **–** |");
		assertThat(markdown).contains("The database was at its connection limit (max_connections 100, 3 reserved)");
	}

	@Test
	void theSlowestInstancesOwnP99ShowsInTheDetailAndIsMissingWhereNotRecorded() throws IOException {
		render(List.of(RecommenderTests.point("single", 2, 1000, 20),
				withServerLatency(RecommenderTests.point("single", 5, 1000, 5), 1.398101, 4.194304)));

		String detail = table(markdown(), "### Per point");
		assertThat(detail).contains("| p99.9 (ms) | server p99 (ms) |", "- server p99: the slowest instance's own p99");
		// p99.9, then the server's p99: the slowest instance's, absent for pool 2
		assertThat(row(detail, "**5**")).contains("| **10** | **4.2** |");
		assertThat(row(detail, "2")).contains("| 40 | – |");
	}

	@Test
	void failuresWithoutAnHttpResponseShowUnderTheirCauseNeverAsAnEmpty503Cell() throws IOException {
		Point timingOut = RecommenderTests.point("single", 2, 1000, 20);
		// As the instances record them today: every reason present, none counted.
		timingOut = RecommenderTests.withRefusals(timingOut.toBuilder()
			.achievedRps(1000)
			.samples(30_000)
			.errors(150)
			.statusCounts(Map.of("200", 29_850L, "Non HTTP response code: java.net.SocketTimeoutException", 150L))
			.failedMaxMs(10_000)
			.loadGeneratorCpuCores(0.4)
			.build(), Map.of("pool-timeout", 0L, "too-many-clients", 0L, "database-unavailable", 0L));
		render(List.of(timingOut, RecommenderTests.point("single", 5, 1000, 5)));

		String markdown = markdown();
		assertThat(row(table(markdown, POOL_TABLE), "2")).contains("| java.net.SocketTimeoutException: 150 |")
			.doesNotContain("503");
		assertThat(row(table(markdown, "### Per point"), "2"))
			.contains("0.50 % errors (java.net.SocketTimeoutException: 150)")
			.doesNotContain("503");
	}

	@Test
	void throughputCountsSuccessfulResponsesAndIsWhatTheThroughputChartPlots() throws IOException {
		Point failing = RecommenderTests.point("single", 2, 1000, 20);
		// 30 s at 1000 rps sent, a tenth of it failed: 900 successful responses a second
		failing = failing.toBuilder()
			.achievedRps(1000)
			.samples(30_000)
			.errors(3_000)
			.statusCounts(Map.of("200", 27_000L, "503", 3_000L))
			.loadGeneratorCpuCores(0.61)
			.build();
		render(List.of(failing, RecommenderTests.point("single", 5, 1000, 5)));

		String detail = table(markdown(), "### Per point");
		assertThat(detail).contains("| sent (rps) | throughput (ok/s) |", "| JMeter CPU (cores) |");
		assertThat(row(detail, "2")).contains("| 1000 | 900 | 10.00 † |", "| 0.61 |");
		assertThat(row(table(markdown(), POOL_TABLE), "2")).contains("| 503: 3000 (reason not recorded) |");
		JsonNode throughput = chart("chart-single-throughput");
		assertThat(throughput.at("/series/0/data/0/value").asDouble()).isEqualTo(900);
		assertThat(throughput.at("/series/0/data/0/meta").asString()).contains("900 ok/s (1000 rps sent)");
		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		assertThat(page.select("[data-chart=throughput] .y-title").text())
			.startsWith("throughput (successful responses/s)");
	}

	@Test
	void sentAboveTheTargetIsFlaggedAsTheGeneratorCatchingUp() throws IOException {
		render(List.of(RecommenderTests.point("single", 2, 1000, 20),
				RecommenderTests.withStartLag(RecommenderTests.point("single", 5, 1000, 5), -1, 1080)));

		String markdown = markdown();
		String note = "1080 rps sent for 1000 offered: the load generator fell behind and caught up";
		// pool 5's lower p99 does not vote: the answer (the row in bold) is pool 2
		assertThat(row(table(markdown, "### Per point"), "5")).contains("| 1080 ¹ |");
		assertThat(table(markdown, "### Per point")).contains("- ¹ " + note);
		assertThat(table(markdown, "### p99 latency (ms)")).contains("| 5 | 5 ¹ |", "- ¹ " + note);
	}

	@Test
	void acquireP99PrintsTheLowestBucketAndTheTimeoutAsBoundsNotAsFigures() throws IOException {
		Point free = withAcquire(RecommenderTests.point("single", 10, 500, 3), 0.01, 0);
		// 2147.48 ms is the bucket the 2000 ms connection-timeout falls in
		Point timingOut = withAcquire(RecommenderTests.point("single", 2, 1000, 900, 600, 2100), 2147.483647, 600);
		Point waiting = withAcquire(RecommenderTests.point("single", 5, 1000, 1500), 2147.483647, 0);
		render(List.of(free, timingOut, waiting));

		String detail = table(markdown(), POOL_TABLE);
		// pool 10 is the only one that sustained its rate: the recommended row, in bold
		assertThat(row(detail, "**10**")).contains("| **≤ 0.01** |");
		assertThat(row(detail, "2")).contains("| ≥ 2000 |");
		assertThat(row(detail, "5")).contains("| 1790–2000 |");
		assertThat(detail).contains("- acquire p99: the upper bound of the HikariCP histogram bucket");
		assertThat(chart("chart-single-acquire").at("/series/0/data/2/meta").asString()).contains("≤ 0.01 ms");
	}

	@Test
	void theDashboardColumnAppearsOnlyWhenADashboardExists() throws IOException {
		List<Point> points = List.of(RecommenderTests.point("single", 2, 1000, 20),
				RecommenderTests.point("single", 5, 1000, 5));
		render(points);
		assertThat(table(markdown(), POOL_TABLE)).doesNotContain("dashboard");

		Path dashboard = this.runDir.resolve("dashboards/single-pool5-rate1000-rep1/index.html");
		Files.createDirectories(dashboard.getParent());
		Files.writeString(dashboard, "<html></html>");
		render(points);
		assertThat(table(markdown(), POOL_TABLE)).contains("| pool verified | dashboard |",
				"[dashboard](dashboards/single-pool5-rate1000-rep1/index.html)");
	}

	@Test
	void peaksAreSaidToComeFromSamplesNotToProveThePoolNeverRanDry() throws IOException {
		render(List.of(RecommenderTests.point("single", 2, 1000, 20), RecommenderTests.point("single", 5, 1000, 5)));

		assertThat(table(markdown(), POOL_TABLE)).contains(Tables.PEAKS_NOTE);
		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		assertThat(page.select("[data-chart=pending] .how").text()).contains("every 500 ms")
			.doesNotContain("never ran dry during the window");
	}

	@Test
	void headerSaysTheArrivalsTheWindowsAndWhereTheRunsTimeWent() throws IOException {
		try (InputStream fixture = getClass().getResourceAsStream("quick-results-new-format.json")) {
			Files.copy(fixture, this.runDir.resolve(ResultsStore.RESULTS_JSON));
		}
		Report.regenerate(this.runDir);

		// wall 55.529 s; measured 12 s (22 %); under load 12 + 8 + 10 s (54 %)
		assertThat(markdown()).contains("Preset `quick`, started 2026-11-23 13:34:39 UTC, 4 points (one run of each). "
				+ "The run took 56s; 22 % of it in measured windows, 54 % under load. Arrivals: even (evenly spaced",
				"Each point: 2 s of warm-up, then a 3 s measured window.")
			.doesNotContain("13:34:39.283472142");
	}

	@Test
	void theDeadlockFloorShowsTn() throws IOException {
		render(List.of(RecommenderTests.point("single", 2, 1000, 20), RecommenderTests.point("single", 5, 1000, 5)));

		assertThat(markdown()).contains(
				"| Deadlock floor | 1 (Tn = 200, Cm = 1 from bench.connectionsPerRequest) | Tn × (Cm − 1) + 1 = 200 × (1 − 1) + 1");
	}

	@Test
	void chartLegendAndLinesShareOneColourPerRateForAnyNumberOfRates() throws Exception {
		List<Point> points = new ArrayList<>();
		int rates = 9;
		for (int rate = 1; rate <= rates; rate++) {
			points.add(RecommenderTests.point("single", 2, rate * 100, 6));
			points.add(RecommenderTests.point("single", 5, rate * 100, 5));
		}
		render(points);

		Document page = Jsoup.parse(Chromium.require().dumpDom(this.runDir.resolve("report.html"), this.runDir));
		Element chart = page.getElementById("chart-single-p99");
		List<String> legend = chart.parent()
			.parent()
			.select(".legend .swatch[style]")
			.eachAttr("style")
			.stream()
			.map((style) -> style.replace("background: ", ""))
			.toList();
		List<String> lines = chart.select("path.ct-line")
			.eachAttr("style")
			.stream()
			.map((style) -> style.replace("stroke: ", ""))
			.toList();
		assertThat(legend).hasSize(rates).doesNotHaveDuplicates();
		assertThat(lines).containsExactlyElementsOf(legend);
	}

	private void render(List<Point> points) throws IOException {
		Report.write(new SweepResults(Instant.parse("2026-11-22T10:00:00Z"), "test", RecommenderTests.HOST,
				RecommenderTests.DATABASE, 100, null, points), this.runDir);
	}

	private String markdown() throws IOException {
		return Files.readString(this.runDir.resolve("report.md"));
	}

	/** One chart's data as the page hands it to Chartist. */
	private JsonNode chart(String id) throws IOException {
		String html = Files.readString(this.runDir.resolve("report.html"));
		int start = html.indexOf("const CHARTS = ") + "const CHARTS = ".length();
		JsonNode charts = JsonMapper.builder().build().readTree(html.substring(start, html.indexOf(";\n", start)));
		for (JsonNode chart : charts) {
			if (chart.get("id").asString().equals(id)) {
				return chart;
			}
		}
		throw new AssertionError("no chart " + id);
	}

	/** A Markdown table with its notes: from its heading to the next heading. */
	static String table(String markdown, String heading) {
		int start = markdown.indexOf(heading);
		assertThat(start).as(heading).isNotNegative();
		int end = markdown.indexOf("\n#", start + heading.length());
		return markdown.substring(start, (end < 0) ? markdown.length() : end);
	}

	/** The table row whose first column is {@code first}. */
	static String row(String table, String first) {
		return table.lines()
			.filter((line) -> line.startsWith("| " + first + " |"))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no row " + first + " in\n" + table));
	}

	private static Point withServerLatency(Point p, double... p99Ms) {
		List<ServerLatency> instances = new ArrayList<>();
		for (int i = 0; i < p99Ms.length; i++) {
			instances.add(new ServerLatency(8081 + i, 1000, 1.0, p99Ms[i], 2 * p99Ms[i], 10_000));
		}
		return p.toBuilder().serverLatency(instances).build();
	}

	private static Point withIntervals(Point p, Interval p50, Interval p99) {
		Latency l = p.latency();
		Latency latency = new Latency(l.meanMs(), l.p50Ms(), l.p95Ms(), l.p99Ms(), l.p999Ms(), l.maxMs(), p50, p99);
		return p.toBuilder().latency(latency).build();
	}

	private static Point withAcquire(Point p, double acquireP99Ms, long timeouts) {
		Pool pool = new Pool(p.pool().observedMax(), p.pool().peakActive(), p.pool().peakPending(), acquireP99Ms,
				p.pool().usageMeanMs(), timeouts, p.pool().telemetrySamples());
		return p.toBuilder().pool(pool).build();
	}

}
