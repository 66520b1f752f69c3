package org.poollab.bench;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.SweepResults.Point;
import org.poollab.bench.report.Recommendation;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A point the load generator could not hold is re-measured, then marked generator-bound
 * and left out of the verdict: it measured JMeter, not the service.
 */
class GeneratorBoundSweepTests {

	@TempDir
	Path output;

	@Test
	void aRateTheGeneratorCannotSendIsMeasuredAgainThenMarkedGeneratorBoundAndNeverVotes() throws Exception {
		// Far beyond what the open model's thread per arrival can start on a small box:
		// JMeter sends late and short of the rate, whatever the service does.
		Sweep.Outcome outcome = BenchApplication.run("--bench.topologies=single", "--bench.poolSizes=5",
				"--bench.rates=12000", "--bench.duration=2s", "--bench.warmup=1s", "--bench.topologyWarmup=0s",
				"--bench.confirmation=0s", "--bench.outputDirectory=" + this.output,
				"--bench.basePort=" + SweepEndToEndTests.freeBasePort(1));

		Point point = outcome.results().points().get(0);
		assertThat(outcome.results().points()).hasSize(1);
		assertThat(point.outcome()).startsWith("generator-bound: JMeter");
		assertThat(Files.exists(outcome.directory().resolve("load/single-again.jtl")))
			.as("the point was measured a second time before it was marked")
			.isTrue();
		Recommendation recommendation = outcome.recommendations().get(0);
		assertThat(recommendation.poolSize()).isEmpty();
		assertThat(recommendation.caveats()).anySatisfy((caveat) -> assertThat(caveat).contains("generator-bound"));
		assertThat(outcome.directory().resolve("report.md")).content().contains("generator-bound");
		for (long pid : outcome.processIds()) {
			assertThat(LabProcesses.alive(pid)).as("process %d alive", pid).isFalse();
		}
	}

}
