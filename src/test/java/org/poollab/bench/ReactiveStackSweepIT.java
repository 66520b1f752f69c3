package org.poollab.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.Stack;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JDBC service and its reactive twin as a dimension of the grid, through a tiny real
 * sweep: each stack on fresh instances, the twin resized between pool sizes like the JDBC
 * service and each size proven by r2dbc-pool's own gauge, the report's side-by-side view
 * and each stack's block, and nothing left running. One deployment per stack: the twin
 * without a pool is PoolArgumentsTests (how the lab starts it) and ReactiveTwinIT (how it
 * serves), the side-by-side row of {@code none} RecommendedYamlTests.
 */
@ExtendWith(OutputCaptureExtension.class)
class ReactiveStackSweepIT {

	@TempDir
	Path output;

	@Test
	void eachStackRunsOnFreshInstancesProvenByItsOwnPoolMetrics(CapturedOutput console) throws Exception {
		long childrenBefore = ProcessHandle.current().children().count();

		// Adaptive effort off: it measures unsettled cells again, which adds points.
		Sweep.Outcome outcome = BenchApplication.run("--bench.preset=quick", "--bench.topologies=single",
				"--bench.poolSizes=2,4", "--bench.rates=50", "--bench.duration=2s", "--bench.warmup=1s",
				"--bench.topologyWarmup=0s", "--bench.confirmation=0s", "--bench.adaptiveCap=0s",
				"--bench.stack=jdbc,r2dbc", "--bench.outputDirectory=" + this.output,
				"--bench.basePort=" + SweepEndToEndIT.freeBasePort(2));

		List<Point> points = outcome.results().points();
		assertThat(points).extracting((point) -> point.limits().stack())
			.containsExactly(Stack.JDBC, Stack.JDBC, Stack.R2DBC, Stack.R2DBC);
		assertThat(points).isNotEmpty()
			.allSatisfy((point) -> SweepEndToEndIT.assertMeasured(point.outcome(), "pool " + point.poolSize()));
		// Each point's size as the running pool reported it: HikariCP's gauge on one
		// stack, r2dbc-pool's on the other, after a live resize from 4 to 2.
		assertThat(points).allSatisfy((point) -> {
			assertThat(point.pool().observedMax()).containsOnly(point.poolSize());
			assertThat(point.verified()).isTrue();
		});
		assertThat(ResultsStore.read(outcome.directory().resolve(ResultsStore.RESULTS_JSON)))
			.isEqualTo(outcome.results());
		assertThat(console).contains("requests on Reactor Netty's event loop");
		assertThat(outcome.directory().resolve("deploy/single-r2dbc")).isDirectory();
		String report = Files.readString(outcome.directory().resolve("report.md"));
		assertThat(report).startsWith("# HikariCP and r2dbc-pool pool-sizing report")
			.contains("## JDBC vs R2DBC",
					"### JDBC vs R2DBC: single (JDBC (Spring MVC, HikariCP) → R2DBC (WebFlux, r2dbc-pool))");
		for (int pool : List.of(2, 4)) {
			SweepEndToEndIT.assertSideBySideRow(outcome.directory().resolve("report.md"),
					"\\| " + pool + " \\| 50 \\| [0-9]+ → [0-9]+ \\|",
					points.stream().filter((point) -> point.poolSize() == pool).toList(),
					outcome.results().p99ObjectiveMs());
		}
		// Each stack's block names its own pool-size key: with its measured size, or,
		// where
		// the sweep could not conclude (every pool saturated on a busy machine), the
		// labelled starting formula or "not written".
		assertThat(outcome.recommendations()).extracting(Recommendation::poolSizeKey)
			.containsExactlyInAnyOrder("maximum-pool-size", "max-size");
		String yaml = Files.readString(outcome.directory().resolve("recommended-application.yml"));
		assertThat(yaml).contains("max-acquire-time:");
		for (Recommendation recommendation : outcome.recommendations()) {
			String key = recommendation.poolSizeKey();
			if (recommendation.poolSize().isPresent()) {
				assertThat(yaml).contains(key + ": " + recommendation.poolSize().getAsInt());
			}
			else {
				// NOT MEASURED: HikariCP's starting formula, or nothing where it failed
				// too.
				assertThat(yaml).containsPattern(key + "(: [0-9]+| not written)");
			}
		}
		assertThat(outcome.directory().resolve("results.csv")).content().contains(",jdbc,", ",r2dbc,");
		assertThat(ProcessHandle.current().children().count()).as("processes left running").isEqualTo(childrenBefore);
	}

}
