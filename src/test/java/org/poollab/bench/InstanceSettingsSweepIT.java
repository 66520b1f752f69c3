package org.poollab.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.List;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import org.poollab.bench.deploy.CpuPinning;
import org.poollab.bench.lab.Programs;
import org.poollab.bench.load.GeneratorCheck;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.RequestThreads;
import org.poollab.bench.results.ResultsStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The source texts' instance settings and workloads through one tiny real sweep:
 * instances limited like the paper's (CPUs and heap), Tomcat's thread maximum as a
 * dimension of the grid, and the write-heavy workload (after Kamal, "Configuring
 * Connection Pooling with Spring R2DBC"), against a database the test owns so it can look
 * at the audit table afterwards: it must not grow across points or runs. One sweep for
 * the three: each is a setting of the same deployments, and a sweep costs its instances'
 * start-up. The same sweep asks for the pgbouncer topology on a machine without
 * pgbouncer: it is skipped, saying so, and the others run.
 */
@ExtendWith(OutputCaptureExtension.class)
class InstanceSettingsSweepIT {

	@TempDir
	Path output;

	@Test
	void pinnedInstancesWithTheirHeapAFreshDeploymentPerTomcatThreadCountTheWriteWorkloadAndNoPgBouncer(
			CapturedOutput console) throws Exception {
		try (EmbeddedPostgres database = EmbeddedPostgres.builder().start()) {
			Sweep.Outcome outcome = BenchApplication.run(System.out, Programs.installed().without("pgbouncer"),
					SweepEndToEndIT.NO_HOLD, SweepEndToEndIT.EVEN_ARRIVALS, "--bench.workload=write",
					"--bench.topologies=single,pgbouncer", "--bench.poolSizes=2,4", "--bench.rates=20",
					"--bench.duration=2s", "--bench.warmup=1s", "--bench.topologyWarmup=0s", "--bench.confirmation=0s",
					"--bench.adaptiveCap=0", "--bench.instanceCpus=1", "--bench.instanceHeap=192m",
					"--bench.tomcatThreads=20,200",
					"--bench.database.url=" + database.getJdbcUrl("postgres", "postgres"),
					"--bench.outputDirectory=" + this.output, "--bench.basePort=" + SweepEndToEndIT.freeBasePort(2));

			List<Point> points = outcome.results().points();
			assertThat(points).extracting(Point::topology).containsOnly("single");
			assertThat(console)
				.contains("pgbouncer is not installed (apt-get install pgbouncer): skipping the pgbouncer topology.");
			Limits twenty = new Limits(1, "192m", RequestThreads.platform(20));
			Limits twoHundred = new Limits(1, "192m", RequestThreads.platform(200));
			assertThat(points).extracting(Point::limits).containsExactly(twenty, twenty, twoHundred, twoHundred);
			// Each deployment's round runs the largest pool first.
			assertThat(points).extracting(Point::poolSize).containsExactly(4, 2, 4, 2);
			assertThat(outcome.results().workload()).isEqualTo("write (POST /roles/1/audit)");
			assertThat(points).allSatisfy((point) -> {
				SweepEndToEndIT.assertMeasured(point.outcome(), "pool " + point.poolSize());
				SweepEndToEndIT.assertServed(point, "201");
				// 20 rps for 2 s: 40 requests started in the window, give or take the
				// lab's rate tolerance for a point that measured the service (39 in a
				// fresh-clone run beside two other test JVMs); a generator-bound one sent
				// what JMeter could.
				assertThat(point.samples()).isPositive();
				if (point.ok()) {
					double sent = point.rateRps() * point.durationSeconds();
					double tolerance = GeneratorCheck.rateTolerance(point);
					assertThat(point.samples()).isBetween((long) Math.ceil(sent * (1 - tolerance)),
							(long) Math.floor(sent * (1 + tolerance)));
				}
			});
			assertThat(ResultsStore.read(outcome.directory().resolve(ResultsStore.RESULTS_JSON)))
				.isEqualTo(outcome.results());
			try (Connection connection = database.getPostgresDatabase().getConnection();
					ResultSet rows = connection.createStatement().executeQuery("SELECT count(*) FROM role_audit")) {
				rows.next();
				assertThat(rows.getLong(1)).as("rows left in role_audit").isZero();
			}

			// What each instance reported about itself (Instance.verifyLimits): the CPU
			// the kernel lets it run on, the processors the JVM sees, its heap and
			// Tomcat's maximum threads. The first instance is pinned to the first CPU of
			// the host.
			String pinned = "runs with CPU(s) %d, 1 processor(s), heap max ".formatted(CpuPinning.allowedCpus().get(0));
			assertThat(console).contains(pinned, "(-Xmx192m), Tomcat threads max 20, requests on platform threads\n",
					"(-Xmx192m), Tomcat threads max 200, requests on platform threads\n");
			assertThat(outcome.directory().resolve("deploy/single-tomcat20")).isDirectory();
			assertThat(outcome.directory().resolve("deploy/single-tomcat200")).isDirectory();
			assertThat(outcome.directory().resolve("report.md")).content()
				.contains("## Topology single: 1 instance (1 CPU, heap 192m, 20 Tomcat threads)",
						"## Topology single: 1 instance (1 CPU, heap 192m, 200 Tomcat threads)");
		}
	}

}
