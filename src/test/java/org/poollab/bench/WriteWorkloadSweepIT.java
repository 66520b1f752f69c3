package org.poollab.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.results.Point;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The write-heavy workload (after Kamal, "Configuring Connection Pooling with Spring
 * R2DBC") through the whole sweep, against a database the test owns so it can look at the
 * table afterwards: it must not grow across points or runs.
 */
class WriteWorkloadSweepIT {

	@TempDir
	Path output;

	@Test
	void writeWorkloadInsertsPerRequestAndLeavesTheTableEmpty() throws Exception {
		try (EmbeddedPostgres database = EmbeddedPostgres.builder().start()) {
			Sweep.Outcome outcome = BenchApplication.run(SweepEndToEndIT.NO_HOLD, SweepEndToEndIT.EVEN_ARRIVALS,
					"--bench.workload=write", "--bench.topologies=single", "--bench.poolSizes=2,4", "--bench.rates=20",
					"--bench.duration=2s", "--bench.warmup=1s", "--bench.topologyWarmup=0s", "--bench.confirmation=0s",
					"--bench.adaptiveCap=0", "--bench.database.url=" + database.getJdbcUrl("postgres", "postgres"),
					"--bench.outputDirectory=" + this.output, "--bench.basePort=" + SweepEndToEndIT.freeBasePort(2));
			assertThat(outcome.results().workload()).isEqualTo("write (POST /roles/1/audit)");
			assertThat(outcome.results().points()).hasSize(2).allSatisfy((point) -> {
				SweepEndToEndIT.assertMeasured(point.outcome(), "pool " + point.poolSize());
				assertThat(point.statusCounts()).containsOnlyKeys("201");
				assertThat(point.samples()).isEqualTo(40);
			});
			// A round runs the largest pool first.
			assertThat(outcome.results().points()).extracting(Point::poolSize).containsExactly(4, 2);
			try (Connection connection = database.getPostgresDatabase().getConnection();
					ResultSet rows = connection.createStatement().executeQuery("SELECT count(*) FROM role_audit")) {
				rows.next();
				assertThat(rows.getLong(1)).as("rows left in role_audit").isZero();
			}
		}
	}

}
