package org.poollab.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.SweepResults.Point;
import org.poollab.service.database.EmbeddedPostgresServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Overload is what the lab is run to find: a drowning pool or a database at its
 * connection limit is recorded as a result of the point, named for what it is, and never
 * breaks the sweep.
 */
class OverloadSweepTests {

	@TempDir
	Path output;

	@Test
	void aDrowningPoolIsRecordedNotFatal() throws Exception {
		int base = SweepEndToEndTests.freeBasePort(1);
		Ports ports = new Ports(base, 1);
		try (EmbeddedPostgresServer database = EmbeddedPostgresServer.start(20);
				Connection locker = DriverManager.getConnection(database.jdbcUrl())) {
			// Load alone drowns a pool of 1 only on a slow enough machine. Instead the
			// first request's statement waits on a lock for the whole point, holding the
			// one connection: every other request waits out the connection-timeout.
			locker.setAutoCommit(false);
			Thread lock = new Thread(() -> {
				await().atMost(Duration.ofSeconds(120)).until(() -> answers(ports.management(0), "health"));
				try (Statement statement = locker.createStatement()) {
					statement.execute("LOCK TABLE roles IN ACCESS EXCLUSIVE MODE");
				}
				catch (SQLException ex) {
					throw new IllegalStateException(ex);
				}
			});
			lock.start();
			Sweep.Outcome outcome;
			try {
				outcome = BenchApplication.run("--bench.topologies=single", "--bench.poolSizes=1", "--bench.rates=50",
						"--bench.duration=2s", "--bench.warmup=1s", "--bench.topologyWarmup=0s",
						"--bench.database.url=" + database.jdbcUrl(), "--bench.outputDirectory=" + this.output,
						"--bench.basePort=" + base);
			}
			finally {
				lock.join();
				locker.rollback();
			}

			Point point = outcome.results().points().get(0);
			assertThat(point.outcome()).isEqualTo("ok");
			assertThat(point.verified()).isTrue();
			assertThat(point.statusCounts()).containsKey("503");
			assertThat(point.refused("pool-timeout")).as("503s the instance counted as pool timeouts").isPositive();
			assertThat(point.pool().timeouts()).isPositive();
			assertThat(outcome.directory().resolve("report.md")).content().contains("pool-timeout");
		}
	}

	@Test
	void aDatabaseAtItsConnectionLimitIsReportedAsSuch() throws Exception {
		int base = SweepEndToEndTests.freeBasePort(1);
		Ports ports = new Ports(base, 1);
		try (EmbeddedPostgresServer database = EmbeddedPostgresServer.start(20)) {
			// Once the load has started (the instance migrated, passed its health check
			// and served /roles), this takes every connection the server has left: each
			// request of the unpooled instance then finds the server full.
			List<Connection> hog = new ArrayList<>();
			Thread filler = new Thread(() -> {
				await().atMost(Duration.ofSeconds(120))
					.until(() -> answers(ports.management(0), "metrics/http.server.requests?tag=uri:/roles"));
				try {
					while (true) {
						hog.add(DriverManager.getConnection(database.jdbcUrl()));
					}
				}
				catch (SQLException full) {
					// "too many clients already": the server is full.
				}
			});
			filler.start();
			Sweep.Outcome outcome;
			try {
				outcome = BenchApplication.run("--bench.topologies=single", "--bench.poolSizes=none",
						"--bench.rates=50", "--bench.duration=2s", "--bench.warmup=2s", "--bench.topologyWarmup=2s",
						"--bench.database.url=" + database.jdbcUrl(), "--bench.outputDirectory=" + this.output,
						"--bench.basePort=" + base);
			}
			finally {
				filler.join();
				for (Connection connection : hog) {
					connection.close();
				}
			}
			assertThat(hog).as("connections that filled the server").isNotEmpty();

			Point point = outcome.results().points().get(0);
			assertThat(point.outcome()).isEqualTo("ok");
			assertThat(point.statusCounts()).containsOnlyKeys("503");
			assertThat(point.refused("too-many-clients")).as("503s the instance counted as too many clients")
				.isPositive();
			assertThat(point.refused("pool-timeout")).isZero();
			assertThat(outcome.directory().resolve("report.md")).content().contains("too-many-clients");
		}
	}

	private static boolean answers(int managementPort, String endpoint) {
		try {
			HttpResponse<Void> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/" + endpoint))
					.timeout(Duration.ofSeconds(1))
					.build(), HttpResponse.BodyHandlers.discarding());
			return response.statusCode() == 200;
		}
		catch (Exception notYet) {
			return false;
		}
	}

}
