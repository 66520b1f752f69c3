package org.poollab.bench.load;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.results.CrossCheckResult;
import org.poollab.bench.results.Interval;
import org.poollab.bench.results.Latency;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Pool;
import org.poollab.bench.results.Second;
import org.poollab.bench.results.ServerLatency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A window measured in slow motion becomes the team's time in one place: latencies as
 * overhead + (lab − overhead) ÷ k, the achieved rate × k, waits and holds ÷ k; the
 * planned rate, counts, the window's seconds and JMeter's start lag stay as they were.
 */
class TeamTimeTests {

	/** k = 4, 2 ms of unstretched work per request. */
	private static final TimeScale SCALE = new TimeScale(4, 2);

	@Test
	void everyLatencyOfThePointIsMappedBackToTheTeamsTime() {
		Point team = TeamTime.of(labPoint(), SCALE);
		// 2 + (62 - 2) / 4 = 17
		assertThat(team.latency())
			.isEqualTo(new Latency(12, 7, 14.5, 17, 22, 27, new Interval(5.5, 9.5), new Interval(14.5, 19.5)));
		assertThat(team.failedMaxMs()).isEqualTo(2 + (8002 - 2) / 4.0);
		assertThat(team.serverLatency()).containsExactly(new ServerLatency(18081, 4000, 4.5, 14.5, 17, 20_000),
				ServerLatency.absent(18082));
		assertThat(team.seconds()).containsExactly(new Second(0, 100, 99, 17, 3), new Second(1, 100, 100, 0, 0));
	}

	@Test
	void theAchievedRateIsTheTeamsSoAchievedOverAskedKeepsItsMeaning() {
		Point team = TeamTime.of(labPoint(), SCALE);
		assertThat(team.rateRps()).isEqualTo(400);
		assertThat(team.achievedRps()).isEqualTo(396.0);
	}

	@Test
	void waitsAndHoldsAreStretchedWholeAndCountsStay() {
		Pool pool = TeamTime.of(labPoint(), SCALE).pool();
		assertThat(pool.acquireP99Ms()).isEqualTo(10.0);
		assertThat(pool.usageMeanMs()).isEqualTo(15.0);
		assertThat(pool.holdMeanMs()).isEqualTo(15.25);
		assertThat(pool.holdP99Ms()).isEqualTo(30.0);
		assertThat(pool.peakActive()).isEqualTo(8);
		assertThat(pool.peakPending()).isEqualTo(3);
		assertThat(pool.meanActive()).isEqualTo(6.1);
		assertThat(pool.timeouts()).isEqualTo(2);
		assertThat(pool.observedMax()).containsExactly(10, 10);
	}

	@Test
	void theWindowTheCountsAndTheStartLagStayAsTheLabRanThem() {
		Point lab = labPoint();
		Point team = TeamTime.of(lab, SCALE);
		assertThat(team.durationSeconds()).isEqualTo(20);
		assertThat(team.samples()).isEqualTo(lab.samples());
		assertThat(team.errors()).isEqualTo(lab.errors());
		assertThat(team.refusals()).isEqualTo(lab.refusals());
		assertThat(team.startLagP99Ms()).isEqualTo(12.0);
		assertThat(team.outcome()).isEqualTo("ok");
	}

	@Test
	void thePointRecordsKTheOverheadAndTheLatencyAsMeasured() {
		Point lab = labPoint();
		Point team = TeamTime.of(lab, SCALE);
		assertThat(team.timeScale()).isEqualTo(4);
		assertThat(team.overheadMs()).isEqualTo(2.0);
		assertThat(team.labLatency()).isEqualTo(lab.latency());
		assertThat(TeamTime.scaleOf(team)).isEqualTo(SCALE);
	}

	@Test
	void atTheTeamsOwnTimeNothingChanges() {
		Point lab = labPoint().toBuilder().timeScale(1, 0, null).build();
		assertThat(TeamTime.of(lab, TimeScale.NONE)).isSameAs(lab);
		assertThat(TeamTime.scaleOf(lab)).isEqualTo(TimeScale.NONE);
	}

	@Test
	void theCrossCheckIsMappedAsThePointAndJudgedAgainstJMeterInTheTeamsTime() {
		Latency jmeter = new Latency(30, 10, 50, 62, 70, 80);
		// p50 10 against 20 ms in the lab (more than 3 ms and 1.5x apart) are 4 and 6.5
		// in the team's time; p99 62 and 74 are 17 and 20.
		CrossCheckResult lab = new CrossCheckResult(20, 74, 0.4, 99, 0, 0.2, CrossCheck.agrees(jmeter, 20, 74));
		assertThat(lab.agrees()).isFalse();
		CrossCheckResult team = TeamTime.crossCheck(lab, SCALE, jmeter);
		assertThat(team.p50Ms()).isEqualTo(6.5);
		assertThat(team.p99Ms()).isEqualTo(20.0);
		assertThat(team.sentRps()).isEqualTo(396.0);
		assertThat(team.sendLagP99Ms()).isEqualTo(0.4);
		assertThat(team.agrees()).isTrue();
		assertThat(TeamTime.crossCheck(lab, TimeScale.NONE, jmeter)).isSameAs(lab);
	}

	@Test
	void randomArrivalsScatterByTheLabsCountOfRequests() {
		Point random = labPoint().toBuilder().arrivals("random").build();
		// 400 ÷ 4 = 100 rps for 20 s: 2,000 requests in the window.
		assertThat(random.arrivalScatter()).isCloseTo(3 / Math.sqrt(2000), within(1e-12));
	}

	/**
	 * A window of 400 rps ÷ 4 as the lab measured it: 99 rps sent, holds of 60 ms (15 ×
	 * 4), 2 ms of overhead in every latency.
	 */
	private static Point labPoint() {
		return Point.builder()
			.topology("single")
			.poolSize(10)
			.instances(2)
			.rateRps(400)
			.durationSeconds(20)
			.achievedRps(99)
			.samples(1980)
			.errors(2)
			.statusCounts(Map.of("200", 1978L, "503", 2L))
			.failedMaxMs(8002)
			.latency(new Latency(42, 22, 52, 62, 82, 102, new Interval(16, 32), new Interval(52, 72)))
			.pool(new Pool(List.of(10, 10), 8, 3, 40, 60, 2, 40, 6.1, null, 61.0, 120.0, null))
			.startLagP99Ms(12.0)
			.refusals(Map.of("pool-timeout", 2L))
			.serverLatency(List.of(new ServerLatency(18081, 4000, 12, 52, 62, 20_000), ServerLatency.absent(18082)))
			.seconds(List.of(new Second(0, 100, 99, 62, 3), new Second(1, 100, 100, 0, 0)))
			.timeScale(4, 2, null)
			.build();
	}

}
