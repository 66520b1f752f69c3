package org.poollab.bench;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import org.poollab.bench.results.DatabaseFacts;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.ResultsStore;
import org.poollab.vendor.DatabaseVendor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The database vendor as a dimension of the grid, through a tiny real sweep: the embedded
 * PostgreSQL for its points, then, once it has stopped, the embedded MariaDB for the same
 * points, each pool size proven by what the instances report, both databases described in
 * the results, the report's side-by-side view, and nothing left running or on disk.
 */
@ExtendWith(OutputCaptureExtension.class)
class DatabaseVendorsSweepIT {

	@TempDir
	Path output;

	@Test
	void eachVendorRunsOnItsOwnDatabaseOneAfterTheOther(CapturedOutput console) throws Exception {
		long childrenBefore = ProcessHandle.current().children().count();

		// Adaptive effort off: it measures unsettled cells again, which adds points.
		Sweep.Outcome outcome = BenchApplication.run("--bench.preset=quick", "--bench.topologies=single",
				"--bench.poolSizes=2,4", "--bench.rates=50", "--bench.duration=2s", "--bench.warmup=1s",
				"--bench.topologyWarmup=0s", "--bench.confirmation=0s", "--bench.adaptiveCap=0s",
				"--bench.database.vendor=postgresql,mariadb", "--bench.outputDirectory=" + this.output,
				"--bench.basePort=" + SweepEndToEndIT.freeBasePort(1));

		List<Point> points = outcome.results().points();
		assertThat(points).extracting((point) -> point.limits().vendor())
			.containsExactly(DatabaseVendor.POSTGRESQL, DatabaseVendor.POSTGRESQL, DatabaseVendor.MARIADB,
					DatabaseVendor.MARIADB);
		assertThat(points).extracting(Point::deployment)
			.containsExactly("single", "single", "single-mariadb", "single-mariadb");
		assertThat(points).allSatisfy((point) -> {
			SweepEndToEndIT.assertMeasured(point.outcome(), "pool " + point.poolSize());
			assertThat(point.pool().observedMax()).as("observed maximum-pool-size per instance")
				.containsOnly(point.poolSize());
			assertThat(point.verified()).isTrue();
		});
		assertThat(outcome.results().databases()).extracting(DatabaseFacts::vendor)
			.containsExactly("PostgreSQL", "MariaDB");
		assertThat(outcome.results().databases()).extracting(DatabaseFacts::kind).containsOnly("embedded");
		assertThat(outcome.results().database()).isEqualTo(outcome.results().databases().get(0));
		Path run = outcome.directory();
		assertThat(ResultsStore.read(run.resolve(ResultsStore.RESULTS_JSON))).isEqualTo(outcome.results());
		assertThat(run.resolve("report.md")).content()
			.contains("Databases, one at a time: embedded PostgreSQL", "; then embedded MariaDB",
					"## PostgreSQL vs MariaDB", "### PostgreSQL vs MariaDB: single");
		for (int poolSize : List.of(2, 4)) {
			SweepEndToEndIT.assertSideBySideRow(run.resolve("report.md"),
					"\\| " + poolSize + " \\| 50 \\| [0-9]+ → [0-9]+ \\|",
					points.stream().filter((point) -> point.poolSize() == poolSize).toList(),
					outcome.results().p99ObjectiveMs());
		}
		assertThat(run.resolve("report.html")).content().contains("<h2>PostgreSQL vs MariaDB</h2>");
		assertThat(run.resolve("results.csv")).content().contains(",postgresql,", ",mariadb,");
		assertThat(MariaDbSweepIT.serverDirectory(run)).as("MariaDB's binaries and data, removed").doesNotExist();
		// MariaDB, swept second, was started and stopped once before anything was
		// measured.
		assertThat(console).contains("Checking that the embedded MariaDB starts here (it is swept after PostgreSQL)");
		assertThat(run.resolve("preflight-mariadb")).as("the trial's directory, removed").doesNotExist();
		assertThat(ProcessHandle.current().children().count()).as("processes left running").isEqualTo(childrenBefore);
	}

}
