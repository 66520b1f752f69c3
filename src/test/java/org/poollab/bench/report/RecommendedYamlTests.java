package org.poollab.bench.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.json.JsonMapper;

import org.poollab.bench.deciding.ConnectionTimeout;
import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.deciding.RecommenderTests;
import org.poollab.bench.results.DatabaseFacts;
import org.poollab.bench.results.EngineLoad;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.PgBouncerFacts;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.RequestThreads;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.Stack;
import org.poollab.bench.results.SweepResults;
import org.poollab.vendor.DatabaseVendor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class RecommendedYamlTests {

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
		// HikariCP's formula gives 2 x 2 + 0 = 4, below the measured 5 and 10 that
		// failed: no
		// value is written, and the comment in its place says why.
		assertThat(hikari(yaml)).doesNotContainKey("maximum-pool-size").containsEntry("connection-timeout", 30000);
		assertThat(yaml.replaceAll("\n\\s*# ", " ")).contains(
				"maximum-pool-size not written (HikariCP's default applies): NOT MEASURED (no conclusion: every pool size saturated)",
				"gives 4, at or below pool size(s) [5, 10] that sustained no rate here");
		assertThat(why(yaml, "connection-timeout")).startsWith("ms; HikariCP's default");
		String html = Files.readString(this.runDir.resolve("report.html"));
		assertThat(html).contains("no conclusion: every pool size saturated");
	}

	@Test
	void theReactiveTwinGetsAnR2dbcPoolBlockTheConfirmationRunReads() throws Exception {
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { 2, 5, 10 }) {
			points.add(reactive(RecommenderTests.point("single", pool, 1000, 4)));
		}

		Report.write(results(points), this.runDir);

		Path file = this.runDir.resolve("recommended-application.yml");
		String yaml = Files.readString(file);
		assertThat(yaml).startsWith("# r2dbc-pool settings derived from the pool-sizing sweep")
			.doesNotContain("hikari", "minimum-idle");
		Map<String, Object> pool = r2dbcPool(yaml);
		assertThat(pool).containsOnlyKeys("max-size", "initial-size", "min-idle", "max-acquire-time", "acquire-retry",
				"max-validation-time", "max-life-time");
		// Without a hold time (the twin measures none) Little's law says nothing: the
		// smallest of the equal pools that is at least 2.
		assertThat(pool.get("max-size")).isEqualTo(2);
		assertThat(pool.get("initial-size")).isEqualTo(pool.get("max-size"));
		assertThat(pool.get("min-idle")).isEqualTo(pool.get("max-size"));
		assertThat(pool).containsEntry("acquire-retry", 0);
		assertThat((Integer) pool.get("max-validation-time")).isLessThan((Integer) pool.get("max-acquire-time"));
		assertThat(why(yaml, "max-acquire-time")).startsWith("ms; HikariCP's connection-timeout rule");
		// What the confirmation run holds against what each instance reports.
		assertThat(org.poollab.bench.load.ConfirmationRun.settings(file)).containsEntry("max-size", "2")
			.containsEntry("acquire-retry", "0")
			.doesNotContainKey("maximum-pool-size");
		assertThat(Files.readString(this.runDir.resolve("report.md")))
			.contains("### single (R2DBC): max-size 2 per instance")
			.doesNotContain("JDBC vs R2DBC");
	}

	@Test
	void bothStacksAreComparedSideBySideAndEachGetsItsOwnBlock() throws Exception {
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { 2, 5, 10 }) {
			points.add(RecommenderTests.point("single", pool, 1000, 4));
			points.add(reactive(RecommenderTests.point("single", pool, 1000, 900, 0, 6)));
		}

		Report.write(results(points), this.runDir);

		String yaml = Files.readString(this.runDir.resolve("recommended-application.yml"));
		assertThat(yaml).startsWith("# Pool settings derived from the pool-sizing sweep")
			.contains("# --- alternative: topology 'single (R2DBC)' ---", "#     pool:");
		assertThat(hikari(yaml)).containsKey("maximum-pool-size");
		String md = Files.readString(this.runDir.resolve("report.md"));
		assertThat(md).contains("## JDBC vs R2DBC",
				"### JDBC vs R2DBC: single (JDBC (Spring MVC, HikariCP) → R2DBC (WebFlux, r2dbc-pool))",
				"| 5 | 1000 | 1000 → 900 | 4 → 6 |");
		Document html = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		assertThat(html.select("section.stacks h2").text()).isEqualTo("JDBC vs R2DBC");
		assertThat(html.select("section.stacks tbody tr")).hasSize(3);
	}

	/**
	 * No pool on both stacks is a row of its own, labelled {@code none}, beside the pool
	 * sizes: what a sweep of {@code none} on both stacks puts in the report.
	 */
	@Test
	void noPoolOnBothStacksIsComparedAsNoneBesideThePoolSizes() throws Exception {
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { SweepResults.NO_POOL, 2, 5 }) {
			points.add(RecommenderTests.point("single", pool, 1000, 4));
			points.add(reactive(RecommenderTests.point("single", pool, 1000, 900, 0, 6)));
		}

		Report.write(results(points), this.runDir);

		String md = Files.readString(this.runDir.resolve("report.md"));
		assertThat(md).contains("## JDBC vs R2DBC", "| none | 1000 | 1000 → 900 | 4 → 6 |",
				"| 2 | 1000 | 1000 → 900 | 4 → 6 |", "| 5 | 1000 | 1000 → 900 | 4 → 6 |");
		Document html = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		assertThat(html.select("section.stacks tbody tr")).hasSize(3);
	}

	@Test
	void bothDatabasesAreComparedSideBySideAndEachSectionUsesItsOwnDatabase() throws Exception {
		DatabaseFacts mariaDb = new DatabaseFacts("embedded", "MariaDB", "jdbc:mariadb://127.0.0.1:3306/poollab",
				"10.11.5-MariaDB", 150, 0);
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { 2, 5, 10 }) {
			points.add(RecommenderTests.point("single", pool, 1000, 4));
		}
		for (int pool : new int[] { 2, 5, 10 }) {
			points.add(onMariaDb(RecommenderTests.point("single", pool, 1000, 900, 0, 6)));
		}

		Report.write(results(points).withDatabase(mariaDb), this.runDir);

		String md = Files.readString(this.runDir.resolve("report.md"));
		assertThat(md).contains(
				"Databases, one at a time: embedded PostgreSQL 17.11 (max_connections 100, 3 reserved), on the same "
						+ "host; then embedded MariaDB 10.11.5-MariaDB (max_connections 150, 0 reserved), on the same host.",
				"## PostgreSQL vs MariaDB", "### PostgreSQL vs MariaDB: single\n", "| 5 | 1000 | 1000 → 900 | 4 → 6 |",
				"single (PostgreSQL)", "single (MariaDB)", "Recommended: PostgreSQL → maximum-pool-size ")
			.contains("; MariaDB → maximum-pool-size ");
		// Each section's connection budget is its own database's.
		assertThat(md).contains(
				"| Fleet budget | ≤ 97 per instance | 1 instance(s) × pool ≤ max_connections 100 − reserved 3. |",
				"| Fleet budget | ≤ 150 per instance | 1 instance(s) × pool ≤ max_connections 150 − reserved 0. |");
		Document html = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		assertThat(html.select("section.vendors h2").text()).isEqualTo("PostgreSQL vs MariaDB");
		assertThat(html.select("section.vendors tbody tr")).hasSize(3);
		String yaml = Files.readString(this.runDir.resolve("recommended-application.yml"));
		assertThat(yaml).contains("# --- alternative: topology 'single (MariaDB)' ---");
	}

	private static Point onMariaDb(Point point) {
		return point.toBuilder()
			.limits(new Limits(0, "512m", DatabaseVendor.MARIADB, Stack.JDBC, RequestThreads.TOMCAT_DEFAULT))
			.build();
	}

	@Test
	void aPgBouncerGridWithEveryPointGeneratorBoundStillAnswersWithPgBouncersPool() throws Exception {
		// Both points of a fresh-clone test run were generator-bound: the grid kept no
		// cell, and the answer was written as a HikariCP pool of the instances.
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { 3, 1 }) {
			points.add(RecommenderTests.point("pgbouncer", pool, 40, 12)
				.toBuilder()
				.instances(2)
				.outcome("generator-bound: JMeter sent late")
				.pgbouncer(new PgBouncerFacts(pool, 3, pool, 1, 0, 0, 10))
				.build());
		}

		Report.write(results(points), this.runDir);

		String yaml = Files.readString(this.runDir.resolve("recommended-application.yml"));
		assertThat(yaml).contains("# pgbouncer.ini: pool_mode = transaction",
				"# spring.datasource.hikari.maximum-pool-size: 3");
		assertThat(new Yaml().<Map<String, Object>>load(yaml)).as("pgbouncer's block is comments only").isNull();
	}

	private static Point reactive(Point point) {
		return point.toBuilder().limits(new Limits(0, "512m", Stack.R2DBC, RequestThreads.TOMCAT_DEFAULT)).build();
	}

	@SuppressWarnings("unchecked")
	static Map<String, Object> r2dbcPool(String yaml) {
		Map<String, Object> document = new Yaml().load(yaml);
		return (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) document.get("spring")).get("r2dbc"))
			.get("pool");
	}

	@Test
	void withoutAKneeTheLiveValueIsDerivedNotTheSmallestAndSaysSo() throws Exception {
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { 2, 5, 10 }) {
			points.add(RecommenderTests.point("multi", pool, 1000, 4));
		}

		Report.write(results(points), this.runDir);

		// 1000 rps x 1.5 ms held = 1.5 busy; twice that is 3, so 5, not the smallest 2
		String yaml = Files.readString(this.runDir.resolve("recommended-application.yml"));
		assertThat(why(yaml, "maximum-pool-size")).contains("per instance; NOT a measured knee: pool sizes 2, 5 and 10 "
				+ "equal within noise at 1000 rps; derived: the smallest of them that is at least 2, at least "
				+ "twice the 1.50 connections Little's law finds busy per instance (rounded up: 3)");
		assertThat(hikari(yaml)).containsEntry("maximum-pool-size", 5);
		assertThat(Files.readString(this.runDir.resolve("report.html"))).contains("not a measured knee");
		assertThat(Files.readString(this.runDir.resolve("report.md"))).contains(
				"no knee found: 5 suggested, not measured",
				"No knee was found: pool sizes 2, 5 and 10 are equal within noise at 1000 rps");
	}

	@Test
	void requestsHoldingTwoConnectionsGetHikarisDeadlockFloorUnderTheMeasuredPool() throws Exception {
		List<Point> points = List.of(RecommenderTests.point("single", 2, 1000, 20),
				RecommenderTests.point("single", 5, 1000, 4));

		Report.write(results(points).withConnectionsPerRequest(2), this.runDir);

		// Tomcat's 200 threads × (2 − 1) + 1: the measured 5 is written as 201
		String yaml = Files.readString(this.runDir.resolve("recommended-application.yml"));
		assertThat(hikari(yaml)).containsEntry("maximum-pool-size", 201);
		assertThat(why(yaml, "maximum-pool-size"))
			.contains("WRITTEN 201, not the 5 measured: HikariCP's deadlock floor Tn × (Cm − 1) + 1 = 201");
		assertThat(Files.readString(this.runDir.resolve("report.md"))).contains(
				"201 (Tn = 200, Cm = 2 from bench.connectionsPerRequest)", "200 × (2 − 1) + 1",
				"Cm raises the floor under the pool written, not what was measured");
	}

	@Test
	void aVerdictOnOneRunPerPointIsMarkedProvisionalInTheYamlAndTheReport() throws Exception {
		Report.write(results(
				List.of(RecommenderTests.point("single", 2, 1000, 20), RecommenderTests.point("single", 5, 1000, 4))),
				this.runDir);

		String yaml = Files.readString(this.runDir.resolve("recommended-application.yml"));
		assertThat(yaml).contains("# Provisional: one run per point; confirm with -Dbench.repeats=3.\n",
				"results from before confirmation runs).\nspring:");
		assertThat(hikari(yaml)).containsEntry("maximum-pool-size", 5);
		assertThat(Files.readString(this.runDir.resolve("report.md"))).contains("maximum-pool-size 5 (provisional)",
				Recommendation.PROVISIONAL);
		Document page = Jsoup.parse(Files.readString(this.runDir.resolve("report.html")));
		assertThat(page.select(".verdicts .flag").eachText()).containsExactly("provisional: one run per point");
	}

	@Test
	void pointsMeasuredInSlowMotionAreNamedOnTheCardAndInTheYamlsReasons() throws Exception {
		List<Point> points = List.of(RecommenderTests.point("single", 2, 1000, 20),
				RecommenderTests.point("single", 5, 1000, 4));
		Report.write(
				results(points.stream().map((point) -> point.toBuilder().timeScale(2, 1.5, null).build()).toList()),
				this.runDir);

		String yaml = Files.readString(this.runDir.resolve("recommended-application.yml"));
		assertThat(yaml.replaceAll("\\s*\\n#\\s+", " ")).contains(
				"Measured in slow motion (k = 2: rates ÷ 2, holds and connection-timeout × 2, as this box needed); latencies were mapped back to your time");
		assertThat(Files.readString(this.runDir.resolve("report.md"))).contains("time scale",
				"k = 2: measured at rates ÷ 2");

		Report.write(results(points), this.runDir);
		assertThat(Files.readString(this.runDir.resolve("recommended-application.yml"))).doesNotContain("slow motion");
		assertThat(Files.readString(this.runDir.resolve("report.md"))).doesNotContain("time scale");
	}

	@Test
	void aSweepOnMariaDbNamesMariaDbAndNeverPostgreSql() throws Exception {
		DatabaseFacts mariaDb = new DatabaseFacts("embedded", "MariaDB", "jdbc:mariadb://127.0.0.1:3306/poollab",
				"10.11.5-MariaDB", 300, 0);
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { 1, 5 }) {
			points.add(RecommenderTests.point("single", pool, 2000, 1200, 800, 3000));
		}

		Report.write(new SweepResults(Instant.parse("2026-11-25T10:00:00Z"), "test", RecommenderTests.HOST, mariaDb, 0,
				null, points), this.runDir);

		assertThat(Files.readString(this.runDir.resolve("report.md")))
			.contains("Database: embedded MariaDB 10.11.5-MariaDB (max_connections 300, 0 reserved), on the same host.")
			.doesNotContain("PostgreSQL");
		assertThat(Files.readString(this.runDir.resolve("report.html"))).doesNotContain("PostgreSQL");
		assertThat(Files.readString(this.runDir.resolve("recommended-application.yml"))).doesNotContain("PostgreSQL");
	}

	@Test
	void anUnmeasuredPoolIsNeverSmallerThanTheLoadTheQuestionPutsOnIt() throws Exception {
		// One pool size measured: no conclusion, and HikariCP's formula gives 2 x 2 + 0 =
		// 4.
		// The busiest point kept 550 rps x 15 ms = 8.25 connections busy on average: a
		// pool
		// of 4 could never catch up. At most 80 % busy: ceil(8.25 / 0.8) = 11.
		List<Point> points = List.of(RecommenderTests.withUsage(RecommenderTests.point("single", 10, 550, 17), 15));

		Report.write(results(points), this.runDir);

		String yaml = Files.readString(this.runDir.resolve("recommended-application.yml"));
		assertThat(hikari(yaml)).containsEntry("maximum-pool-size", 11);
		assertThat(why(yaml, "maximum-pool-size")).contains("NOT MEASURED",
				"raised to 11: the busiest point kept 8.3 connections busy on average (550 rps x 15.0 ms, Little's law), at most 80 % of the pool");
	}

	@Test
	void anExternalDatabaseOnAnotherHostIsNotDescribedAsOnThisOne() throws Exception {
		DatabaseFacts remote = new DatabaseFacts("external", DatabaseFacts.DEFAULT_VENDOR,
				"jdbc:postgresql://db.example.com:5432/roles", "17.11", 100, 3);
		List<Point> points = new ArrayList<>();
		// Pools 1 and 5 only: HikariCP's default 10 is then no size measured to fail.
		for (int pool : new int[] { 1, 5 }) {
			points.add(RecommenderTests.point("single", pool, 2000, 1200, 800, 3000));
		}

		Report.write(new SweepResults(Instant.parse("2026-11-22T10:00:00Z"), "test", RecommenderTests.HOST, remote, 0,
				null, points), this.runDir);

		String markdown = Files.readString(this.runDir.resolve("report.md"));
		assertThat(markdown)
			.contains("external PostgreSQL 17.11 (max_connections 100, 3 reserved), on "
					+ "db.example.com, not the lab's host.")
			.doesNotContain("on the same host", "2 × 2 + 0")
			.contains("| HikariCP starting formula | unknown |", "whose cores the lab cannot see");
		String yaml = Files.readString(this.runDir.resolve("recommended-application.yml"));
		assertThat(hikari(yaml)).containsEntry("maximum-pool-size", 10);
		assertThat(why(yaml, "maximum-pool-size")).contains("per instance; NOT MEASURED",
				"HikariCP's default (its starting formula needs the database host's cores, unknown here)");
	}

	/**
	 * Target mode without {@code bench.database.url}: the lab read no max_connections, so
	 * the report says the budget was not checked instead of a budget of 0 (which would
	 * refuse every pool) or of anything else.
	 */
	@Test
	void anExternalDeploymentsUncheckedDatabaseIsSaidNotToBeChecked() throws Exception {
		DatabaseFacts unchecked = new DatabaseFacts(DatabaseFacts.UNCHECKED, DatabaseFacts.DEFAULT_VENDOR, "",
				"unknown", 0, 0);
		List<Point> points = new ArrayList<>();
		// Pool 1 drowns at 200 rps, 5 and 10 hold it alike: pool 5 is chosen.
		points.add(RecommenderTests.point("single", 1, 200, 120, 40, 4000));
		for (int pool : new int[] { 5, 10 }) {
			points.add(RecommenderTests.point("single", pool, 200, 8));
		}

		List<Recommendation> recommendations = Report.write(new SweepResults(Instant.parse("2026-11-25T10:00:00Z"),
				"test", RecommenderTests.HOST, unchecked, 100, null, points), this.runDir);

		assertThat(recommendations.get(0).poolSize()).isPresent();
		assertThat(recommendations.get(0).crossChecks().budgetKnown()).isFalse();
		String markdown = Files.readString(this.runDir.resolve("report.md"));
		assertThat(markdown)
			.contains("Database: PostgreSQL, not checked (no bench.database.url): its max_connections was not read")
			.contains("| Fleet budget | not checked |")
			.contains("The database's connection budget was not checked (no bench.database.url)")
			.doesNotContain("max_connections 0", "on the same host", String.valueOf(Integer.MAX_VALUE));
		assertThat(Files.readString(this.runDir.resolve("recommended-application.yml")))
			.contains("fleet budget not checked: no bench.database.url")
			.doesNotContain(String.valueOf(Integer.MAX_VALUE));
	}

	/**
	 * Load from remote engines: each engine's rate and send lag, kept per point, reach
	 * the report beside the late starts, per repeat.
	 */
	@Test
	void eachRemoteEnginesSendLagIsInTheReport() throws Exception {
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { 5, 10 }) {
			for (int repeat = 1; repeat <= 2; repeat++) {
				points.add(RecommenderTests.point("single", pool, 200, 8)
					.toBuilder()
					.repeat(repeat)
					.startLagP99Ms(3.0)
					.engines(
							List.of(new EngineLoad("127.0.0.4:1099", 100, 3), new EngineLoad("127.0.0.5:1099", 100, 2)))
					.build());
			}
		}

		Report.write(new SweepResults(Instant.parse("2026-11-25T10:00:00Z"), "test", RecommenderTests.HOST,
				RecommenderTests.DATABASE, 100, null, points), this.runDir);

		assertThat(Files.readString(this.runDir.resolve("report.md"))).contains(
				"per engine: repeat 1: 127.0.0.4:1099 sent 100.0 rps, late p99 3 ms; 127.0.0.5:1099 sent 100.0 rps, late p99 2 ms; repeat 2: 127.0.0.4:1099");
		assertThat(Files.readString(this.runDir.resolve("report.html")))
			.contains("per engine: repeat 1: 127.0.0.4:1099 sent 100.0 rps");
	}

	@Test
	void saysSoWhenNoPointOfATopologyFinishedOk() throws Exception {
		Point failed = RecommenderTests.point("single", 5, 1000, 4);
		failed = failed.toBuilder().outcome("instance did not start").build();

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
				points.add(one.toBuilder().repeat(repeat).build());
			}
		}

		Report.write(results(points), this.runDir);

		assertThat(Files.readString(this.runDir.resolve("report.md"))).contains(Section.REPEATS_NOTE,
				"Per point, load balancer: none (medians across repeats");
		assertThat(Files.readString(this.runDir.resolve("report.html"))).contains("the median across the repeats");
	}

	@Test
	void readsResultsAsJacksonWritesThem() throws Exception {
		SweepResults written = results(List.of(RecommenderTests.point("single", 5, 1000, 4)));
		Files.writeString(this.runDir.resolve(ResultsStore.RESULTS_JSON),
				JsonMapper.builder().build().writeValueAsString(written));

		assertThat(ResultsStore.read(this.runDir.resolve(ResultsStore.RESULTS_JSON))).isEqualTo(written);
	}

	@Test
	void aBlockBreakingHikarisTimeoutRuleIsRefused() {
		Map<String, Long> block = new LinkedHashMap<>(
				Map.of("connection-timeout", 500L, "validation-timeout", 500L, "maximum-pool-size", 5L));
		assertThatIllegalStateException().isThrownBy(() -> HikariRules.require(block))
			.withMessageContaining("validation-timeout 500 ms must be below connection-timeout 500 ms");
		block.put("validation-timeout", 250L);
		HikariRules.require(block);
		block.put("keepalive-time", 10_000L);
		assertThatIllegalStateException().isThrownBy(() -> HikariRules.require(block))
			.withMessageContaining("keepalive-time 10000 ms must be at least 30 s");
	}

	@Test
	void validationTimeoutStaysBelowConnectionTimeout() {
		assertThat(RecommendedYaml.validationTimeoutMs(30_000)).as("HikariCP's default when it fits").isEqualTo(5_000);
		assertThat(RecommendedYaml.validationTimeoutMs(5_000)).isEqualTo(2_500);
		assertThat(RecommendedYaml.validationTimeoutMs(750)).isEqualTo(250);
		assertThat(RecommendedYaml.validationTimeoutMs(500)).isEqualTo(250);
		for (long connection = ConnectionTimeout.MIN_MS; connection <= 40_000; connection += 250) {
			assertThat(RecommendedYaml.validationTimeoutMs(connection)).isBetween(250L, connection - 1);
		}
	}

	@Test
	void commentsAreWrappedToAWidthAReviewerCanRead() throws Exception {
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { 1, 5, 10 }) {
			points.add(RecommenderTests.point("single", pool, 2000, 1200, 800, 3000));
		}
		Report.write(results(points), this.runDir);

		String yaml = Files.readString(this.runDir.resolve("recommended-application.yml"));
		assertThat(yaml.lines()).allSatisfy((line) -> assertThat(line).hasSizeLessThanOrEqualTo(100));
		assertThat(RecommendedYaml.wrap("a bb ccc dddd", 6)).containsExactly("a bb", "ccc", "dddd");
	}

	/**
	 * The comment lines above a key of the live block, joined: the reason for its value.
	 */
	static String why(String yaml, String key) {
		List<String> lines = yaml.lines().toList();
		int at = -1;
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).matches("\\s+" + key + ": .*")) {
				at = i;
				break;
			}
		}
		assertThat(at).as(key + " in\n" + yaml).isPositive();
		LinkedList<String> comment = new LinkedList<>();
		for (int i = at - 1; i >= 0 && lines.get(i).trim().startsWith("# "); i--) {
			comment.addFirst(lines.get(i).trim().substring(2));
		}
		return String.join(" ", comment);
	}

	@SuppressWarnings("unchecked")
	static Map<String, Object> hikari(String yaml) {
		Map<String, Object> document = new Yaml().load(yaml);
		return (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) document.get("spring"))
			.get("datasource")).get("hikari");
	}

	private static SweepResults results(List<Point> points) {
		return new SweepResults(Instant.parse("2026-11-22T10:00:00Z"), "test", RecommenderTests.HOST,
				RecommenderTests.DATABASE, 0, null, points);
	}

}
