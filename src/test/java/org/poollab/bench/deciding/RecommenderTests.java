package org.poollab.bench.deciding;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.poollab.bench.deciding.Recommendation.Verdict;
import org.poollab.bench.report.Header;
import org.poollab.bench.results.DatabaseFacts;
import org.poollab.bench.results.Host;
import org.poollab.bench.results.Latency;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Pool;
import org.poollab.bench.results.SweepResults;

import static org.assertj.core.api.Assertions.assertThat;

public class RecommenderTests {

	public static final Host HOST = new Host(2, "JMeter 5.6.3 OpenModelThreadGroup");

	public static final DatabaseFacts DATABASE = new DatabaseFacts("embedded", DatabaseFacts.DEFAULT_VENDOR,
			"jdbc:postgresql://localhost:5432/roles", "17.11", 100, 3);

	@Test
	void withoutIntervalsAPoolRefutedByItsConfirmationIsNotTheChoiceAndTheNextOneIs() {
		// No intervals: the margin (1 ms) decides, 1 and 3 within it, 10 not; 1 was
		// refuted as pasted.
		TopologyGrid grid = TopologyGrid.of("single", Limits.DEFAULTS,
				List.of(point("single", 1, 100, 6), point("single", 3, 100, 5.5), point("single", 10, 100, 20)), 100);
		assertThat(Recommender.recommend(grid, HOST, DATABASE).poolSize()).hasValue(1);

		Recommendation recommendation = Recommender.recommend(grid, HOST, DATABASE, Map.of(100, Set.of(1)));
		assertThat(recommendation.verdict()).isEqualTo(Verdict.CHOSEN);
		assertThat(recommendation.poolSize()).hasValue(3);

		Recommendation both = Recommender.recommend(grid, HOST, DATABASE, Map.of(100, Set.of(1, 3, 10)));
		assertThat(both.verdict()).isEqualTo(Verdict.REFUTED);
		assertThat(both.poolSize()).isEmpty();
	}

	@Test
	void twoPoolsRefutedAtARateMoveTheDecisionToTheRateBelow() {
		// No intervals: the margin decides. At 400 rps pool 1 is slower than the rest, at
		// 300 rps pool 16 is.
		List<Point> points = new ArrayList<>();
		double[] at300 = { 20, 20, 20, 40 };
		double[] at400 = { 30, 20, 20, 20 };
		int[] pools = { 1, 2, 4, 16 };
		for (int i = 0; i < pools.length; i++) {
			points.add(point("multi", pools[i], 300, at300[i]));
			points.add(point("multi", pools[i], 400, at400[i]));
		}
		TopologyGrid grid = TopologyGrid.of("multi", Limits.DEFAULTS, points, 100);
		Recommendation unrefuted = Recommender.recommend(grid, HOST, DATABASE, Map.of());
		assertThat(unrefuted.decidingRateRps()).hasValue(400);
		assertThat(unrefuted.poolSize()).hasValue(2);

		Recommendation oneRefuted = Recommender.recommend(grid, HOST, DATABASE, Map.of(400, Set.of(2)));
		assertThat(oneRefuted.decidingRateRps()).hasValue(400);
		assertThat(oneRefuted.poolSize()).hasValue(4);

		Recommendation twoRefuted = Recommender.recommend(grid, HOST, DATABASE, Map.of(400, Set.of(2, 4)));
		assertThat(twoRefuted.verdict()).isEqualTo(Verdict.CHOSEN);
		assertThat(twoRefuted.decidingRateRps()).hasValue(300);
		assertThat(twoRefuted.poolSize()).hasValue(1);
		assertThat(twoRefuted.caveats()).anyMatch((caveat) -> caveat.contains("pool 2, pool 4 at 400 rps")
				&& caveat.contains("so the answer is decided at 300 rps"));
	}

