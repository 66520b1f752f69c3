package org.poollab.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.deploy.Database;
import org.poollab.bench.results.Point;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The sweep against an existing PostgreSQL by URL. It runs only against a server it is
 * pointed at, by {@value #URL_VARIABLE} (the JDBC URL of a database there that user
 * {@code postgres} may connect to without a password, e.g.
 * {@code jdbc:postgresql://127.0.0.1:5432/postgres}), and is skipped with a message
 * otherwise. The test works in a database of its own, created for it and dropped
 * afterwards, so the server is left as it was found.
 */
class ExternalDatabaseSweepIT {

	static final String URL_VARIABLE = "POOLLAB_EXTERNAL_PG_URL";

	/** {@code jdbc:postgresql://host:port/}, the database name, then any parameters. */
	private static final Pattern DATABASE_IN_URL = Pattern.compile("(jdbc:postgresql://[^/?]+/)([^?]*)(.*)");

	@TempDir
	Path output;

	@Test
	void sweepRunsAgainstAnExistingPostgresByUrl() throws Exception {
		String server = System.getenv(URL_VARIABLE);
		assumeTrue(server != null && !server.isBlank(), URL_VARIABLE
				+ " is not set: no PostgreSQL to test against (e.g. jdbc:postgresql://127.0.0.1:5432/postgres; the test creates and drops a database of its own there)");
		Matcher parts = DATABASE_IN_URL.matcher(server);
		assertThat(parts.matches()).as("%s=%s is a jdbc:postgresql://host:port/database URL", URL_VARIABLE, server)
			.isTrue();
		String name = "poollab_test_" + ProcessHandle.current().pid();
		String url = parts.group(1) + name + parts.group(3);
		execute(server, "CREATE DATABASE " + name);
		try {
			Sweep.Outcome outcome = BenchApplication.run(SweepEndToEndIT.NO_HOLD, SweepEndToEndIT.EVEN_ARRIVALS,
					"--bench.topologies=single", "--bench.poolSizes=2", "--bench.rates=50", "--bench.duration=2s",
					"--bench.warmup=1s", "--bench.topologyWarmup=0s", "--bench.confirmation=0s",
					"--bench.database.url=" + url, "--bench.database.username=postgres",
					"--bench.outputDirectory=" + this.output, "--bench.basePort=" + SweepEndToEndIT.freeBasePort(1));
			assertThat(outcome.results().database().kind()).isEqualTo("external");
			assertThat(outcome.results().database().url()).isEqualTo(url);
			assertThat(outcome.results().database().version()).matches("\\d+(\\.\\d+)?.*");
			assertThat(outcome.results().points()).isNotEmpty()
				.allSatisfy((point) -> SweepEndToEndIT.assertMeasured(point.outcome(), "pool " + point.poolSize()));
			assertThat(this.output.resolve("latest/pgdata")).as("no embedded database started").doesNotExist();
		}
		finally {
			execute(server, "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
		}
	}

	private static void execute(String server, String sql) throws SQLException {
		try (Connection connection = Database.connect(server, "postgres", "");
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

}
