package org.poollab.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.grid.HoldTimeFrom;
import org.poollab.bench.results.Point;
import org.poollab.service.database.EmbeddedPostgresServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The hold is a dimension the lab measures on the real request path: at 100 rps a 20 ms
 * hold keeps two connections busy on average (Little's law), so a pool of 1 cannot keep
 * up and a pool of 5 can; each instance times the hold it really kept; and the exposition
 * the instance left behind, read as {@code bench.holdTimeFrom} reads a team's, gives the
 * hold back.
 */
class HoldTimeSweepIT {

	@TempDir
	Path output;

	@Test
	void aTwentyMillisecondHoldNeedsMoreThanOneConnectionAtOneHundredRps() throws Exception {
		int base = SweepEndToEndIT.freeBasePort(1);
		try (EmbeddedPostgresServer database = EmbeddedPostgresServer.start(20)) {
			Sweep.Outcome outcome = BenchApplication.run(System.out, "--bench.preset=quick",
					"--bench.topologies=single", "--bench.poolSizes=5,1", "--bench.rates=100", "--bench.holdTime=20ms",
					"--bench.duration=3s", "--bench.warmup=1s", "--bench.topologyWarmup=0s", "--bench.confirmation=0s",
					"--bench.adaptiveCap=0s", "--bench.database.url=" + database.jdbcUrl(),
					"--bench.outputDirectory=" + this.output, "--bench.basePort=" + base);

			List<Point> points = outcome.results().points();
			Point five = points.stream().filter((point) -> point.poolSize() == 5).findFirst().orElseThrow();
			Point one = points.stream().filter((point) -> point.poolSize() == 1).findFirst().orElseThrow();
			assertThat(five.limits().hold()).isNotNull();
			assertThat(five.limits().hold().meanMs()).isEqualTo(20.0);
			for (Point point : points) {
				assertThat(point.pool().holdMeanMs()).as("pool %d: measured mean hold", point.poolSize())
					.isCloseTo(20.0, within(2.0));
			}
			assertThat(five.errors()).as("pool 5 keeps up").isZero();
			assertThat(five.latency().p99Ms()).as("pool 5 keeps up").isLessThan(100);
			assertThat(one.latency().p99Ms() > 100 || one.errorPercent() > 0.1)
				.as("pool 1 cannot keep up: p99 %.0f ms, errors %.1f %%", one.latency().p99Ms(), one.errorPercent())
				.isTrue();

			// The exposition the instance left as it stopped, read as a team's is.
			Path exposition;
			try (Stream<Path> files = Files.walk(this.output)) {
				exposition = files.filter((file) -> file.getFileName().toString().endsWith("-prometheus.txt"))
					.findFirst()
					.orElseThrow();
			}
			HoldTimeFrom.Read read = HoldTimeFrom.read(exposition.toString());
			// HikariCP's usage counts whole milliseconds: a 20 ms hold reads 20 (or 19
			// where a hold ended just short of it).
			assertThat(read.hold().meanMs()).isCloseTo(20.0, within(2.0));
			assertThat(read.hold().p99Ms()).isNotNull();
			assertThat(read.description()).contains("pool \"roles-");
		}
	}

}