	@Test
	void picksTheKneeAtPoolFive() {
		List<Point> points = new ArrayList<>();
		double[] p99AtTopRateMs = { 40, 20, 5, 5, 5 };
		int[] pools = { 1, 2, 5, 10, 20 };
		for (int i = 0; i < pools.length; i++) {
			points.add(point("single", pools[i], 500, 3));
			points.add(point("single", pools[i], 1000, p99AtTopRateMs[i]));
		}
		points.add(point("single", 5, 2000, 900, 1400, 25));

		Recommendation recommendation = recommend(points);

		assertThat(recommendation.verdict()).isEqualTo(Verdict.CHOSEN);
		assertThat(recommendation.poolSize()).hasValue(5);
		assertThat(recommendation.decidingRateRps()).hasValue(1000);
		assertThat(recommendation.summary()).contains("At 1000 rps", "pool 5 is the smallest with the best p99 (5 ms)",
				"pool 1 p99 40 ms", "pool 2 p99 20 ms");
	}

	@Test
	void namesADeadInstanceAsASmallerPoolThatFailed() {
		List<Point> points = new ArrayList<>();
		// up to its death, pool 1 looked as fast as the others
		points.add(withOutcome(point("single", 1, 1000, 5), DIED_OF_OOM));
		points.add(point("single", 5, 1000, 5));
		points.add(point("single", 10, 1000, 5));

		Recommendation recommendation = recommend(points);

		assertThat(recommendation.verdict()).isEqualTo(Verdict.CHOSEN);
		assertThat(recommendation.poolSize()).hasValue(5);
		assertThat(recommendation.summary())
			.contains("Smaller pools at that rate: pool 1 died (OutOfMemoryError: Java heap space).");
		assertThat(recommendation.caveats())
			.anyMatch((caveat) -> caveat.startsWith("Pool 1 at 1000 rps: the instance died")
					&& caveat.contains("A result of the load, not missing data"))
			.noneMatch((caveat) -> caveat.contains("left out"));
	}

	@Test
	void oneDeadRepeatMeansThePoolSizeDidNotSustainTheRate() {
		List<Point> points = new ArrayList<>();
		for (int repeat = 1; repeat <= 3; repeat++) {
			points.add(repeat(point("single", 2, 1000, 20), repeat));
			// pool 5 is the fastest in every repeat that ran to the end
			Point five = repeat(point("single", 5, 1000, 4), repeat);
			points.add((repeat == 2) ? withOutcome(five, DIED_OF_OOM) : five);
			points.add(repeat(point("single", 10, 1000, 5), repeat));
		}

		Recommendation recommendation = recommend(points);

		assertThat(recommendation.verdict()).isEqualTo(Verdict.CHOSEN);
		assertThat(recommendation.poolSize()).hasValue(10);
		assertThat(recommendation.summary()).contains("pool 5 died in 1 of 3 repeats (OutOfMemoryError");
	}

	@Test
	void aVerdictOnOneRunPerPointIsProvisional() {
		List<Point> once = List.of(point("single", 2, 1000, 20), point("single", 5, 1000, 5));
		List<Point> thrice = new ArrayList<>();
		for (int repeat = 1; repeat <= 3; repeat++) {
			for (Point point : once) {
				thrice.add(repeat(point, repeat));
			}
		}

		Recommendation provisional = recommend(once);
		Recommendation confirmed = recommend(thrice);

		assertThat(provisional.poolSize()).hasValue(5);
		assertThat(provisional.provisional()).isTrue();
		assertThat(provisional.summary()).endsWith(Recommendation.PROVISIONAL)
			.contains("one run per point; confirm with -Dbench.repeats=3");
		assertThat(Header.headline(provisional)).isEqualTo("maximum-pool-size 5 (provisional)");
		assertThat(confirmed.poolSize()).hasValue(5);
		assertThat(confirmed.provisional()).isFalse();
		assertThat(confirmed.summary()).doesNotContain("Provisional");
	}

