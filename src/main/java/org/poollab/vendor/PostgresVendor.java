package org.poollab.vendor;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import org.jspecify.annotations.Nullable;

/**
 * PostgreSQL: the lab's first vendor and its default; pgjdbc, and the embedded server of
 * {@link EmbeddedPostgresServer}.
 */
final class PostgresVendor implements Vendor {

	/** Its SQLSTATE for "sorry, too many clients already". */
	static final String TOO_MANY_CLIENTS = "53300";

	/**
	 * The embedded server's {@code superuser_reserved_connections}, PostgreSQL's default
	 * ({@code reserved_connections} is 0).
	 */
	static final int EMBEDDED_RESERVED_CONNECTIONS = 3;

	/**
	 * The backend CPU each unit count is measured over: the kernel counts a process's CPU
	 * in ticks of 10 ms, a twentieth of it.
	 */
	static final Duration CPU_PER_COUNT = Duration.ofMillis(200);

	@Override
	public String product() {
		return "PostgreSQL";
	}

	@Override
	public List<String> driverProducts() {
		return List.of("PostgreSQL");
	}

	@Override
	public List<String> urlPrefixes() {
		return List.of("jdbc:postgresql:");
	}

	@Override
	public String exampleUrl() {
		return "jdbc:postgresql://127.0.0.1:5432/postgres";
	}

	/**
	 * pgjdbc counts seconds. {@code loginTimeout} bounds the whole login, which a server
	 * that accepts and never answers would otherwise stretch forever;
	 * {@code socketTimeout} every answer afterwards.
	 */
	@Override
	public Properties labConnectionProperties() {
		Properties properties = new Properties();
		properties.setProperty("connectTimeout", "3");
		properties.setProperty("loginTimeout", "3");
		properties.setProperty("socketTimeout", "30");
		properties.setProperty("ApplicationName", "pool-sizing-lab");
		return properties;
	}

	@Override
	public String settingsQuery() {
		return """
				SELECT current_setting('server_version'), current_setting('max_connections')::int,
				       current_setting('superuser_reserved_connections')::int
				       + coalesce(current_setting('reserved_connections', true)::int, 0)""";
	}

	/** pgjdbc's error code is always 0: the SQLSTATE tells. */
	@Override
	public boolean tooManyConnections(@Nullable String sqlState, int errorCode) {
		return TOO_MANY_CLIENTS.equals(sqlState);
	}

	@Override
	public String tooManyConnectionsWords() {
		return "too many clients";
	}

	@Override
	public boolean pooledByPgBouncer() {
		return true;
	}

	@Override
	public boolean runsReactiveTwin() {
		return true;
	}

	@Override
	public String sleepStatement() {
		return "SELECT pg_sleep(?)";
	}

	/** Sums a generated series in the executor. */
	@Override
	public String cpuStatement() {
		return "SELECT sum(i) FROM (SELECT generate_series(1, ?) AS i) series";
	}

	/**
	 * The backend serving this connection ({@code pg_backend_pid()}), a process of its
	 * own, when it is a postgres process of this machine whose CPU time can be read.
	 */
	@Override
	public Optional<ConnectionCpu> connectionCpu(Connection connection) {
		try (Statement query = connection.createStatement();
				ResultSet pid = query.executeQuery("SELECT pg_backend_pid()")) {
			pid.next();
			return ProcessHandle.of(pid.getLong(1))
				.filter((process) -> process.info().command().orElse("").endsWith("postgres"))
				.filter((process) -> process.info().totalCpuDuration().isPresent())
				.map(BackendCpu::new);
		}
		catch (SQLException ex) {
			return Optional.empty();
		}
	}

	@Override
	public String embeddedUser() {
		return EmbeddedPostgresServer.USER;
	}

	@Override
	public int embeddedMaxConnections() {
		return EmbeddedPostgresServer.MAX_CONNECTIONS;
	}

	@Override
	public int embeddedReservedConnections() {
		return EMBEDDED_RESERVED_CONNECTIONS;
	}

	@Override
	public String embeddedLog() {
		return "postgres.log";
	}

	@Override
	public EmbeddedDatabase startEmbedded() {
		return EmbeddedPostgresServer.start(EmbeddedPostgresServer.MAX_CONNECTIONS);
	}

	/** The cluster lives in the run's directory, {@code pgdata}. */
	@Override
	public EmbeddedDatabase startEmbedded(Path runDirectory, Path log) {
		return EmbeddedPostgresServer.start(EmbeddedPostgresServer.MAX_CONNECTIONS, runDirectory.resolve("pgdata"),
				log);
	}

	/** A backend's user + system time, in the kernel's ticks of 10 ms. */
	private record BackendCpu(ProcessHandle process) implements ConnectionCpu {

		@Override
		public long nanos() {
			return this.process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
		}

		@Override
		public String name() {
			return "backend";
		}

		@Override
		public Duration perCount() {
			return CPU_PER_COUNT;
		}

	}

}
