package org.poollab.bench.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.deciding.RecommenderTests;
import org.poollab.bench.deciding.SloJudge;
import org.poollab.bench.model.Fleet;
import org.poollab.bench.model.QueueModel;
import org.poollab.bench.model.Usl;
import org.poollab.bench.results.Confirmation;
import org.poollab.bench.results.DatabaseFacts;
import org.poollab.bench.results.Interval;
import org.poollab.bench.results.Latency;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Pool;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.SloSearch;
import org.poollab.bench.results.SweepResults;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SLO search's verdicts, yml and report, on results whose figures are set by hand.
 */
class SloReportTests {

	private static final DatabaseFacts DATABASE = new DatabaseFacts("embedded", DatabaseFacts.DEFAULT_VENDOR,
			"jdbc:postgresql://127.0.0.1:5432/roles", "17.11", 300, 3);

	private static final SloSearch.Asked ASKED = new SloSearch.Asked(1500, 3, 3, Fleet.Surge.percent(25), 5, 1, 50,
			null, null);

	private static final QueueModel MODEL = new QueueModel(750, 1.0, 1, 1, 12);

	@TempDir
	Path runDir;

	@Test
	void aPoolMeetsTheObjectiveWhenEveryRepeatSustainsItWithItsUpperBound() {
		SloSearch.Probe probe = SloJudge.judge(2, List.of(window(2, 10, 14, 0), window(2, 12, 16, 0)), 50);
		assertThat(probe.meets()).isTrue();
		assertThat(probe.verdict()).contains("within the 50 ms objective in all 2 repeat(s)");
		assertThat(probe.p99Interval().highMs()).isEqualTo(16);
	}

	@Test
	void oneRepeatWithPoolTimeoutsFailsThePool() {
		SloSearch.Probe probe = SloJudge.judge(1, List.of(window(1, 10, 14, 0), window(1, 30, 40, 12)), 50);
		assertThat(probe.meets()).isFalse();
		assertThat(probe.verdict()).contains("repeat 2: 12 pool timeouts");
	}

	@Test
	void anUpperBoundAboveTheObjectiveFailsAPoolWhoseP99MetIt() {
		SloSearch.Probe probe = SloJudge.judge(1, List.of(window(1, 45, 62, 0), window(1, 44, 58, 0)), 50);
		assertThat(probe.meets()).isFalse();
		assertThat(probe.verdict()).contains("upper bound is above the 50 ms objective");
	}

	@Test
	void theModelSaysWhichP99ItPredictsAndWhyWhenItAddsTheP99s() {
		assertThat(SloText.model(search(2)))
			.contains("predicted p99: the base p99 plus the wait's p99, an upper estimate (no base p50 recorded)");
		assertThat(SloText.p99Formula(new QueueModel(750, 1.0, 1, 1, 12, 6.0))).isEqualTo(
				"predicted p99: of a request's own time (lognormal through the base p50 6 ms and p99) plus its wait");
	}

	@Test
	void ymlCarriesTheQuestionPathAndFleetLimits() throws Exception {
		SweepResults results = results(search(2));
		Report.write(results, this.runDir);
		String yaml = Files.readString(this.runDir.resolve(Report.RECOMMENDED_YAML));
		assertThat(RecommendedYamlTests.hikari(yaml)).containsEntry("maximum-pool-size", 2);
		String comments = yaml.replace("\n# ", " ");
		assertThat(comments).contains("Question: 1500 rps at the peak over 3 replica(s)")
			.contains("Path: pool 73 met (p99 12 ms), pool 2 met (p99 14 ms), pool 1 failed (p99 90 ms).")
			.contains("one of 3 down")
			.contains("max_connections 300, 3 reserved, 5 held by other clients: 292 for the pools");
		// 292 connections, pool 2, 25 % surge rounded up: 116 replicas run 116 + 29 = 145
		// pools (290); 117 would run 147 (294).
		assertThat(comments).contains("At pool 2 per replica the database holds at most 116 replica(s)");
		assertThat(new Fleet(300, 3, 5, Fleet.Surge.percent(25)).maxReplicas(2)).isEqualTo(116);
		// The fleet table: one row per fleet size up to the autoscaler's ceiling.
		assertThat(yaml.lines().filter((line) -> line.matches("#\\s+[0-9]+ \\|.*"))).hasSize(3);
		// The USL fit's N* = sqrt(0.95 / 0.002) = 21.8: 7 per replica at three replicas.
		assertThat(yaml).containsPattern("#\\s+3 \\|\\s+750 \\|.*\\|\\s+73 \\|\\s+7 \\|");
	}