	@Test
	void usesTheSpreadBetweenRepeatsAsTheMarginWhenItIsWider() {
		List<Point> points = new ArrayList<>();
		double[] poolTwoP99Ms = { 6, 9, 7 };
		for (int repeat = 1; repeat <= 3; repeat++) {
			points.add(repeat(point("single", 1, 1000, 30), repeat));
			points.add(repeat(point("single", 2, 1000, poolTwoP99Ms[repeat - 1]), repeat));
			points.add(repeat(point("single", 5, 1000, 5), repeat));
		}

		Recommendation recommendation = recommend(points);

		// pool 2's median p99 (7 ms) is 2 ms above pool 5's: outside the fixed 1 ms
		// margin, inside the 3 ms its own repeats spread over
		assertThat(recommendation.verdict()).isEqualTo(Verdict.CHOSEN);
		assertThat(recommendation.poolSize()).hasValue(2);
		assertThat(recommendation.summary()).contains("within 3 ms",
				"the noise margin is the widest spread between repeats at this rate, pool 2's p99 6 to 9 ms, "
						+ "wider than the fixed 1 ms");
	}

	@Test
	void saysWhenTheChosenPoolIsTheOnlyOneThatSustainedTheRate() {
		List<Point> points = List.of(point("multi", 1, 1000, 1000, 200, 2500), point("multi", 5, 1000, 735),
				point("multi", 10, 1000, 10));

		Recommendation recommendation = recommend(points, 100);

		assertThat(recommendation.poolSize()).hasValue(10);
		assertThat(recommendation.summary()).contains("pool 10 is the only pool size that sustained it (p99 10 ms)")
			.doesNotContain("within", "the best");
	}

	@Test
	void noPoolIsTheBaselineNeverTheAnswerEvenWhenItIsFastest() {
		List<Point> points = new ArrayList<>();
		points.add(point("single", SweepResults.NO_POOL, 1000, 3));
		points.add(point("single", 2, 1000, 9));
		points.add(point("single", 5, 1000, 5));

		Recommendation recommendation = recommend(points);

		assertThat(recommendation.verdict()).isEqualTo(Verdict.CHOSEN);
		assertThat(recommendation.poolSize()).hasValue(5);
		assertThat(recommendation.summary())
			.contains("Without a pool (a new connection per request) at that rate: p99 3 ms.")
			.doesNotContain("pool 0");
	}

	@Test
	void onlyNoPoolMeasuredSupportsNoConclusion() {
		Recommendation recommendation = recommend(List.of(point("single", SweepResults.NO_POOL, 500, 4)));

		assertThat(recommendation.verdict()).isEqualTo(Verdict.NO_DATA);
		assertThat(recommendation.poolSize()).isEmpty();
		assertThat(recommendation.summary()).contains("only 'none' was measured");
	}

	@Test
	void prefersAPoolThatSustainsTheRateOverSmallerOnesThatFail() {
		List<Point> points = new ArrayList<>();
		points.add(point("multi", 1, 1000, 800, 1000, 12));
		points.add(point("multi", 5, 1000, 999, 0, 6));
		points.add(point("multi", 10, 1000, 1000, 0, 6));

		Recommendation recommendation = recommend(points);

		assertThat(recommendation.verdict()).isEqualTo(Verdict.CHOSEN);
		assertThat(recommendation.poolSize()).hasValue(5);
		assertThat(recommendation.summary()).contains("pool 1 failed", "achieved 800 of 1000 rps");
	}

	@Test
	void saysTheGridCannotSupportAConclusionWhenEverythingSaturates() {
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { 1, 5, 10 }) {
			points.add(point("single", pool, 1000, 700, 300, 2000));
			points.add(point("single", pool, 2000, 1100, 900, 5000));
		}

		Recommendation recommendation = recommend(points);

