package org.poollab.bench.deciding;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.report.Header;
import org.poollab.bench.report.Report;
import org.poollab.bench.report.ReportMain;
import org.poollab.bench.results.Confirmation;
import org.poollab.bench.results.Interval;
import org.poollab.bench.results.Latency;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Pool;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.SweepResults;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The verdict as a set and a choice, where every cell carries a p99 interval (issue: "One
 * answer, run after run").
 */
public class DecisionTests {

	private static final double OBJECTIVE_MS = 100;

	@Test
	void indistinguishablePoolsLeaveTheChoiceToTheSmallest() {
		// 5.2 [4.8-5.6] vs 5 [4.6-5.4]: the difference's 90 % interval, 0.2 ± 0.5 ms,
		// lies inside the 5 ms margin (the best p99 bounds a tenth of the objective)
		Recommendation recommendation = recommend(cell(2, 1000, 5.2, 4.8, 5.6), cell(5, 1000, 5, 4.6, 5.4),
				cell(10, 1000, 30, 25, 40));

		assertThat(recommendation.verdict()).isEqualTo(Recommendation.Verdict.CHOSEN);
		assertThat(recommendation.poolSize()).hasValue(2);
		assertThat(recommendation.summary()).contains(
				"pools 2 and 5 are indistinguishable from the best (pool 5, p99 5 [4.6–5.4] ms): the 90 % interval of "
						+ "each difference lies within ±5 ms (the equivalence margin",
				"The choice is pool 2, the smallest of them", "the decision picks 2 in");
	}

	@Test
	void aWideIntervalIsNotSettledAndThePoolThatMeasuredBetterIsTheChoice() {
		// 6 [1-14] vs 5 [4-7]: the difference's interval holds 0, but it is far wider
		// than
		// the 5 ms margin: neither the same nor told apart
		Recommendation recommendation = recommend(cell(2, 1000, 6, 1, 14), cell(5, 1000, 5, 4, 7),
				cell(10, 1000, 30, 25, 40));

		assertThat(recommendation.poolSize()).hasValue(5);
		assertThat(recommendation.summary()).contains("Not settled: pool 2 (p99 6 [1–14] ms)",
				"so the choice takes the pool that measured better");
	}

	@Test
	void aPoolToldApartByItsIntervalIsTheChoice() {
		Recommendation recommendation = recommend(cell(2, 1000, 40, 35, 45), cell(5, 1000, 8, 7, 9),
				cell(10, 1000, 25, 22, 28));

		assertThat(recommendation.poolSize()).hasValue(5);
		assertThat(recommendation.summary())
			.contains("pool 5 has the best p99 (8 [7–9] ms), told apart from every other pool", "picks 5 in 100 %");
		assertThat(recommendation.caveats()).noneMatch((caveat) -> caveat.contains("not settled"));
	}

	@Test
	void theEquivalenceMarginIsAFifthOfTheObjectiveBoundedByTheBestP99() {
		assertThat(Decision.equivalenceMarginMs(50, OBJECTIVE_MS)).as("a fifth of 100 ms").isEqualTo(20);
		assertThat(Decision.equivalenceMarginMs(6, OBJECTIVE_MS)).as("bounded by the best p99, 6 ms").isEqualTo(6);
		assertThat(Decision.equivalenceMarginMs(5, 1000)).as("a loose objective: still the best p99, 5 ms")
			.isEqualTo(5);
		assertThat(Decision.equivalenceMarginMs(1, 1000)).as("floored at 2 ms").isEqualTo(2);
		assertThat(Decision.equivalenceMarginMs(50, 0)).as("no objective: the best p99").isEqualTo(50);
		// the default question's pools 10 and 50 at 400 rps as a default run measured
		// them
		// (p99 31 [21–41] and 21 [19–26.1] ms): 10 ms apart, shown within a fifth of the
		// 100 ms objective, though not within a tenth
		double tenMs = (41 - 21) / (2 * Cell.Z95);
		double fiftyMs = (26.1 - 19) / (2 * Cell.Z95);
		assertThat(Decision.equivalent(10, tenMs, fiftyMs, Decision.equivalenceMarginMs(21, OBJECTIVE_MS))).isTrue();
		assertThat(Decision.equivalent(10, tenMs, fiftyMs, 10)).isFalse();
		// 8 ms apart with narrow intervals: more than a 1.2 ms margin allows, and told
		// apart
		assertThat(Decision.equivalent(8, 0.2, 0.2, 1.2)).isFalse();
		assertThat(Decision.toldApart(8, 0.2, 0.2, 1.2)).isTrue();
		// 1.645 x sqrt(0.08) = 0.47 ms: 0.5 ± 0.47 lies inside ± 1 ms
		assertThat(Decision.equivalent(0.5, 0.2, 0.2, 1)).isTrue();
		// 1 ms apart with errors of 3 ms: neither
		assertThat(Decision.equivalent(1, 3, 3, 5)).isFalse();
		assertThat(Decision.toldApart(1, 3, 3, 5)).isFalse();
		assertThat(recommend(cell(2, 1000, 14, 13.5, 14.5), cell(5, 1000, 6, 5.5, 6.5)).poolSize()).hasValue(5);
	}

	@Test
	void aLargerPoolThatFailedTheRateDoesNotRuleOutSmallerOnesClearOfTheObjective() {
		// Until issue 35 pool 10's failure ruled 2 and 5 out ("neither is safe, the best
		// stays": 5). Both hold the 100 ms objective with room to spare, so pool 10's
		// collapse is its own (the far side of the knee), not doubt about them.
		Point failing = RecommenderTests
			.withOutcome(withInterval(RecommenderTests.point("single", 10, 1000, 1000, 400, 3000), 2500, 3500), "ok");
		Recommendation recommendation = recommend(cell(2, 1000, 5.2, 4.8, 5.6), cell(5, 1000, 5, 4.6, 5.4), failing);

		assertThat(recommendation.poolSize()).as("2 and 5 tie, both clear of the objective: the smaller").hasValue(2);
		assertThat(recommendation.summary()).contains("The choice is pool 2, the smallest of them",
				"Past the knee, too large: 10 (failed: 400 pool timeouts");
	}

	@Test
	void aHoldTooCloseToTheObjectiveIsStillRuledOutByALargerPoolThatFailed() {
		// At 2000 rps pools 2 and 5 held at 90-odd ms against the 100 ms objective while
		// pool 10 failed at 104: the box is at its edge there, and a hold that close may
		// be
		// a lucky window. The rate is decided where every such doubt is gone.
		Recommendation recommendation = recommend(cell(2, 1000, 7.2, 6.8, 7.6), cell(5, 1000, 7, 6.6, 7.4),
				cell(10, 1000, 7, 6.6, 7.4), cell(2, 2000, 92, 86, 98), cell(5, 2000, 90, 85, 95),
				cell(10, 2000, 104, 96, 112));

		assertThat(recommendation.decidingRateRps()).hasValue(1000);
		assertThat(recommendation.poolSize()).hasValue(2);
		TopologyGrid grid = TopologyGrid.of("single", Limits.DEFAULTS, List.of(cell(5, 2000, 90, 85, 95)),
				OBJECTIVE_MS);
		assertThat(Decision.clearOfTheObjective(grid.cells().get(0))).as("10 ms under: within 10 % of 100 ms")
			.isFalse();
	}

	@Test
	void aSingleNoisyFailureOfALargerPoolDoesNotRuleOutTheSmallerPoolsThatHold() {
		// Pool 10 failed on 90 pool timeouts (0.3 %) with the same p99 as its neighbours,
		// and pool 20 above it held: noise in one cell. Before issue 35 it ruled out 2
		// and 5, and the choice went to 20.
		Point noisy = withInterval(RecommenderTests.point("single", 10, 1000, 1000, 90, 20), 17, 23);
		Recommendation recommendation = recommend(cell(2, 1000, 19.5, 18.5, 20.5), cell(5, 1000, 19, 18, 20), noisy,
				cell(20, 1000, 19, 18, 20));

		assertThat(recommendation.decidingRateRps()).hasValue(1000);
		assertThat(recommendation.poolSize()).hasValue(2);
		assertThat(recommendation.summary())
			.contains("pools 2, 5 and 20 are indistinguishable", "Did not sustain it: pool 10 failed (90 pool timeouts")
			.doesNotContain("knee");
	}

	@Test
	void anUnderstatedCellDoesNotVote() {
		// pool 2's p99 of 3 ms came from a generator 14 ms behind: it would win, and may
		// not
		Point understated = RecommenderTests.withStartLag(cell(2, 1000, 3, 2.5, 3.5), 14, 1000);
		Recommendation recommendation = recommend(understated, cell(5, 1000, 6.2, 5.9, 6.5),
				cell(10, 1000, 6, 5.7, 6.3));

		assertThat(recommendation.poolSize()).hasValue(5);
		assertThat(recommendation.summary()).contains("pools 5 and 10 are indistinguishable",
				"Left out: pool 2, the load generator fell behind by up to 14 ms");
	}

	@Test
	void anUnsettledChoiceSaysHowOftenEachPoolWins() {
		// 0.1 ms apart, each ± 1.5 ms: the 90 % interval of the difference, 0.1 ± 1.8
		// ms, just fits the 2 ms margin (its floor: the best p99 is 2 ms), so whether 2
		// is
		// shown equivalent (and chosen) or only the better measured one stands depends on
		// the draw
		Recommendation recommendation = recommend(cell(2, 1000, 2.1, 0.6, 3.6), cell(5, 1000, 2, 0.5, 3.5));

		assertThat(recommendation.caveats()).anySatisfy((caveat) -> assertThat(caveat)
			.startsWith("The choice is not settled: redone on p99s drawn from the intervals"));
		Decision decision = Decision
			.of(TopologyGrid.of("single", Limits.DEFAULTS,
					List.of(cell(2, 1000, 2.1, 0.6, 3.6), cell(5, 1000, 2, 0.5, 3.5)), OBJECTIVE_MS)
				.cells(), List.of(), OBJECTIVE_MS)
			.orElseThrow();
		assertThat(decision.picks().values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1.0,
				org.assertj.core.data.Offset.offset(1e-9));
		assertThat(decision.chosen().poolSize()).isEqualTo(2);
		assertThat(decision.picks().get(5)).isBetween(0.2, 0.5);
	}

	@Test
	void aPoolNotSettledAgainstTheBestIsMeasuredAgainEvenWhenTheRedoneDecisionIsSure() {
		// pool 2 (25 [10-60]) can be neither shown within pool 5's (10 [9-11]) 10 ms
		// margin nor told apart from it: pool 5, which measured better, is picked in
		// most draws, yet pool 2 is what more repeats could settle
		List<Point> points = List.of(cell(2, 1000, 25, 10, 60), cell(5, 1000, 10, 9, 11));
		SweepResults results = new SweepResults(Instant.parse("2026-11-29T01:00:00Z"), "test", RecommenderTests.HOST,
				RecommenderTests.DATABASE, 0, null, new ArrayList<>(points));

		assertThat(recommend(points.toArray(Point[]::new)).unsettled()).containsExactly(2);
		assertThat(Decisions.unsettled(results, "single")).hasValueSatisfying((unsettled) -> {
			assertThat(unsettled.probability()).isGreaterThanOrEqualTo(0.8);
			assertThat(unsettled.notSettled()).containsExactly(2);
			assertThat(unsettled.pools()).contains(5, 2);
		});
	}

	@Test
	void resultsWithoutIntervalsKeepTheFixedMargin() {
		assertThat(
				Decision.of(
						TopologyGrid.of("single", Limits.DEFAULTS,
								List.of(RecommenderTests.point("single", 2, 1000, 6),
										RecommenderTests.point("single", 5, 1000, 5)),
								OBJECTIVE_MS)
							.cells(),
						List.of(), OBJECTIVE_MS))
			.isEmpty();
	}

	/**
	 * Issue 35's hand-made run: each request also burned 1.4-2 ms of database CPU, one
	 * instance, Poisson arrivals, pools 1, 2, 4, 8 and 32 at 400 and 600 rps, objective
	 * 100 ms. At 400 rps p99 was 2029, 21, 42, 104 (not sustained) and 60 ms; at 600 rps
	 * every pool was past the box. The rule that needed every larger pool to sustain the
	 * rate ruled out 2 and 4 for pool 8's failure and chose 32.
	 */
	@Test
	void aUShapedCurveIsDecidedAroundTheBestAndTheReportNamesBothSidesOfTheKnee(@TempDir Path outputs)
			throws Exception {
		List<Point> points = new ArrayList<>(List.of(
				// pool, rate, sent, pool timeouts, p99 [95 % interval], mean hold,
				// acquire p99
				measured(1, 400, 399, 0, 2029, 1890, 2160, 2.4, 1900), measured(2, 400, 401, 0, 21, 18, 24, 2.6, 9),
				measured(4, 400, 400, 0, 42, 37, 48, 4.1, 1), measured(8, 400, 398, 0, 104, 93, 117, 9.5, 0.5),
				measured(32, 400, 400, 0, 60, 53, 68, 7.0, 0.5),
				measured(1, 600, 540, 1850, 4800, 4400, 5200, 2.5, 5000),
				measured(2, 600, 590, 0, 1460, 1240, 1690, 3.1, 1300),
				measured(4, 600, 596, 0, 1120, 960, 1290, 5.2, 620),
				measured(8, 600, 593, 0, 1630, 1390, 1880, 11.8, 9),
				measured(32, 600, 597, 0, 1050, 890, 1230, 9.9, 0.5)));

		String printed = report(outputs, points);
		Path run = outputs.resolve("latest");
		assertThat(printed).contains("single: maximum-pool-size 2 (picked in ",
				"At 400 rps, the highest rate at which a pool size sustained every repeat with its p99 clear of the "
						+ "objective or with every larger pool sustaining it too, pool 2 has the best p99 (21 [18–24] ms), "
						+ "told apart from every other pool by its 95 % interval. The choice is pool 2.",
				"Either side of the knee, too small: 1 (failed: p99 2029 ms above the 100 ms objective); "
						+ "too large: 4 (slower: p99 42 [37–48] ms), 8 (failed: p99 104 ms above the 100 ms objective) "
						+ "and 32 (slower: p99 60 [53–68] ms).")
			.doesNotContain("The choice is pool 32", "Did not sustain it");
		assertThat(Files.readString(run.resolve(Report.RECOMMENDED_YAML))).contains("maximum-pool-size: 2\n");
		String card = Files.readString(run.resolve(Report.MARKDOWN));
		assertThat(card).contains(
				"- **too small**: requests queue for a connection (acquire time), then get 503 "
						+ "after connection-timeout; here pool 1 at 400 rps: p99 2029 ms above the 100 ms objective",
				"- **too large**: worse at this rate than pool 2 (p99 21 [18–24] ms): 4 (slower: p99 42 [37–48] ms), "
						+ "8 (failed: p99 104 ms above the 100 ms objective) and 32 (slower: p99 60 [53–68] ms); "
						+ "every instance keeps its connections open")
			.doesNotContain("no faster at this rate");
	}

	/**
	 * Two repeats at 180 rps, shaped after the second quiet contention run of 3b0faed
	 * (measurements page: pool 64 held 70 ms in one window and missed the objective at
	 * 135 ms in the next). The p99s of pools 1, 2 and 4 are that run's; the intervals are
	 * the fixture's. Pool 64 is given a wider scatter (40, then 170 ms) so that the case
	 * is clear, not borderline: it failed by its median (105 ms), held in one repeat, and
	 * its p99 cannot be told from the best's once the scatter between repeats is counted,
	 * so it is not shown too large. Failing both repeats, it is.
	 */
	@Test
	void aLargePoolIsTooLargeOnlyWhenItsRepeatsAgree(@TempDir Path outputs) throws Exception {
		String printed = report(outputs.resolve("split"), contentionRun(40, 170));
		assertThat(printed)
			.contains("single: maximum-pool-size 4 (picked in ", "Not settled: pool 2 (p99 51 [26.3–81.6] ms)",
					"Not shown too large: 64 failed 1 of 2 repeats (p99 40 and 170 ms) and is not measurably slower.")
			.doesNotContain("Past the knee", "Either side of the knee");
		assertThat(Files.readString(outputs.resolve("split").resolve("latest").resolve(Report.MARKDOWN)))
			.contains("- **too large**: not shown worse than pool 4 (p99 38 [25.5–52.9] ms): 64 failed 1 of 2 repeats "
					+ "(p99 40 and 170 ms) and is not measurably slower; every instance keeps");

		String agreed = report(outputs.resolve("agreed"), contentionRun(130, 140));
		assertThat(agreed).contains("single: maximum-pool-size 4 (picked in ",
				"Either side of the knee, too small: 1 (failed: p99 1457 ms above the 100 ms objective); too large: "
						+ "64 (failed: p99 135 ms above the 100 ms objective).")
			.doesNotContain("Not shown too large");
	}

	private static List<Point> contentionRun(double pool64FirstP99Ms, double pool64SecondP99Ms) {
		double[][] repeats = { { 1, 1573, 1341 }, { 2, 71, 31 }, { 4, 30, 46 },
				{ 64, pool64FirstP99Ms, pool64SecondP99Ms } };
		List<Point> points = new ArrayList<>();
		for (double[] row : repeats) {
			for (int repeat = 1; repeat <= 2; repeat++) {
				double p99Ms = row[repeat];
				Point point = measured((int) row[0], 180, 180, 0, p99Ms, 0.85 * p99Ms, 1.15 * p99Ms, 5.5, 1);
				points.add(point.toBuilder().repeat(repeat).build());
			}
		}
		return points;
	}

	private static String report(Path outputs, List<Point> points) throws Exception {
		SweepResults results = new SweepResults(Instant.parse("2026-11-27T20:08:00Z"), "test", RecommenderTests.HOST,
				RecommenderTests.DATABASE, OBJECTIVE_MS, null, points);
		ResultsStore store = ResultsStore.create(outputs, results.startedAt());
		store.write(results);
		ByteArrayOutputStream console = new ByteArrayOutputStream();
		ReportMain.run(store.directory(), new PrintStream(console, true, StandardCharsets.UTF_8));
		return console.toString(StandardCharsets.UTF_8);
	}

	@Test
	void whenNoPoolAroundTheBestCanBeTheChoiceItComesFromThoseNearestToIt() {
		// Pool 2 is the best, told apart from every other, but its confirmation refuted
		// it. Pool 1 is clear of the objective too, and smaller, but told apart from 4
		// as well: the choice is decided again among the pools that can be it, and 4 is
		// the best of those. (The smallest eligible pool anywhere, as before, was 1.)
		TopologyGrid grid = TopologyGrid.of(
				"single", Limits.DEFAULTS, List.of(cell(1, 400, 60, 55, 65), cell(2, 400, 21, 18, 24),
						cell(4, 400, 42, 37, 48), withInterval(RecommenderTests.point("single", 8, 400, 104), 93, 117)),
				OBJECTIVE_MS);
		Recommendation recommendation = Recommender.recommend(grid, RecommenderTests.HOST, RecommenderTests.DATABASE,
				Map.of(400, Set.of(2)));

		assertThat(recommendation.poolSize()).hasValue(4);
		assertThat(recommendation.summary()).contains("pool 2 has the best p99 (21 [18–24] ms), told apart",
				"It cannot be the choice (pool 2: refuted by its confirmation run), so the choice is pool 4 "
						+ "(p99 42 [37–48] ms), the smallest of the pools indistinguishable from the best of those "
						+ "that can be.",
				"Either side of the knee, too small: 1 (slower: p99 60 [55–65] ms); too large: 8 (failed: p99 104 ms "
						+ "above the 100 ms objective).");
	}

	/**
	 * One window of issue 35's run as results.json holds it: Poisson arrivals, 30 s,
	 * HikariCP's figures.
	 */
	/**
	 * The quiet contention run of ed0b7f8 (measurements.md), with narrower intervals at
	 * 300 rps than that run measured so that pools 2-64 are shown equivalent there; at
	 * 400 rps 2 and 4 held while 16 and 64 missed the objective, and the confirmations
	 * refuted 2 and 4 there, so the answer was decided at 300. The card's "too large"
	 * line quotes 400 rps instead of a bare "no faster".
	 */
	@Test
	void theTooLargeLineQuotesAHigherRateWhereLargerPoolsFailedAndTheAnswerHeld(@TempDir Path outputs)
			throws Exception {
		List<Point> points = List.of(measured(1, 300, 300, 0, 1609, 1500, 1700, 2.5, 1500),
				measured(2, 300, 300, 0, 66, 62, 70, 2.5, 2), measured(4, 300, 300, 0, 65, 61, 69, 2.5, 1),
				measured(16, 300, 300, 0, 65, 61, 69, 2.5, 0.5), measured(64, 300, 300, 0, 64, 60, 68, 2.5, 0.5),
				measured(1, 400, 400, 0, 3345, 3200, 3500, 2.5, 3000), measured(2, 400, 400, 0, 64, 37, 69, 2.7, 3),
				measured(4, 400, 400, 0, 60, 41, 103, 2.7, 1), measured(16, 400, 400, 0, 128, 55, 175, 2.7, 0.5),
				measured(64, 400, 400, 0, 161, 63, 174, 2.7, 0.5));
		SweepResults grid = new SweepResults(Instant.parse("2026-11-27T04:19:00Z"), "test", RecommenderTests.HOST,
				RecommenderTests.DATABASE, OBJECTIVE_MS, null, points);
		SweepResults results = grid.withConfirmations(List.of(
				new Confirmation("single", "spring: {}\n", Map.of("maximum-pool-size", "2"), List.of(),
						RecommenderTests.point("single", 2, 400, 400, 20, 900)),
				new Confirmation("single", "spring: {}\n", Map.of("maximum-pool-size", "4"), List.of(),
						RecommenderTests.point("single", 4, 400, 400, 20, 900))));
		Recommendation recommendation = Decisions.recommend(results, TopologyGrid.of(results).get(0));
		assertThat(recommendation.poolSize()).hasValue(2);
		assertThat(recommendation.decidingRateRps()).hasValue(300);
		ResultsStore store = ResultsStore.create(outputs, results.startedAt());
		store.write(results);
		ReportMain.run(store.directory(), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
		assertThat(Files.readString(store.directory().resolve(Report.MARKDOWN)))
			.contains("- **too large**: no faster at this rate (pools up to 64 are indistinguishable), but at 400 rps, "
					+ "where pool 2 held (p99 64 [37–69] ms), worse: 16 (failed: p99 128 ms above the 100 ms objective) "
					+ "and 64 (failed: p99 161 ms above the 100 ms objective), every instance keeps its connections open");
	}

	private static Point measured(int poolSize, int rateRps, double sentRps, long timeouts, double p99Ms, double lowMs,
			double highMs, double holdMs, double acquireP99Ms) {
		Point point = RecommenderTests.point("single", poolSize, rateRps, sentRps, timeouts, p99Ms);
		// Little's law: connections busy on average, and more at the peaks of random
		// arrivals; a pool queues when they exceed it.
		double busy = sentRps * holdMs / 1000;
		int peakActive = Math.min(poolSize, (int) Math.ceil(3 * busy));
		Pool pool = new Pool(List.of(poolSize), peakActive, (acquireP99Ms > 5) ? (int) Math.round(sentRps / 10) : 0,
				acquireP99Ms, holdMs, timeouts, 60);
		return withInterval(point.toBuilder().arrivals("random").pool(pool).build(), lowMs, highMs);
	}

	private static Recommendation recommend(Point... points) {
		TopologyGrid grid = TopologyGrid.of("single", Limits.DEFAULTS, new ArrayList<>(List.of(points)), OBJECTIVE_MS);
		return Recommender.recommend(grid, RecommenderTests.HOST, RecommenderTests.DATABASE);
	}

	@Test
	void repeatsNarrowTheErrorTheDecisionUsesWhileTheShownIntervalSpansThem() {
		double z = Cell.Z95;
		// One window: its interval as if normal, 2 x 1.96 wide -> 1 ms.
		Cell one = Cell.of(List.of(cell(5, 1000, 6, 6 - z, 6 + z)), OBJECTIVE_MS);
		assertThat(one.latency().p99StandardErrorMs().getAsDouble()).isCloseTo(1.0,
				org.assertj.core.data.Offset.offset(1e-9));
		// Three alike windows: the error of their mean, 1 / sqrt(3).
		Cell three = Cell.of(
				List.of(cell(5, 1000, 6, 6 - z, 6 + z), cell(5, 1000, 6, 6 - z, 6 + z), cell(5, 1000, 6, 6 - z, 6 + z)),
				OBJECTIVE_MS);
		assertThat(three.latency().p99StandardErrorMs().getAsDouble()).isCloseTo(1 / Math.sqrt(3),
				org.assertj.core.data.Offset.offset(1e-9));
		// Repeats scattered wider than their own intervals (drift): the scatter counts.
		// p99s 4, 6, 8: variance 4, so sqrt(4 / 3).
		Cell drifting = Cell.of(
				List.of(cell(5, 1000, 4, 4 - z, 4 + z), cell(5, 1000, 6, 6 - z, 6 + z), cell(5, 1000, 8, 8 - z, 8 + z)),
				OBJECTIVE_MS);
		assertThat(drifting.latency().p99StandardErrorMs().getAsDouble()).isCloseTo(Math.sqrt(4.0 / 3),
				org.assertj.core.data.Offset.offset(1e-9));
		// The interval shown in the tables still spans every repeat's.
		assertThat(drifting.latency().p99Interval()).hasValueSatisfying((interval) -> {
			assertThat(interval.lowMs()).isEqualTo(4 - z);
			assertThat(interval.highMs()).isEqualTo(8 + z);
		});
	}

	@Test
	void anUnsettledDecisionNamesTheCellsThatDecideItAndRepeatsSettleIt() {
		// No objective, a best p99 of 2 ms: the margin is its 2 ms floor. Pool 2 (2.1
		// [0.6-3.6]) is only just shown equivalent to pool 5 (2 [0.5-3.5]) and chosen; a
		// draw often cannot show it, and then the better measured one is picked.
		List<Point> points = new ArrayList<>(List.of(cell(2, 1000, 2.1, 0.6, 3.6), cell(5, 1000, 2, 0.5, 3.5),
				cell(10, 1000, 9, 8, 10), cell(2, 500, 3, 2, 4), cell(5, 500, 3, 2, 4), cell(10, 500, 3, 2, 4)));
		SweepResults results = new SweepResults(Instant.parse("2026-11-24T10:00:00Z"), "test", RecommenderTests.HOST,
				RecommenderTests.DATABASE, 0, null, points);

		Optional<Decisions.Unsettled> unsettled = Decisions.unsettled(results, "single");
		assertThat(unsettled).hasValueSatisfying((decision) -> {
			assertThat(decision.chosen()).isEqualTo(2);
			assertThat(decision.rateRps()).isEqualTo(1000);
			assertThat(decision.probability()).isLessThan(0.8);
			assertThat(decision.pools()).as("the choice and the pool picked instead, largest first")
				.containsExactly(5, 2);
		});

		// Four more repeats of each, alike: their errors fall by sqrt(5), the two are
		// shown equivalent in nearly every draw, and the decision settles on the smaller.
		for (int repeat = 0; repeat < 4; repeat++) {
			points.add(cell(2, 1000, 2.1, 0.6, 3.6));
			points.add(cell(5, 1000, 2, 0.5, 3.5));
		}
		assertThat(Decisions.unsettled(results, "single")).isEmpty();
		assertThat(Decisions.probability(results, "single").getAsDouble()).isGreaterThanOrEqualTo(0.8);
	}

	@Test
	void aPoolRefutedByItsConfirmationRunIsNotTheChoiceAndTheNextOneIs() throws Exception {
		// 1, 2 and 5 indistinguishable at 1000 rps (within the 1 ms margin).
		List<Point> points = new ArrayList<>(
				List.of(cell(1, 1000, 5.1, 4.9, 5.3), cell(2, 1000, 5, 4.8, 5.2), cell(5, 1000, 5, 4.8, 5.2)));
		SweepResults results = new SweepResults(Instant.parse("2026-11-24T10:00:00Z"), "test", RecommenderTests.HOST,
				RecommenderTests.DATABASE, OBJECTIVE_MS, null, points);
		assertThat(Decisions.toConfirm(results)).singleElement().extracting(Decisions.Choice::poolSize).isEqualTo(1);

		// Its confirmation: the block as pasted, Poisson arrivals, 20 pool timeouts.
		Point refuting = RecommenderTests.point("single", 1, 1000, 1000, 20, 920);
		SweepResults confirmed = confirmedBy(results, refuting);

		List<Decisions.Choice> next = Decisions.toConfirm(confirmed);
		assertThat(next).singleElement().extracting(Decisions.Choice::poolSize).isEqualTo(2);
		Path run = Files.createTempDirectory("refuted");
		Recommendation recommendation = Report.write(confirmed, run).get(0);
		assertThat(recommendation.poolSize()).hasValue(2);
		assertThat(recommendation.summary()).contains("Refuted by its confirmation run", "pool 1");
		assertThat(Files.readString(run.resolve("recommended-application.yml")).replaceAll("\\n\\s*#\\s+", " "))
			.contains("NOT confirmed (2026-11-24, embedded PostgreSQL 17.11, pool 1:", "maximum-pool-size: 2")
			.contains("pool 2 at 1000 rps, the answer after those, was not run as pasted");

		// A confirmation the generator could not hold refutes nothing by its own
		// figures...
		Point unheld = RecommenderTests.withOutcome(RecommenderTests.point("single", 1, 1000, 1000, 0, 920),
				"generator-bound: JMeter sent 900 rps for 1000");
		SweepResults noVerdict = confirmedBy(results, unheld);
		assertThat(Decisions.toConfirm(noVerdict)).singleElement().extracting(Decisions.Choice::poolSize).isEqualTo(1);
		// ... but the instances' own evidence does: requests timed out waiting for a
		// connection, whatever the generator managed.
		Point saturated = RecommenderTests.withOutcome(refuting, "generator-bound: JMeter sent 900 rps for 1000");
		SweepResults refutedAnyway = confirmedBy(results, saturated);
		assertThat(Decisions.toConfirm(refutedAnyway)).singleElement()
			.extracting(Decisions.Choice::poolSize)
			.isEqualTo(2);
		assertThat(Decisions.confirmationLine(refutedAnyway, "single")).startsWith("NOT confirmed (")
			.contains("the instances themselves saw the service saturated", "20 connection timeout(s)");
	}

	@Test
	void whenEveryPoolTheRuleCouldChooseIsRefutedNoPoolIsRecommended() throws Exception {
		// Pools 1 and 3 indistinguishable at 100 rps; the confirmation of 1 and then of 3
		// missed the objective as pasted (a busy machine, say): no pool is left to paste.
		List<Point> points = List.of(cell(1, 100, 6, 5, 7), cell(3, 100, 5, 4, 6));
		SweepResults results = new SweepResults(Instant.parse("2026-11-24T10:00:00Z"), "test", RecommenderTests.HOST,
				RecommenderTests.DATABASE, OBJECTIVE_MS, null, points);
		Point refutingOne = RecommenderTests.point("single", 1, 100, 100, 20, 920);
		Point refutingThree = RecommenderTests.point("single", 3, 100, 100, 20, 920);
		SweepResults afterOne = confirmedBy(results, refutingOne);
		assertThat(Decisions.toConfirm(afterOne)).singleElement().extracting(Decisions.Choice::poolSize).isEqualTo(3);
		SweepResults afterBoth = afterOne
			.withConfirmations(List.of(afterOne.confirmations().get(0), new Confirmation("single", "spring: {}\n",
					Map.of("maximum-pool-size", "3"), List.of(), refutingThree)));

		Recommendation recommendation = Decisions.recommend(afterBoth, TopologyGrid.of(afterBoth).get(0));
		assertThat(recommendation.verdict()).isEqualTo(Recommendation.Verdict.REFUTED);
		assertThat(recommendation.verdict().conclusive()).isFalse();
		assertThat(recommendation.poolSize()).isEmpty();
		assertThat(recommendation.summary()).contains("No rate can decide", "refuted pool 1, pool 3 at 100 rps",
				"No maximum-pool-size is recommended");
		assertThat(Header.headline(recommendation)).startsWith("no conclusion: the confirmation runs refuted");
		assertThat(Decisions.toConfirm(afterBoth)).as("nothing left to confirm").isEmpty();
		Path run = Files.createTempDirectory("refuted-all");
		Report.write(afterBoth, run);
		// The yml falls back to the starting formula, labelled as not measured, and
		// quotes both refutations.
		assertThat(Files.readString(run.resolve("recommended-application.yml")).replaceAll("\\n\\s*#\\s+", " "))
			.contains("NOT MEASURED (no conclusion: the confirmation runs refuted every pool the rule could choose)")
			.contains("NOT confirmed (2026-11-24, embedded PostgreSQL 17.11, pool 1:")
			.contains("NOT confirmed (2026-11-24, embedded PostgreSQL 17.11, pool 3:");
	}

	@Test
	void aRepeatTheGeneratorFellBehindInCountsAgainstItsPoolOnlyByTheInstancesEvidence() {
		// At 2000 rps pool 5 sustained once; in its second repeat JMeter fell behind
		// while
		// the instances timed out waiting for connections: a failure, not a gap. Pool
		// 10's
		// generator-bound window without such evidence says nothing and stays out.
		Point lucky = cell(5, 2000, 8, 7, 9);
		Point saturated = RecommenderTests.withOutcome(
				withInterval(RecommenderTests.point("single", 5, 2000, 1900, 30, 900), 800, 1000),
				"generator-bound: JMeter sent late");
		Point silent = RecommenderTests.withOutcome(
				withInterval(RecommenderTests.point("single", 10, 2000, 20), 15, 25),
				"generator-bound: JMeter sent late");
		TopologyGrid grid = TopologyGrid.of("single", Limits.DEFAULTS, List.of(cell(2, 1000, 5, 4, 6),
				cell(5, 1000, 5, 4, 6), cell(10, 1000, 5, 4, 6), lucky, saturated, silent), OBJECTIVE_MS);

		assertThat(grid.excluded()).containsExactly(silent);
		assertThat(grid.cell(5, 2000).orElseThrow().sustained()).isFalse();
		assertThat(CellText.shortfall(grid.cell(5, 2000).orElseThrow()))
			.contains("the load generator fell behind while the instances themselves saw saturation");
		Recommendation recommendation = Recommender.recommend(grid, RecommenderTests.HOST, RecommenderTests.DATABASE);
		assertThat(recommendation.decidingRateRps()).as("one lucky repeat at 2000 rps does not decide").hasValue(1000);
		assertThat(recommendation.poolSize()).hasValue(2);
		assertThat(recommendation.summary()).contains("At 1000 rps, the highest rate at which a pool size sustained "
				+ "every repeat with its p99 clear of the objective or with every larger pool sustaining it too");
	}

	@Test
	void aDecisionFromIntervalsSaysHowOftenItPicksTheChoiceInsteadOfABareProvisional() {
		// One run per point, but every cell has its interval: the probability says how
		// settled the choice is.
		TopologyGrid grid = TopologyGrid.of("single", Limits.DEFAULTS,
				List.of(cell(2, 1000, 5, 4, 6), cell(5, 1000, 5, 4, 6), cell(10, 1000, 5, 4, 6)), OBJECTIVE_MS);
		Recommendation recommendation = Recommender.recommend(grid, RecommenderTests.HOST, RecommenderTests.DATABASE);

		assertThat(recommendation.poolSize()).hasValue(2);
		assertThat(recommendation.probability()).isPresent();
		assertThat(recommendation.provisional()).isFalse();
		assertThat(recommendation.summary()).doesNotContain(Recommendation.PROVISIONAL);
		assertThat(Header.headline(recommendation))
			.matches("maximum-pool-size 2 \\(picked in \\d+ % of redrawn decisions\\)");
	}

	@Test
	void poolsRefutedAtTheTopRateMoveTheDecisionToTheRateBelowWhereTheyMayStillBeChosen() throws Exception {
		List<Point> points = List.of(cell(1, 1000, 4, 3, 5), cell(2, 1000, 4, 3, 5), cell(1, 2000, 6, 5, 7),
				cell(2, 2000, 6, 5, 7));
		SweepResults results = new SweepResults(Instant.parse("2026-11-24T10:00:00Z"), "test", RecommenderTests.HOST,
				RecommenderTests.DATABASE, OBJECTIVE_MS, null, points);
		assertThat(Decisions.toConfirm(results)).singleElement()
			.satisfies((block) -> assertThat(List.of(block.poolSize(), block.rateRps())).containsExactly(1, 2000));

		// Both pools' blocks failed at 2000 rps as pasted (pool timeouts): neither can be
		// the choice there, and no other pool was measured at that rate.
		SweepResults refuted = results
			.withConfirmations(List.of(confirmation(RecommenderTests.point("single", 1, 2000, 2000, 20, 920)),
					confirmation(RecommenderTests.point("single", 2, 2000, 2000, 20, 920))));
		List<Decisions.Choice> next = Decisions.toConfirm(refuted);
		assertThat(next).singleElement()
			.satisfies((block) -> assertThat(List.of(block.poolSize(), block.rateRps())).containsExactly(1, 1000));
		Recommendation recommendation = Report.write(refuted, Files.createTempDirectory("rate")).get(0);
		assertThat(recommendation.caveats()).contains("Refuted by confirmation runs (started as pasted, Poisson "
				+ "arrivals): pool 1, pool 2 at 2000 rps, so the answer is decided at 1000 rps.");
	}

	private static Confirmation confirmation(Point window) {
		return new Confirmation("single", "spring: {}\n",
				Map.of("maximum-pool-size", Integer.toString(window.poolSize())), List.of(), window);
	}

	/** The results with one confirmation run of pool 1's block, measured as given. */
	private static SweepResults confirmedBy(SweepResults results, Point window) {
		return results.withConfirmations(List
			.of(new Confirmation("single", "spring: {}\n", Map.of("maximum-pool-size", "1"), List.of(), window)));
	}

	private static Point cell(int poolSize, int rateRps, double p99Ms, double lowMs, double highMs) {
		return withInterval(RecommenderTests.point("single", poolSize, rateRps, p99Ms), lowMs, highMs);
	}

	public static Point withInterval(Point p, double lowMs, double highMs) {
		Latency l = p.latency();
		return p.withLatency(new Latency(l.meanMs(), l.p50Ms(), l.p95Ms(), l.p99Ms(), l.p999Ms(), l.maxMs(),
				new Interval(0.9 * l.p50Ms(), 1.1 * l.p50Ms()), new Interval(lowMs, highMs)));
	}

}
