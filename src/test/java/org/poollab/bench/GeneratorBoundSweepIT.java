package org.poollab.bench;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.results.Point;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A point the load generator could not hold is re-measured, then marked generator-bound.
 * Its own latency measured JMeter, not the service, so it votes only on what the
 * instances themselves saw: with their evidence of saturation (their p99 above the
 * objective, refusals, pool timeouts) it is a failure of its pool at its rate; without
 * it, it is left out of the verdict.
 */
class GeneratorBoundSweepIT {

	/** The default {@code bench.p99Objective}, which this run keeps. */
	private static final double OBJECTIVE_MS = 100;

	@TempDir
	Path output;

	@Test
	void aRateTheGeneratorCannotSendIsMeasuredAgainThenMarkedGeneratorBoundAndVotesOnlyOnTheInstancesEvidence()
			throws Exception {
		// Far beyond what the open model's thread per arrival can start on a small box
		// (about 2000 rps at best on 2 cores, warm): JMeter sends late and short of the
		// rate, whatever the service does. Not higher: JMeter runs on behind its schedule
		// (20 s for a 3 s schedule at 12000 rps), and the ceiling steps go to 1.5x it.
		Sweep.Outcome outcome = BenchApplication.run(SweepEndToEndIT.NO_HOLD, SweepEndToEndIT.EVEN_ARRIVALS,
				"--bench.topologies=single", "--bench.poolSizes=5", "--bench.rates=6000", "--bench.duration=2s",
				"--bench.warmup=1s", "--bench.topologyWarmup=0s", "--bench.confirmation=0s",
				"--bench.outputDirectory=" + this.output, "--bench.basePort=" + SweepEndToEndIT.freeBasePort(1));

		Point point = outcome.results().points().get(0);
		assertThat(outcome.results().points()).hasSize(1);
		assertThat(point.outcome()).startsWith("generator-bound: JMeter");
		assertThat(Files.exists(outcome.directory().resolve("load/single-again.jtl")))
			.as("the point was measured a second time before it was marked")
			.isTrue();
		Recommendation recommendation = outcome.recommendations().get(0);
		assertThat(recommendation.poolSize()).isEmpty();
		// Whether the service saturated behind the late generator depends on this box;
		// the
		// instances' own figures in results.json say which, and each fate has its own
		// text.
		boolean instancesSawSaturation = point.serverP99Ms() > OBJECTIVE_MS
				|| point.refusals().values().stream().mapToLong(Long::longValue).sum() > 0
				|| point.pool().timeouts() > 0;
		if (instancesSawSaturation) {
			// One pool size was measured, so the verdict is about that; the cell itself
			// is a failure.
			assertThat(outcome.directory().resolve("report.md")).content()
				.containsPattern(
						"not sustained: [^|]*the load generator fell behind while the instances themselves saw saturation");
			assertThat(recommendation.caveats())
				.noneSatisfy((caveat) -> assertThat(caveat).contains("generator-bound"));
		}
		else {
			assertThat(recommendation.caveats())
				.anySatisfy((caveat) -> assertThat(caveat).contains("generator-bound").contains("no verdict"));
			assertThat(outcome.directory().resolve("report.md")).content().contains("generator-bound");
		}
		for (long pid : outcome.processIds()) {
			assertThat(LabProcesses.alive(pid)).as("process %d alive", pid).isFalse();
		}
	}

}
