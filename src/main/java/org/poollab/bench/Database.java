package org.poollab.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import org.poollab.bench.BenchProperties.ExternalDatabase;
import org.poollab.service.database.EmbeddedPostgresServer;

/**
 * The one PostgreSQL every instance of a sweep shares: embedded (started once by the lab)
 * or external (by URL, started by nobody here).
 */
final class Database implements AutoCloseable {

	/** Room for the largest preset grids; see {@link #requireBudget}. */
	static final int EMBEDDED_MAX_CONNECTIONS = 300;

	/**
	 * PostgreSQL's default superuser_reserved_connections (reserved_connections is 0).
	 */
	static final int EMBEDDED_RESERVED_CONNECTIONS = 3;

	private final String kind;

	private final String url;

	private final String username;

	private final String password;

	private final EmbeddedPostgresServer embedded;

	private final Settings settings;

	private Database(String kind, String url, String username, String password, EmbeddedPostgresServer embedded)
			throws SQLException {
		this.kind = kind;
		this.url = url;
		this.username = username;
		this.password = password;
		this.embedded = embedded;
		this.settings = readSettings();
	}

	/**
	 * The settings the embedded server will have, known before it starts.
	 */
	static Settings embeddedSettings() {
		return new Settings("PostgreSQL (embedded)", EMBEDDED_MAX_CONNECTIONS, EMBEDDED_RESERVED_CONNECTIONS);
	}

	static Database embedded(Path dataDirectory, ChildProcesses processes) throws SQLException, IOException {
		EmbeddedPostgresServer server = EmbeddedPostgresServer.start(EMBEDDED_MAX_CONNECTIONS, dataDirectory);
		Path pidFile = dataDirectory.resolve("postmaster.pid");
		if (Files.isRegularFile(pidFile)) {
			long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
			ProcessHandle.of(pid).ifPresent((postmaster) -> processes.track("postgres", postmaster));
		}
		try {
			return new Database("embedded", server.jdbcUrl(), EmbeddedPostgresServer.USER, "", server);
		}
		catch (SQLException ex) {
			server.close();
			throw ex;
		}
	}

	static Database external(ExternalDatabase external) throws SQLException {
		return new Database("external", external.url(), external.username(), external.password(), null);
	}

	/**
	 * Refuses a grid whose fleet could ask PostgreSQL for more connections than it
	 * accepts from regular users.
	 */
	static void requireBudget(Settings settings, int instances, int poolSize) {
		int needed = instances * poolSize;
		if (needed > settings.usableConnections()) {
			throw new BenchSettingException(
					"The connection budget does not fit: %d instance(s) x maximum-pool-size %d = %d connections, but PostgreSQL accepts %d (max_connections %d - %d reserved). Lower bench.poolSizes or bench.instances, or raise max_connections."
						.formatted(instances, poolSize, needed, settings.usableConnections(), settings.maxConnections(),
								settings.reservedConnections()));
		}
	}

	String url() {
		return this.url;
	}

	String username() {
		return this.username;
	}

	String password() {
		return this.password;
	}

	Settings settings() {
		return this.settings;
	}

	org.poollab.bench.SweepResults.Database describe() {
		return new org.poollab.bench.SweepResults.Database(this.kind, withoutQuery(this.url), this.settings.version(),
				this.settings.maxConnections(), this.settings.reservedConnections());
	}

	Connection connect() throws SQLException {
		return connect(this.url, this.username, this.password);
	}

	@Override
	public void close() {
		if (this.embedded != null) {
			this.embedded.close();
		}
	}

	private Settings readSettings() throws SQLException {
		try (Connection connection = connect();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("""
						SELECT current_setting('server_version'), current_setting('max_connections')::int,
						       current_setting('superuser_reserved_connections')::int
						       + coalesce(current_setting('reserved_connections', true)::int, 0)""")) {
			rs.next();
			return new Settings(rs.getString(1), rs.getInt(2), rs.getInt(3));
		}
	}

	/**
	 * A connection with short timeouts (pgjdbc, seconds): an unreachable database is a
	 * quick, clear error, not a long hang. {@code loginTimeout} bounds the whole login,
	 * which a server that accepts and never answers would otherwise stretch forever;
	 * {@code socketTimeout} bounds every answer afterwards, which is safe here because
	 * the lab's own statements (settings, {@code TRUNCATE} between points, pgbouncer's
	 * admin console) answer in milliseconds. The instances' pools get no socketTimeout:
	 * it would cut off the measured queries.
	 */
	static Connection connect(String url, String username, String password) throws SQLException {
		Properties properties = new Properties();
		properties.setProperty("user", username);
		if (!password.isEmpty()) {
			properties.setProperty("password", password);
		}
		properties.setProperty("connectTimeout", "3");
		properties.setProperty("loginTimeout", "3");
		properties.setProperty("socketTimeout", "30");
		properties.setProperty("ApplicationName", "pool-sizing-lab");
		return DriverManager.getConnection(url, properties);
	}

	static String withoutQuery(String url) {
		int query = url.indexOf('?');
		return (query >= 0) ? url.substring(0, query) : url;
	}

	/**
	 * @param version the server's version string
	 * @param maxConnections {@code max_connections}
	 * @param reservedConnections slots regular users cannot take
	 */
	record Settings(String version, int maxConnections, int reservedConnections) {

		int usableConnections() {
			return this.maxConnections - this.reservedConnections;
		}

	}

}
