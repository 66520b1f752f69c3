package org.poollab.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.poollab.bench.grid.Arrivals;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Preset;
import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.load.GeneratorCeiling;
import org.poollab.bench.load.JMeter;
import org.poollab.bench.load.LoadRun;
import org.poollab.bench.results.RequestThreads;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the sweep lays points out in one JMeter run: rounds per repeat, largest pool first,
 * each point a phase of its own.
 */
class LoadScheduleTests {

	@Test
	void runsAreOnePerRepeatAndRateLowestRateFirstLargestPoolFirst() {
		List<Planned> points = List.of(planned(1, 500, 1), planned(1, 2000, 1), planned(10, 500, 1),
				planned(10, 2000, 1), planned(1, 500, 2), planned(1, 2000, 2), planned(10, 500, 2),
				planned(10, 2000, 2));
		List<List<Planned>> runs = LoadRun.rounds(points);
		assertThat(runs).hasSize(4);
		assertThat(runs.get(0)).extracting(Planned::poolSize, Planned::rateRps, Planned::repeat)
			.containsExactly(org.assertj.core.groups.Tuple.tuple(10, 500, 1),
					org.assertj.core.groups.Tuple.tuple(1, 500, 1));
		assertThat(runs.get(1)).extracting(Planned::poolSize, Planned::rateRps, Planned::repeat)
			.containsExactly(org.assertj.core.groups.Tuple.tuple(10, 2000, 1),
					org.assertj.core.groups.Tuple.tuple(1, 2000, 1));
		assertThat(runs.get(2)).extracting(Planned::repeat).containsOnly(2);
		// A run never changes its rate.
		assertThat(runs)
			.allSatisfy((run) -> assertThat(run).extracting(Planned::rateRps).containsOnly(run.get(0).rateRps()));
	}

	@Test
	void eachPointIsAPhaseTheFirstAfterTheWarmUpLaterOnesAfterASettleLongerAfterAResize() {
		Grid grid = PresetTests.grid(Map.of("bench.warmup", "3s", "bench.duration", "5s"));
		LoadRun run = new LoadRun(grid, null, System.out);
		List<LoadRun.Segment> segments = run
			.segments(List.of(planned(10, 500, 1), planned(10, 1000, 1), planned(5, 500, 1)), 10);
		assertThat(segments).extracting(LoadRun.Segment::settle)
			.containsExactly(Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ofSeconds(2));
		assertThat(segments).extracting(LoadRun.Segment::start)
			.containsExactly(Duration.ZERO, Duration.ofSeconds(8), Duration.ofSeconds(14));
		assertThat(segments.get(2).windowStart()).isEqualTo(Duration.ofSeconds(16));
		assertThat(segments.get(2).end()).isEqualTo(Duration.ofSeconds(21));
	}

	@Test
	void phasesAreStepsInTheOpenModelSchedule() {
		JMeter.Schedule schedule = new JMeter.Schedule(
				Duration.ZERO, List.of(new JMeter.Phase(500, Duration.ofSeconds(8)),
						new JMeter.Phase(1000, Duration.ofSeconds(6)), new JMeter.Phase(2000, Duration.ofSeconds(6))),
				Arrivals.EVEN);
		// Two rates in a row make a step; the plan appends the last phase itself.
		assertThat(schedule.before(1)).isEqualTo(
				"rate(500/sec) even_arrivals(8 sec) rate(500/sec) rate(1000/sec) even_arrivals(6 sec) rate(1000/sec)");
		assertThat(schedule.last()).isEqualTo(new JMeter.Phase(2000, Duration.ofSeconds(6)));
		assertThat(schedule.length()).isEqualTo(Duration.ofSeconds(20));
		assertThat(schedule.phaseStarts()).containsExactly(Duration.ZERO, Duration.ofSeconds(8),
				Duration.ofSeconds(14));
		JMeter.Schedule warmup = new JMeter.Schedule(Duration.ofSeconds(10),
				List.of(new JMeter.Phase(2000, Duration.ofSeconds(10))), Arrivals.EVEN);
		assertThat(warmup.before(2)).isEqualTo("rate(0/sec) even_arrivals(10 sec)");
	}

	@Test
	void aFractionalLabRateIsWrittenExactlyAsJMeterParsesIt() {
		// 550 rps ÷ 8 and 400 ÷ 8: JMeter 5.6.3's schedule parser reads rate(68.75/sec)
		// as
		// 68.75.
		JMeter.Schedule slowed = new JMeter.Schedule(Duration.ZERO,
				List.of(new JMeter.Phase(TimeScale.of(8).labRateRps(550), Duration.ofSeconds(15)),
						new JMeter.Phase(TimeScale.of(8).labRateRps(400), Duration.ofSeconds(15))),
				Arrivals.RANDOM);
		assertThat(slowed.before(1)).isEqualTo("rate(68.75/sec) random_arrivals(15 sec) rate(68.75/sec)");
		assertThat(slowed.last().perEngine(1)).isEqualTo("50");
		assertThat(new JMeter.Phase(137.5, Duration.ofSeconds(1)).perEngine(2)).isEqualTo("68.75");
	}

	@Test
	void inSlowMotionAWindowGrowsWhereItWouldHoldTooFewRequestsAndTheSettlingDoesNot() {
		Grid grid = Grid.builder(Preset.named("quick")).duration(Duration.ofSeconds(10)).build();
		// 200 ÷ 4 = 50 rps: 20 s for 1,000 requests; 2000 ÷ 4 = 500 rps: 10 s hold 5,000.
		List<LoadRun.Segment> segments = LoadRun.segments(grid, TimeScale.of(4),
				List.of(planned(10, 200, 1), planned(10, 2000, 1)), 10);
		assertThat(segments).extracting(LoadRun.Segment::window)
			.containsExactly(Duration.ofSeconds(20), Duration.ofSeconds(10));
		assertThat(segments.get(1).settle()).isEqualTo(LoadRun.SETTLE);
	}

	@Test
	void theGeneratorCeilingStepsUpToOneAndAHalfTimesTheHighestRateInAtMostEightSteps() {
		assertThat(GeneratorCeiling.steps(2000)).containsExactly(500, 1000, 1500, 2000, 2500, 3000);
		assertThat(GeneratorCeiling.steps(100)).containsExactly(500);
		assertThat(GeneratorCeiling.steps(12000)).hasSizeLessThanOrEqualTo(8).startsWith(2500).endsWith(17500);
	}

	private static Planned planned(int poolSize, int rateRps, int repeat) {
		return new Planned(Topology.SINGLE, 1, RequestThreads.TOMCAT_DEFAULT, poolSize, rateRps, repeat);
	}

}