		assertThat(recommendation.verdict()).isEqualTo(Verdict.SATURATED);
		assertThat(recommendation.verdict().conclusive()).isFalse();
		assertThat(recommendation.poolSize()).isEmpty();
		assertThat(recommendation.summary()).contains("cannot support a conclusion", "every pool size saturated");
	}

	@Test
	void saysPoolSizeDoesNotMatterWhenAllAreEqualWithinNoise() {
		List<Point> points = new ArrayList<>();
		double[] p99Ms = { 4, 5, 4, 5, 4 };
		int[] pools = { 1, 2, 5, 10, 20 };
		for (int i = 0; i < pools.length; i++) {
			points.add(point("multi", pools[i], 500, 2));
			points.add(point("multi", pools[i], 1000, p99Ms[i]));
		}

		Recommendation recommendation = recommend(points);

		assertThat(recommendation.verdict()).isEqualTo(Verdict.FLAT);
		// not the smallest measured (1, no headroom): 1000 rps x 1.5 ms held = 1.5
		// connections busy, twice that rounds up to 3, and the smallest measured from
		// 3 up is 5
		assertThat(recommendation.poolSize()).hasValue(5);
		assertThat(recommendation.summary()).contains(
				"No knee was found: pool sizes 1, 2, 5, 10 and 20 are equal within noise at 1000 rps",
				"Pool size 5 is derived, not measured",
				"twice the 1.50 connections Little's law finds busy per instance (rounded up: 3)");
		assertThat(Header.headline(recommendation)).startsWith("no knee found: 5 suggested, not measured");
		assertThat(recommendation.caveats()).anyMatch((caveat) -> caveat.contains("ceiling was not found"));
	}

	@Test
	void withoutAKneeNeverNamesAPoolOfOne() {
		// connections held so briefly that Little's law finds almost none busy
		List<Point> points = List.of(withUsage(point("single", 1, 200, 6), 0.1),
				withUsage(point("single", 2, 200, 6), 0.1), withUsage(point("single", 5, 200, 6), 0.1));

		Recommendation recommendation = recommend(points);

		assertThat(recommendation.verdict()).isEqualTo(Verdict.FLAT);
		assertThat(recommendation.poolSize()).hasValue(2);
	}

	@Test
	void withoutAKneeAndEveryPoolBelowTheFloorNamesTheLargestAndSaysSo() {
		List<Point> points = List.of(point("single", 1, 1000, 4), point("single", 2, 1000, 4));

		Recommendation recommendation = recommend(points);

		assertThat(recommendation.verdict()).isEqualTo(Verdict.FLAT);
		assertThat(recommendation.poolSize()).hasValue(2);
		assertThat(recommendation.caveats())
			.anyMatch((caveat) -> caveat.contains("Every pool size measured is below the no-knee floor of 3"));
	}

	@Test
	void saysSoWhenOnlyOnePoolSizeWasMeasured() {
		Recommendation recommendation = recommend(List.of(point("single", 10, 500, 3), point("single", 10, 1000, 4)));

		assertThat(recommendation.verdict()).isEqualTo(Verdict.SINGLE_POOL_SIZE);
		assertThat(recommendation.poolSize()).isEmpty();
		assertThat(recommendation.summary()).contains("only pool size 10 was measured");
	}

	@Test
	void ignoresPointsWhosePoolSizeWasNotVerified() {
		Point unverifiedSmall = withObservedMax(point("single", 1, 1000, 3), List.of(10));
		Recommendation recommendation = recommend(
				List.of(unverifiedSmall, point("single", 5, 1000, 3), point("single", 10, 1000, 3)));

		assertThat(recommendation.poolSize()).hasValue(5);
		assertThat(recommendation.caveats()).anyMatch(
				(caveat) -> caveat.contains("did not prove their pool size") && caveat.contains("pool 1 @ 1000 rps"));
	}

	@Test
	void saysSoWhenNoPointProvedItsPoolSize() {
		Recommendation recommendation = recommend(List.of(withObservedMax(point("single", 1, 1000, 3), List.of()),
				withObservedMax(point("single", 5, 1000, 3), List.of())));

		assertThat(recommendation.verdict()).isEqualTo(Verdict.UNVERIFIED);
		assertThat(recommendation.summary()).contains("cannot support a conclusion");
	}

	@Test
	void leavesOutPointsThatDidNotFinishOk() {
		Point failed = withOutcome(point("single", 1, 1000, 1), "service instance failed to start");
		Recommendation recommendation = recommend(
				List.of(failed, point("single", 5, 1000, 9), point("single", 10, 1000, 9)));

		assertThat(recommendation.poolSize()).hasValue(5);
		assertThat(recommendation.caveats()).anyMatch((caveat) -> caveat.contains("1 point(s) left out"));
	}

	@Test
	void takesTheMedianAcrossRepeats() {
		List<Point> points = new ArrayList<>();
		// pool 1's second repeat is an outlier; the median of three keeps it out of the
		// verdict
		points.add(repeat(point("single", 1, 1000, 4), 1));
		points.add(repeat(point("single", 1, 1000, 60), 2));
		points.add(repeat(point("single", 1, 1000, 4), 3));
		for (int repeat = 1; repeat <= 3; repeat++) {
			points.add(repeat(point("single", 5, 1000, 4), repeat));
		}

		Recommendation recommendation = recommend(points);

		// the median keeps the outlier out of pool 1's figure, and the outlier's spread
		// (4 to 60 ms) becomes the noise margin: no knee between 1 and 5
		TopologyGrid grid = grid(points, 0);
		assertThat(grid.cell(1, 1000)).get().extracting((cell) -> cell.latency().p99Ms()).isEqualTo(4.0);
		assertThat(recommendation.verdict()).isEqualTo(Verdict.FLAT);
		assertThat(recommendation.summary()).contains("pool 1's p99 4 to 60 ms");
		assertThat(recommendation.poolSize()).hasValue(5);
	}

	@Test
	void crossChecksApplyLittlesLawPerInstanceAndTheFleetBudget() {
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { 2, 5 }) {
			points.add(instances(point("multi", pool, 1000, (pool == 2) ? 30 : 5), 2));
		}

		Recommendation recommendation = recommend(points);

		Recommendation.CrossChecks checks = recommendation.crossChecks();
		// 1000 rps × 1.5 ms held = 1.5 connections busy fleet-wide, 0.75 per instance
		assertThat(checks.littleBusyFleet()).isEqualTo(1.5);
		assertThat(checks.littleBusyPerInstance()).isEqualTo(0.75);
		assertThat(checks.hikariStartingPoolSize()).hasValue(4);
		assertThat(checks.databaseHost()).isNull();
		assertThat(checks.requestThreads()).isEqualTo(200);
		assertThat(checks.deadlockFloor()).isEqualTo(1);
		assertThat(checks.fleetBudgetPerInstance()).isEqualTo((100 - 3) / 2);
	}

	@Test
	void hikarisFormulaNeedsTheDatabaseHostsCoresWhichAreUnknownForAnExternalDatabase() {
		List<Point> points = List.of(point("single", 2, 1000, 9), point("single", 5, 1000, 5));
		DatabaseFacts remote = new DatabaseFacts("external", DatabaseFacts.DEFAULT_VENDOR,
				"jdbc:postgresql://db.example.com:5432/roles", "17.11", 100, 3);
		DatabaseFacts loopback = new DatabaseFacts("external", DatabaseFacts.DEFAULT_VENDOR,
				"jdbc:postgresql://127.0.0.1:5432/postgres", "17.11", 100, 3);

		Recommendation.CrossChecks remoteChecks = Recommender.recommend(grid(points, 0), HOST, remote).crossChecks();
		Recommendation.CrossChecks loopbackChecks = Recommender.recommend(grid(points, 0), HOST, loopback)
			.crossChecks();

		assertThat(remoteChecks.hikariStartingPoolSize()).isEmpty();
		assertThat(remoteChecks.databaseHost()).isEqualTo("db.example.com");
		assertThat(loopbackChecks.hikariStartingPoolSize()).hasValue(4);
		assertThat(loopbackChecks.databaseHost()).isNull();
	}

	@Test
	void unverifiedPointsAreCellsShownAsUnverifiedButNotConsidered() {
		Point unverified = withOutcome(withObservedMax(point("single", 1, 1000, 3), List.of(10)),
				"pool not verified: 1 instance(s) reported maximum-pool-size [10], expected 1 from each of 1");
		List<Point> points = List.of(unverified, point("single", 5, 1000, 4), point("single", 10, 1000, 4));

		TopologyGrid grid = grid(points, 0);
		Recommendation recommendation = recommend(points);

		assertThat(grid.excluded()).isEmpty();
		assertThat(grid.cell(1, 1000)).get().satisfies((cell) -> assertThat(cell.instead()).hasValue("unverified"));
		assertThat(recommendation.summary()).doesNotContain("pool 1");
		assertThat(recommendation.caveats())
			.anyMatch((caveat) -> caveat.contains("shown as 'unverified' and were not considered: pool 1 @ 1000 rps"));
	}

	@Test
	void tooManyClientsRefusalsSayTheDatabaseWasAtItsConnectionLimit() {
		List<Point> points = List.of(point("single", 5, 1000, 4),
				withRefusals(point("single", 50, 1000, 4), Map.of("too-many-clients", 120L)));

		Recommendation recommendation = recommend(points);

		assertThat(recommendation.caveats()).anyMatch((caveat) -> caveat.startsWith(
				"The database was at its connection limit (max_connections 100, 3 reserved): PostgreSQL refused "
						+ "new connections ('too many clients') at pool 50 @ 1000 rps (120 refusals)."));
		assertThat(recommend(List.of(point("single", 5, 1000, 4), point("single", 50, 1000, 4))).caveats())
			.noneMatch((caveat) -> caveat.contains("connection limit"));
	}

	@Test
	void tooManyConnectionsOnMariaDbAreQuotedInMariaDbsWords() {
		DatabaseFacts mariaDb = new DatabaseFacts("embedded", "MariaDB", "jdbc:mariadb://127.0.0.1:3306/poollab",
				"10.11.5-MariaDB", 300, 0);
		List<Point> points = List.of(point("single", 5, 1000, 4),
				withRefusals(point("single", 50, 1000, 4), Map.of("too-many-clients", 120L)));

		Recommendation recommendation = Recommender.recommend(grid(points, 0), HOST, mariaDb);

		assertThat(recommendation.caveats()).anyMatch((caveat) -> caveat
			.startsWith("The database was at its connection limit (max_connections 300, 0 reserved): MariaDB refused "
					+ "new connections ('Too many connections') at pool 50 @ 1000 rps (120 refusals)."));
		assertThat(recommendation.caveats()).noneMatch((caveat) -> caveat.contains("PostgreSQL"));
	}

	public static final String DIED_OF_OOM = "instance(s) on port(s) [18081] died during the point (exit code 3: "
			+ "Terminating due to java.lang.OutOfMemoryError: Java heap space)";

	private static Recommendation recommend(List<Point> points) {
		return recommend(points, 0);
	}

	private static Recommendation recommend(List<Point> points, double p99ObjectiveMs) {
		return Recommender.recommend(grid(points, p99ObjectiveMs), HOST, DATABASE);
	}

	private static TopologyGrid grid(List<Point> points, double p99ObjectiveMs) {
		SweepResults results = new SweepResults(Instant.parse("2026-11-22T10:00:00Z"), "test", HOST, DATABASE,
				p99ObjectiveMs, null, points);
		return TopologyGrid.of(results).get(0);
	}

	@Test
	void aRateCarriedWithP99AboveTheObjectiveIsNotSustained() {
		// No errors anywhere, but at 2000 rps every pool queues for over a second:
		// saturation.
		List<Point> points = List.of(point("single", 5, 1000, 5), point("single", 10, 1000, 5),
				point("single", 5, 2000, 1245), point("single", 10, 2000, 1160));
		Recommendation withObjective = recommend(points, 100);
		assertThat(withObjective.decidingRateRps()).hasValue(1000);
		assertThat(withObjective.poolSize()).hasValue(5);
		Recommendation withoutObjective = recommend(points, 0);
		assertThat(withoutObjective.decidingRateRps()).hasValue(2000);
	}

	@Test
	void aGeneratorBoundPointNeverVotesNorCountsAsNotSustained() {
		List<Point> points = new ArrayList<>();
		for (int pool : new int[] { 5, 10 }) {
			points.add(point("single", pool, 1000, 5));
			// JMeter fell behind at 2000 rps: its p99 of seconds is the generator's.
			points.add(point("single", pool, 2000, 1494, 0, 1413)
				.withOutcome("generator-bound: JMeter sent late (late starts p99 445 ms, limit 10 ms)"));
		}
		Recommendation recommendation = recommend(points, 100);
		assertThat(recommendation.decidingRateRps()).as("2000 rps measured nothing: no verdict there").hasValue(1000);
		assertThat(recommendation.summary()).doesNotContain("2000");
		assertThat(recommendation.caveats()).anySatisfy((caveat) -> assertThat(caveat).contains("2 generator-bound"));
		TopologyGrid grid = grid(points, 100);
		assertThat(grid.cells()).extracting(Cell::rateRps).containsOnly(1000);
		assertThat(grid.excluded()).hasSize(2);
	}

	public static Point point(String topology, int poolSize, int rateRps, double p99Ms) {
		return point(topology, poolSize, rateRps, rateRps, 0, p99Ms);
	}

	public static Point point(String topology, int poolSize, int rateRps, double achievedRps, long timeouts,
			double p99Ms) {
		long samples = Math.round(achievedRps * 30);
		long errors = (timeouts > 0) ? timeouts : 0;
		Latency latency = new Latency(p99Ms / 3, p99Ms / 4, p99Ms / 2, p99Ms, p99Ms * 2, p99Ms * 3);
		Pool pool = new Pool(List.of(poolSize), Math.min(poolSize, 3), (timeouts > 0) ? 50 : 0, 0.5, 1.5, timeouts, 30);
		return Point.builder()
			.topology(topology)
			.poolSize(poolSize)
			.rateRps(rateRps)
			.warmupSeconds(10)
			.durationSeconds(30)
			.achievedRps(achievedRps)
			.samples(samples)
			.errors(errors)
			.statusCounts(Map.of("200", samples - errors))
			.latency(latency)
			.failedMaxMs(0)
			.pool(pool)
			.loadGeneratorCpuCores(0.4)
			.build();
	}

	static Point withObservedMax(Point p, List<Integer> observedMax) {
		Pool pool = new Pool(observedMax, p.pool().peakActive(), p.pool().peakPending(), p.pool().acquireP99Ms(),
				p.pool().usageMeanMs(), p.pool().timeouts(), p.pool().telemetrySamples());
		return p.toBuilder().pool(pool).build();
	}

	public static Point withUsage(Point p, double usageMeanMs) {
		Pool pool = new Pool(p.pool().observedMax(), p.pool().peakActive(), p.pool().peakPending(),
				p.pool().acquireP99Ms(), usageMeanMs, p.pool().timeouts(), p.pool().telemetrySamples());
		return p.toBuilder().pool(pool).build();
	}

	public static Point withRefusals(Point p, Map<String, Long> refusals) {
		return p.toBuilder().refusals(refusals).build();
	}

	public static Point withStartLag(Point p, double startLagP99Ms, double achievedRps) {
		return p.toBuilder().achievedRps(achievedRps).startLagP99Ms(startLagP99Ms).build();
	}

	public static Point withOutcome(Point p, String outcome) {
		return p.toBuilder().outcome(outcome).build();
	}

	static Point repeat(Point p, int repeat) {
		return p.toBuilder().repeat(repeat).build();
	}

	private static Point instances(Point p, int instances) {
		return p.toBuilder().instances(instances).loadBalancer("nginx").build();
	}

}