	@Test
	void aConfirmationTheGeneratorCouldNotHoldIsNoRefutation() throws Exception {
		// JMeter fell behind (700 of 750 rps sent) while the instance saw nothing wrong:
		// the grid's judge calls that no verdict, and so does the SLO search's now.
		Point unheld = window(2, 14, 16, 0).toBuilder()
			.achievedRps(700)
			.outcome("generator-bound: JMeter sent 700 rps for 750")
			.build();
		SweepResults results = results(search(2)).withConfirmations(List
			.of(new Confirmation("single", "spring: {}\n", Map.of("maximum-pool-size", "2"), List.of(), unheld)));
		Report.write(results, this.runDir);

		assertThat(Files.readString(this.runDir.resolve(Report.RECOMMENDED_YAML)).replace("\n# ", " "))
			.contains("no verdict: the load generator fell behind")
			.doesNotContain("DID NOT hold the objective");
	}

	@Test
	void theBlockTheConfirmationStartsIsTheLiveBlockByteForByte() throws Exception {
		SweepResults results = results(search(2));
		Report.write(results, this.runDir);
		String yaml = Files.readString(this.runDir.resolve(Report.RECOMMENDED_YAML));
		assertThat(yaml).endsWith(Report.sloBlock(results).orElseThrow());
	}

	@Test
	void withoutAPoolTheYmlSaysWhyAndHoldsNoBlock() throws Exception {
		SloSearch none = new SloSearch(ASKED, 750, 1, 73, List.of(probe(73, false, 90)), null, true,
				"cannot be met, because of the service's ceiling on this machine: ...",
				new SloSearch.Model(MODEL, "test"), null);
		Report.write(results(none), this.runDir);
		String yaml = Files.readString(this.runDir.resolve(Report.RECOMMENDED_YAML));
		assertThat(yaml).contains("# Answer: cannot be met, because of the service's ceiling")
			.contains("No block")
			.doesNotContain("spring:");
		assertThat(Report.sloBlock(results(none))).isEmpty();
	}

	@Test
	void theirHoldTimeRederivesThePoolAndTimeoutsAndSaysSo() throws Exception {
		SloSearch.Asked theirs = new SloSearch.Asked(1500, 3, 3, Fleet.Surge.percent(25), 5, 1, 50, 20.0, 40.0);
		SloSearch search = search(2);
		SweepResults results = results(
				new SloSearch(theirs, search.rateRps(), search.lowestPool(), search.highestPool(), search.path(),
						search.chosenPool(), true, search.conclusion(), search.model(), search.scaling()));
		Report.write(results, this.runDir);
		String yaml = Files.readString(this.runDir.resolve(Report.RECOMMENDED_YAML));
		Map<String, Object> hikari = RecommendedYamlTests.hikari(yaml);
		// 750 rps holding 20 ms each keep 15 connections busy: the pool must exceed that.
		assertThat((Integer) hikari.get("maximum-pool-size")).isGreaterThan(15);
		assertThat(yaml.replace("\n      # ", " ")).contains("FROM YOUR bench.holdTime")
			.contains("the toy endpoint measured pool 2");
		// leak detection is opt-in: their 40 ms p99 rounds up to HikariCP's 2 s minimum
		assertThat(hikari).doesNotContainKey("leak-detection-threshold");
		assertThat(yaml).contains("\n      # leak-detection-threshold: 2000\n");
	}

	@Test
	void theirHoldLongerThanTheObjectiveSaysSoInsteadOfABlock() throws Exception {
		SloSearch.Asked theirs = new SloSearch.Asked(1500, 3, 3, Fleet.Surge.percent(25), 5, 1, 50, 12.0, 80.0);
		SloSearch search = search(2);
		Report.write(results(new SloSearch(theirs, search.rateRps(), search.lowestPool(), search.highestPool(),
				search.path(), search.chosenPool(), true, search.conclusion(), search.model(), search.scaling())),
				this.runDir);
		String yaml = Files.readString(this.runDir.resolve(Report.RECOMMENDED_YAML)).replace("\n# ", " ");
		assertThat(yaml).contains("No block: your hold time's p99 (80 ms) is not below the p99 objective (50 ms)")
			.contains("The toy endpoint measured pool 2.")
			.doesNotContain("spring:");
	}

