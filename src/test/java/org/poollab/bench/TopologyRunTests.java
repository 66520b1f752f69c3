package org.poollab.bench;

import org.junit.jupiter.api.Test;

import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.grid.TimeScaleSetting;
import org.poollab.bench.results.Point;

import static org.assertj.core.api.Assertions.assertThat;
import static org.poollab.bench.load.GeneratorCheckTests.point;

/** Which points a deployment measures once more at its end. */
class TopologyRunTests {

	private static final Point MEASURED = point("even", 50, 50, 0).withOutcome("ok");

	@Test
	void aPointThatMeasuredTheGeneratorOrAPoolNotAtItsSizeIsMeasuredAgain() {
		assertThat(TopologyRun.measureAgain(MEASURED.withOutcome(
				"generator-bound: JMeter sent late (late starts p99 72 ms, limit 10 ms); its window measured the generator, not the service")))
			.isTrue();
		// A resize that landed in the window on a busy machine (ReactiveStackSweepIT,
		// 2026-11-28): the window held the previous size.
		assertThat(TopologyRun.measureAgain(MEASURED.withOutcome(
				"pool not verified: 1 instance(s) reported maximum-pool-size [4], expected 2 from each of 1 (0: no HikariCP pool, -1: changed during the window)")))
			.isTrue();
	}

	@Test
	void aMeasuredPointOrADeathIsKept() {
		assertThat(TopologyRun.measureAgain(MEASURED)).isFalse();
		assertThat(TopologyRun.measureAgain(MEASURED
			.withOutcome("instance(s) on port(s) [18081] died during the point (exit code 3: OutOfMemoryError)")))
			.isFalse();
	}

	@Test
	void aFixedTimeScaleSlowsEveryTopologyAndAutoWaitsForTheProbe() {
		assertThat(TopologyRun.fixedScale(TimeScaleSetting.parse("2"))).isEqualTo(TimeScale.of(2));
		assertThat(TopologyRun.fixedScale(TimeScaleSetting.AUTO)).isEqualTo(TimeScale.NONE);
		assertThat(TopologyRun.slowMotion(TimeScale.of(2))).isEqualTo(
				"  running in slow motion: k = 2, rates ÷ 2, holds and connection-timeout × 2; latencies shown in your time");
	}

}
