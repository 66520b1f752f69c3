package org.poollab.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.SweepResults.Point;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The sweep against an existing PostgreSQL by URL: the machine's own at 127.0.0.1:5432
 * when one is reachable there (CI machines of this project have one), skipped otherwise.
 * The service's migrations create the three RBAC tables in that database.
 */
class ExternalDatabaseSweepTests {

	static final String URL = "jdbc:postgresql://127.0.0.1:5432/postgres";

	@TempDir
	Path output;

	@Test
	void sweepRunsAgainstAnExistingPostgresByUrl() throws Exception {
		assumeTrue(reachable(), "No PostgreSQL accepts user postgres at " + URL + ": nothing to test against");
		Sweep.Outcome outcome = BenchApplication.run("--bench.topologies=single", "--bench.poolSizes=2",
				"--bench.rates=50", "--bench.duration=2s", "--bench.warmup=1s", "--bench.topologyWarmup=0s",
				"--bench.database.url=" + URL, "--bench.database.username=postgres",
				"--bench.outputDirectory=" + this.output, "--bench.basePort=" + SweepEndToEndTests.freeBasePort(2));
		assertThat(outcome.results().database().kind()).isEqualTo("external");
		assertThat(outcome.results().database().url()).isEqualTo(URL);
		assertThat(outcome.results().database().version()).matches("\\d+(\\.\\d+)?.*");
		assertThat(outcome.results().points()).extracting(Point::outcome).containsOnly("ok");
		assertThat(this.output.resolve("latest/pgdata")).as("no embedded database started").doesNotExist();
	}

	private static boolean reachable() {
		try (Connection connection = Database.connect(URL, "postgres", "")) {
			return connection.isValid(2);
		}
		catch (SQLException ex) {
			return false;
		}
	}

}
