package org.poollab.bench.report;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.poollab.bench.SweepResults;
import org.poollab.bench.SweepResults.Database;
import org.poollab.bench.SweepResults.Host;
import org.poollab.bench.SweepResults.Latency;
import org.poollab.bench.SweepResults.Limits;
import org.poollab.bench.SweepResults.Point;
import org.poollab.bench.SweepResults.Pool;
import org.poollab.bench.report.Recommendation.Verdict;

import static org.assertj.core.api.Assertions.assertThat;

class RecommenderTests {

	private static final Host HOST = new Host(2, "JMeter 5.6.3 OpenModelThreadGroup");

	private static final Database DATABASE = new Database("embedded", "jdbc:postgresql://localhost:5432/roles", "17.11",
			100, 3);

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
		assertThat(recommendation.summary()).contains("pool 5 is the smallest", "At 1000 rps", "pool 1 p99 40 ms",
				"pool 2 p99 20 ms");
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
		assertThat(recommendation.poolSize()).hasValue(1);
		assertThat(recommendation.summary()).contains("does not matter in this range",
				"named only because it is the smallest");
		assertThat(recommendation.caveats()).anyMatch((caveat) -> caveat.contains("ceiling was not found"));
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

		assertThat(recommendation.verdict()).isEqualTo(Verdict.FLAT);
		assertThat(recommendation.poolSize()).hasValue(1);
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
		assertThat(checks.hikariStartingPoolSize()).isEqualTo(4);
		assertThat(checks.deadlockFloor()).isEqualTo(1);
		assertThat(checks.fleetBudgetPerInstance()).isEqualTo((100 - 3) / 2);
	}

	private static Recommendation recommend(List<Point> points) {
		return recommend(points, 0);
	}

	private static Recommendation recommend(List<Point> points, double p99ObjectiveMs) {
		SweepResults results = new SweepResults(Instant.parse("2026-11-22T10:00:00Z"), "test", HOST, DATABASE,
				p99ObjectiveMs, null, points);
		return Recommender.recommend(Grid.of(results).get(0), HOST, DATABASE);
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

	static Point point(String topology, int poolSize, int rateRps, double p99Ms) {
		return point(topology, poolSize, rateRps, rateRps, 0, p99Ms);
	}

	static Point point(String topology, int poolSize, int rateRps, double achievedRps, long timeouts, double p99Ms) {
		long samples = Math.round(achievedRps * 30);
		long errors = (timeouts > 0) ? timeouts : 0;
		Latency latency = new Latency(p99Ms / 3, p99Ms / 4, p99Ms / 2, p99Ms, p99Ms * 2, p99Ms * 3);
		Pool pool = new Pool(List.of(poolSize), Math.min(poolSize, 3), (timeouts > 0) ? 50 : 0, 0.5, 1.5, timeouts, 30);
		return new Point(topology, 1, "none", poolSize, rateRps, "even", 1, 10, 30, achievedRps, samples, errors,
				Map.of("200", samples - errors), latency, 0, pool, 0.4, "ok", Limits.DEFAULTS);
	}

	private static Point withObservedMax(Point p, List<Integer> observedMax) {
		Pool pool = new Pool(observedMax, p.pool().peakActive(), p.pool().peakPending(), p.pool().acquireP99Ms(),
				p.pool().usageMeanMs(), p.pool().timeouts(), p.pool().telemetrySamples());
		return new Point(p.topology(), p.instances(), p.loadBalancer(), p.poolSize(), p.rateRps(), p.arrivals(),
				p.repeat(), p.warmupSeconds(), p.durationSeconds(), p.achievedRps(), p.samples(), p.errors(),
				p.statusCounts(), p.latency(), p.failedMaxMs(), pool, p.loadGeneratorCpuCores(), p.outcome(),
				p.limits());
	}

	private static Point withOutcome(Point p, String outcome) {
		return new Point(p.topology(), p.instances(), p.loadBalancer(), p.poolSize(), p.rateRps(), p.arrivals(),
				p.repeat(), p.warmupSeconds(), p.durationSeconds(), p.achievedRps(), p.samples(), p.errors(),
				p.statusCounts(), p.latency(), p.failedMaxMs(), p.pool(), p.loadGeneratorCpuCores(), outcome,
				p.limits());
	}

	private static Point repeat(Point p, int repeat) {
		return new Point(p.topology(), p.instances(), p.loadBalancer(), p.poolSize(), p.rateRps(), p.arrivals(), repeat,
				p.warmupSeconds(), p.durationSeconds(), p.achievedRps(), p.samples(), p.errors(), p.statusCounts(),
				p.latency(), p.failedMaxMs(), p.pool(), p.loadGeneratorCpuCores(), p.outcome(), p.limits());
	}

	private static Point instances(Point p, int instances) {
		return new Point(p.topology(), instances, "nginx", p.poolSize(), p.rateRps(), p.arrivals(), p.repeat(),
				p.warmupSeconds(), p.durationSeconds(), p.achievedRps(), p.samples(), p.errors(), p.statusCounts(),
				p.latency(), p.failedMaxMs(), p.pool(), p.loadGeneratorCpuCores(), p.outcome(), p.limits());
	}

}
