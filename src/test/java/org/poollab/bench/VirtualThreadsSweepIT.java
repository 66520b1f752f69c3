package org.poollab.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import org.poollab.bench.deploy.ServiceJvm;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.RequestThreads;
import org.poollab.bench.results.ResultsStore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Platform and virtual threads as a dimension of the grid, through a tiny real sweep:
 * each thread model on fresh instances, proven by what each instance reports (Boot's own
 * decision), pinned virtual threads counted per window, and the report's side-by-side
 * table. Needs a Java 21+ JDK for the instances (the machines this lab is built on have
 * Temurin 25 beside Java 17); skipped, saying so, where there is none.
 */
@ExtendWith(OutputCaptureExtension.class)
class VirtualThreadsSweepIT {

	@TempDir
	Path output;

	@Test
	void eachThreadModelRunsOnFreshInstancesAndTheReportSetsThemSideBySide(CapturedOutput console) throws Exception {
		assumeThat(Runtime.version().feature() >= ServiceJvm.VIRTUAL_THREADS_SINCE
				|| ServiceJvm.installed().stream().anyMatch((jvm) -> jvm.feature() >= ServiceJvm.VIRTUAL_THREADS_SINCE))
			.as("a Java %d+ JDK to run the instances on virtual threads", ServiceJvm.VIRTUAL_THREADS_SINCE)
			.isTrue();
		long childrenBefore = ProcessHandle.current().children().count();

		Sweep.Outcome outcome = BenchApplication.run("--bench.preset=quick", "--bench.topologies=single",
				"--bench.poolSizes=2", "--bench.rates=50", "--bench.duration=2s", "--bench.warmup=1s",
				"--bench.topologyWarmup=0s", "--bench.confirmation=0s", "--bench.threads=platform,virtual",
				"--bench.outputDirectory=" + this.output, "--bench.basePort=" + SweepEndToEndIT.freeBasePort(2));

		List<Point> points = outcome.results().points();
		assertThat(points).extracting((point) -> point.limits().threads())
			.containsExactly(RequestThreads.TOMCAT_DEFAULT, RequestThreads.VIRTUAL);
		assertThat(points).allSatisfy((point) -> {
			SweepEndToEndIT.assertMeasured(point.outcome(), "pool " + point.poolSize());
			// Both instances run on a JVM with virtual threads (one JVM for both models),
			// so both expose the pinned counter: a number, not "not measured".
			assertThat(point.pool().pinnedEvents()).isNotNull().isNotNegative();
		});
		assertThat(ResultsStore.read(outcome.directory().resolve(ResultsStore.RESULTS_JSON)))
			.isEqualTo(outcome.results());
		assertThat(console).contains("Service instances run on Java ", "requests on platform threads\n",
				"requests on virtual threads\n");
		assertThat(outcome.directory().resolve("deploy/single")).isDirectory();
		assertThat(outcome.directory().resolve("deploy/single-virtual")).isDirectory();
		assertThat(outcome.directory().resolve("report.md")).content()
			.contains("## Platform vs virtual threads",
					"### Platform vs virtual threads: single (200 Tomcat threads → virtual threads)");
		// Pins are counted over the windows in the report's tables; where the generator
		// could not carry the virtual-thread point (a busy machine), the note says there
		// were none to count over.
		assertThat(outcome.directory().resolve("report.md")).content()
			.contains(SweepEndToEndIT.inTables(points.get(1), outcome.results().p99ObjectiveMs())
					? "Pinned virtual threads in the measured windows: "
					: "Pinned virtual threads: not counted, as no point on virtual threads measured the service");
		SweepEndToEndIT.assertSideBySideRow(outcome.directory().resolve("report.md"),
				"\\| 2 \\| 50 \\| [0-9.]+ → [0-9.]+ \\| none → none \\|", points, outcome.results().p99ObjectiveMs());
		assertThat(outcome.directory().resolve("results.csv")).content().contains(",platform,", ",virtual,");
		try (Stream<Path> logs = Files.list(outcome.directory().resolve("deploy/single-virtual"))) {
			assertThat(logs.map((file) -> file.getFileName().toString())
				.filter((name) -> name.startsWith("instance-") && name.endsWith(".log"))).as("one instance started")
				.hasSize(1);
		}
		assertThat(ProcessHandle.current().children().count()).as("processes left running").isEqualTo(childrenBefore);
	}

}