	@Test
	void reportDrawsTheModelAgainstEveryMeasuredPoolInABrowser() throws Exception {
		SweepResults results = results(search(2));
		Report.write(results, this.runDir);
		Document page = Jsoup.parse(Chromium.require().dumpDom(this.runDir.resolve(Report.HTML), this.runDir));
		assertThat(page.select("#model-curve polyline.model")).hasSize(1);
		assertThat(page.select("#model-curve circle.measured")).hasSize(3);
		assertThat(page.select("#model-curve line.objective")).hasSize(1);
		assertThat(page.select("#usl circle.measured")).hasSize(7);
		assertThat(page.select("table.path tr")).hasSize(4);
		assertThat(page.select("pre.fleet").text()).contains("replicas |");
		String markdown = Files.readString(this.runDir.resolve(Report.MARKDOWN));
		assertThat(markdown).contains("## Search path").contains("## Fleet plan").contains("## Queue model");
	}

	@Test
	void theSearchRoundTripsThroughResultsJson() throws Exception {
		SweepResults results = results(search(2));
		ResultsStore store = ResultsStore.create(this.runDir, Instant.parse("2026-11-24T10:00:00Z"));
		store.write(results);
		SweepResults read = ResultsStore.read(store.directory().resolve(ResultsStore.RESULTS_JSON));
		assertThat(read.slo()).isEqualTo(results.slo());
	}

	private static SloSearch search(int chosen) {
		List<Usl.Sample> samples = new ArrayList<>();
		Usl truth = new Usl(4000, 0.05, 0.002);
		for (int n : new int[] { 1, 2, 4, 8, 16, 32, 64 }) {
			samples.add(new Usl.Sample(n, truth.throughput(n)));
		}
		return new SloSearch(ASKED, 750, 1, 73,
				List.of(probe(73, true, 12), probe(chosen, true, 14), probe(chosen - 1, false, 90)), chosen, true,
				"pool " + chosen + " per replica is the smallest that met the p99 objective of 50 ms at 750 rps.",
				new SloSearch.Model(MODEL, "test"), new SloSearch.Scaling(samples, truth, 0.25, 0.8));
	}

	private static SloSearch.Probe probe(int pool, boolean meets, double p99Ms) {
		return new SloSearch.Probe(pool, meets, p99Ms, new Interval(p99Ms * 0.8, p99Ms * 1.2),
				meets ? "within" : "fails", List.of(window(pool, p99Ms, p99Ms * 1.2, meets ? 0 : 5)));
	}

	private static SweepResults results(SloSearch search) {
		return new SweepResults(Instant.parse("2026-11-24T10:00:00Z"), "slo", RecommenderTests.HOST, DATABASE, 50,
				"read (GET /roles)", List.of())
			.withSlo(search);
	}

	/** One window of one instance at 750 rps for 10 s. */
	static Point window(int poolSize, double p99Ms, double p99HighMs, long timeouts) {
		long samples = 7500;
		Latency latency = new Latency(p99Ms / 3, p99Ms / 4, p99Ms / 2, p99Ms, p99Ms * 2, p99Ms * 3,
				new Interval(p99Ms / 4, p99Ms / 2), new Interval(p99Ms * 0.8, p99HighMs));
		Pool pool = new Pool(List.of(poolSize), Math.min(poolSize, 3), (timeouts > 0) ? 50 : 0, 0.5, 1.0, timeouts, 20);
		return Point.builder()
			.topology("single")
			.poolSize(poolSize)
			.rateRps(750)
			.arrivals("random")
			.warmupSeconds(2)
			.durationSeconds(10)
			.achievedRps(750)
			.samples(samples)
			.errors(timeouts)
			.statusCounts(Map.of("200", samples - timeouts))
			.latency(latency)
			.failedMaxMs(0)
			.pool(pool)
			.loadGeneratorCpuCores(0.4)
			.build();
	}

}
