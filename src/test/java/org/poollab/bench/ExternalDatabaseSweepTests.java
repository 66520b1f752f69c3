package org.poollab.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.SweepResults.Point;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The sweep against an existing PostgreSQL by URL: the machine's own at 127.0.0.1:5432
 * when one is reachable there (CI machines of this project have one), skipped with a
 * message otherwise. The test works in a database of its own, created for it and dropped
 * afterwards, so the server is left as it was found.
 */
class ExternalDatabaseSweepTests {

	static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/";

	@TempDir
	Path output;

	@Test
	void sweepRunsAgainstAnExistingPostgresByUrl() throws Exception {
		assumeTrue(reachable(),
				"No PostgreSQL accepts user postgres at " + SERVER + "postgres: nothing to test against");
		String name = "poollab_test_" + ProcessHandle.current().pid();
		String url = SERVER + name;
		execute("CREATE DATABASE " + name);
		try {
			Sweep.Outcome outcome = BenchApplication.run("--bench.topologies=single", "--bench.poolSizes=2",
					"--bench.rates=50", "--bench.duration=2s", "--bench.warmup=1s", "--bench.topologyWarmup=0s",
					"--bench.database.url=" + url, "--bench.database.username=postgres",
					"--bench.outputDirectory=" + this.output, "--bench.basePort=" + SweepEndToEndTests.freeBasePort(1));
			assertThat(outcome.results().database().kind()).isEqualTo("external");
			assertThat(outcome.results().database().url()).isEqualTo(url);
			assertThat(outcome.results().database().version()).matches("\\d+(\\.\\d+)?.*");
			assertThat(outcome.results().points()).extracting(Point::outcome).containsOnly("ok");
			assertThat(this.output.resolve("latest/pgdata")).as("no embedded database started").doesNotExist();
		}
		finally {
			execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
		}
	}

	private static void execute(String sql) throws SQLException {
		try (Connection connection = Database.connect(SERVER + "postgres", "postgres", "");
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	private static boolean reachable() {
		try (Connection connection = Database.connect(SERVER + "postgres", "postgres", "")) {
			return connection.isValid(2);
		}
		catch (SQLException ex) {
			return false;
		}
	}

}
