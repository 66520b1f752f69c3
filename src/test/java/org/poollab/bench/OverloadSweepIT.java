package org.poollab.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.grid.HoldTimeFrom;
import org.poollab.bench.results.Point;
import org.poollab.vendor.EmbeddedPostgresServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Overload is what the lab is run to find: a drowning pool or a database at its
 * connection limit is recorded as a result of the point, named for what it is, and never
 * breaks the sweep.
 */
class OverloadSweepIT {

	/**
	 * The first round's announcement, which the sweep prints once the deployment is up
	 * and warm and before the round's JMeter starts.
	 */
	private static final String FIRST_POINT = "single-run1:";

	/** PostgreSQL's SQLSTATE for "too many clients already". */
	private static final String TOO_MANY_CLIENTS = "53300";

	@TempDir
	Path output;

	/**
	 * A pool too small for the hold drowns, and that is recorded, not fatal. At 100 rps a
	 * 20 ms hold keeps two connections busy on average (Little's law): a pool of 1 cannot
	 * keep up and its requests time out waiting for the connection (503, counted as pool
	 * timeouts), while a pool of 5 can. The hold is the one each instance emulates on the
	 * request path and times; the exposition the instance left as it stopped, read as
	 * {@code bench.holdTimeFrom} reads a team's, gives the hold back.
	 */
	@Test
	void aDrowningPoolIsRecordedNotFatal() throws Exception {
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
				assertThat(point.verified()).isTrue();
				// The emulated 20 ms, less at most the padding's 2 ms correction: a
				// missing hold falls below. No upper bound: a busy machine adds its
				// scheduling delays to every hold (22.3 ms beside a second build, 35.6 ms
				// in CI's run of 20874a8, 2026-11-28); the report's hold table marks such
				// a cell, where it shows one, with † (more than 10 % off the asked, in
				// HoldModelTable). That the hold is padded once per transaction, and only
				// what remains of it, HoldTransactionManagerTests shows without a clock.
				assertThat(point.pool().holdMeanMs()).as("pool %d: measured mean hold", point.poolSize())
					.isGreaterThanOrEqualTo(18.0);
			}
			// Pool 5 keeps up where pool 1 drowns: the queueing is the pool's, so fewer
			// requests time out waiting for a connection. Not an absolute latency: beside
			// two other test JVMs on a slower machine pool 5's p99 read 1106 ms
			// (2026-11-28), the machine's stalls, not its pool.
			assertThat(five.pool().timeouts()).as("pool 5 keeps up: fewer connection waits time out than at pool 1")
				.isLessThan(one.pool().timeouts());
			// Recorded, not a lab failure. On a slow box a fresh JMeter can send its
			// first
			// requests a few ms late, which marks the window generator-bound; either way
			// the point keeps what the instance saw, which is what this test is about.
			assertThat(one.outcome()).satisfiesAnyOf((said) -> assertThat(said).isEqualTo("ok"),
					(said) -> assertThat(said).startsWith("generator-bound: JMeter sent late"));
			assertThat(one.statusCounts()).containsKey("503");
			assertThat(one.refused("pool-timeout")).as("503s the instance counted as pool timeouts").isPositive();
			assertThat(one.pool().timeouts()).isPositive();
			assertThat(outcome.directory().resolve("report.md")).content()
				.contains("pool-timeout", "Connection hold and the queueing model");

			// The exposition the instance left as it stopped, read as a team's is.
			Path exposition;
			try (Stream<Path> files = Files.walk(this.output)) {
				exposition = files.filter((file) -> file.getFileName().toString().endsWith("-prometheus.txt"))
					.findFirst()
					.orElseThrow();
			}
			HoldTimeFrom.Read read = HoldTimeFrom.read(exposition.toString());
			// HikariCP's usage counts whole milliseconds: a 20 ms hold reads 20 (or 19
			// where a hold ended just short of it), more on a busy machine, as above.
			assertThat(read.hold().meanMs()).isGreaterThanOrEqualTo(18.0);
			assertThat(read.histogram()).as("the instance's usage histogram, drawn from").isNotNull();
			assertThat(read.histogram().quantileMs(0.99)).isGreaterThanOrEqualTo(read.hold().meanMs());
			assertThat(read.description()).contains("pool \"roles-", "these are totals since start");
		}
	}

	@Test
	void aDatabaseAtItsConnectionLimitIsReportedAsSuch() throws Exception {
		int base = SweepEndToEndIT.freeBasePort(1);
		try (EmbeddedPostgresServer database = EmbeddedPostgresServer.start(20)) {
			// Once the instance is up and warmed up, and before the point's load starts,
			// this takes every connection the server has: each request of the unpooled
			// instance then finds the server full.
			List<Connection> hog = new ArrayList<>();
			ConsoleCue fill = ConsoleCue.on(FIRST_POINT, () -> fill(database, hog));
			Sweep.Outcome outcome;
			try {
				outcome = BenchApplication.run(fill, SweepEndToEndIT.NO_HOLD, SweepEndToEndIT.EVEN_ARRIVALS,
						"--bench.topologies=single", "--bench.poolSizes=none", "--bench.rates=50",
						"--bench.duration=2s", "--bench.warmup=2s", "--bench.topologyWarmup=2s",
						"--bench.confirmation=0s", "--bench.database.url=" + database.jdbcUrl(),
						"--bench.outputDirectory=" + this.output, "--bench.basePort=" + base);
			}
			finally {
				for (Connection connection : hog) {
					connection.close();
				}
			}
			assertThat(fill.ran()).as("the server was filled before the point's load").isTrue();
			assertThat(hog).as("connections that filled the server").isNotEmpty();

			Point point = outcome.results().points().get(0);
			SweepEndToEndIT.assertMeasured(point.outcome(), "no pool");
			assertThat(point.statusCounts()).containsOnlyKeys("503");
			assertThat(point.refused("too-many-clients")).as("503s the instance counted as too many clients")
				.isPositive();
			assertThat(point.refused("pool-timeout")).isZero();
			assertThat(outcome.directory().resolve("report.md")).content().contains("too-many-clients");
		}
	}

	/**
	 * Takes connections until the server is full and every connection on it is one of
	 * {@code hog}: a backend whose client (the warm-up's requests) has let go frees its
	 * slot a moment later, which would let a request of the window through.
	 */
	private static void fill(EmbeddedPostgresServer database, List<Connection> hog) {
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			try {
				while (true) {
					hog.add(DriverManager.getConnection(database.jdbcUrl()));
				}
			}
			catch (SQLException full) {
				if (!TOO_MANY_CLIENTS.equals(full.getSQLState())) {
					throw full;
				}
			}
			return !hog.isEmpty() && clientBackends(hog.get(0)) == hog.size();
		});
	}

	private static long clientBackends(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet count = statement
					.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'")) {
			count.next();
			return count.getLong(1);
		}
	}

}
