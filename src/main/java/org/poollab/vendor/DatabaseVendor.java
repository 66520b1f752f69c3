package org.poollab.vendor;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The databases the lab runs on, by name: the one list of the vendor implementations
 * ({@link Vendor}), and what the rest of the lab asks of a vendor. A service takes its
 * vendor from {@value #PROPERTY} ({@code postgresql}, the default, or {@code mariadb}:
 * MariaDB, or MySQL through MariaDB Connector/J), which also picks its
 * {@code db/<vendor>.yml} (driver properties, migrations) through
 * {@code application.yml}'s import; the sweep from {@code bench.database.vendor}. The
 * names are Spring Boot's own for the two ({@code DatabaseDriver}, Flyway's
 * {@code {vendor}} locations), and {@code results.json} records them as written here.
 * <p>
 * Nothing outside this package tells vendors apart by their constants ({@code ==}, a
 * {@code switch}, a default): it asks the vendor instead, and {@code VendorRoomTests}
 * fails the build on such a branch. Adding a vendor is one {@link Vendor} implementation,
 * its constant here, and its resources ({@code db/<vendor>.yml},
 * {@code db/migration/<vendor>/}).
 */
public enum DatabaseVendor {

	POSTGRESQL(new PostgresVendor()),

	MARIADB(new MariaDbVendor());

	public static final String PROPERTY = "lab.database";

	/**
	 * What runs when nothing names a vendor. Results written before the lab recorded
	 * vendors ran on it, and read as such, so it stays PostgreSQL.
	 */
	public static final DatabaseVendor DEFAULT = POSTGRESQL;

	private final Vendor vendor;

	DatabaseVendor(Vendor vendor) {
		this.vendor = vendor;
	}

	/**
	 * The configured vendor; a value that names none fails the way Spring Boot fails any
	 * property it cannot bind, listing the allowed values.
	 */
	public static DatabaseVendor of(Environment environment) {
		return Binder.get(environment).bind(PROPERTY, DatabaseVendor.class).orElse(DEFAULT);
	}

	/** The vendor a JDBC URL is for, or {@code null} when it is for none. */
	public static @Nullable DatabaseVendor ofUrl(String url) {
		return Arrays.stream(values()).filter((vendor) -> vendor.accepts(url)).findFirst().orElse(null);
	}

	/**
	 * The vendor of a server as its JDBC driver names it
	 * ({@code DatabaseMetaData.getDatabaseProductName()}), e.g. {@code MySQL}: MariaDB's.
	 */
	public static Optional<DatabaseVendor> ofProduct(String product) {
		return Arrays.stream(values()).filter((vendor) -> vendor.vendor.driverProducts().contains(product)).findFirst();
	}

	/**
	 * The vendor a preset names by its {@link #propertyValue()}, as
	 * {@code bench.database.vendor} would.
	 * @throws IllegalArgumentException when it names none
	 */
	public static DatabaseVendor named(String value) {
		return Arrays.stream(values())
			.filter((vendor) -> vendor.propertyValue().equals(value))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException(
					"No database vendor is named %s: use %s".formatted(value, allowedValues())));
	}

	/** Every vendor's {@link #propertyValue()}, e.g. {@code postgresql or mariadb}. */
	public static String allowedValues() {
		return either(Arrays.stream(values()).map(DatabaseVendor::propertyValue).toList());
	}

	/**
	 * The servers the lab reads, as their drivers name them, e.g.
	 * {@code PostgreSQL, MariaDB or MySQL}.
	 */
	public static String driverProducts() {
		return either(Arrays.stream(values()).flatMap((vendor) -> vendor.vendor.driverProducts().stream()).toList());
	}

	/** The products of the vendors that have something, e.g. {@code PostgreSQL}. */
	public static String productsThat(Predicate<DatabaseVendor> has) {
		return either(Arrays.stream(values()).filter(has).map(DatabaseVendor::product).toList());
	}

	/**
	 * Whether a refusal is some vendor's "too many connections": the database at its
	 * connection limit, not the pool. Each vendor's code is one the others never report.
	 * @param sqlState the SQLSTATE, if any
	 * @param errorCode the vendor's error code (0 where the driver has none)
	 */
	public static boolean tooManyConnections(@Nullable String sqlState, int errorCode) {
		return Arrays.stream(values()).anyMatch((vendor) -> vendor.vendor.tooManyConnections(sqlState, errorCode));
	}

	private static String either(List<String> names) {
		if (names.size() < 2) {
			return String.join("", names);
		}
		return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
	}

	/** Whether its driver takes the URL. */
	public boolean accepts(String url) {
		return urlPrefixes().stream().anyMatch(url::startsWith);
	}

	/** What the server is called in messages, e.g. {@code MariaDB}. */
	public String product() {
		return this.vendor.product();
	}

	/** The value of {@value #PROPERTY} that names this vendor. */
	public String propertyValue() {
		return name().toLowerCase(Locale.ROOT);
	}

	/** Whether it is {@link #DEFAULT}, which labels and settings need not name. */
	public boolean isDefault() {
		return this == DEFAULT;
	}

	/** The JDBC URL prefixes its driver takes, the usual one first. */
	public List<String> urlPrefixes() {
		return this.vendor.urlPrefixes();
	}

	/** A URL to show as an example. */
	public String exampleUrl() {
		return this.vendor.exampleUrl();
	}

	/**
	 * Driver properties for the lab's own short statements: timeouts that make an
	 * unreachable database a quick error (in the units its driver counts), and the
	 * program's name as the server shows it.
	 */
	public Properties labConnectionProperties() {
		return this.vendor.labConnectionProperties();
	}

	/**
	 * One row: the server's version, its {@code max_connections} and the slots regular
	 * users cannot take.
	 */
	public String settingsQuery() {
		return this.vendor.settingsQuery();
	}

	/**
	 * Its "too many connections" as its server words it, e.g. {@code too many clients}.
	 */
	public String tooManyConnectionsWords() {
		return this.vendor.tooManyConnectionsWords();
	}

	/** Whether pgbouncer can pool its connections: it speaks PostgreSQL's protocol. */
	public boolean pooledByPgBouncer() {
		return this.vendor.pooledByPgBouncer();
	}

	/**
	 * Whether the reactive twin ({@code org.poollab.reactive}) runs on it: an R2DBC
	 * driver and the twin's SQL.
	 */
	public boolean runsReactiveTwin() {
		return this.vendor.runsReactiveTwin();
	}

	/**
	 * A statement that holds the connection, waiting, for its one parameter: seconds with
	 * a fraction.
	 */
	public String sleepStatement() {
		return this.vendor.sleepStatement();
	}

	/**
	 * A statement that costs the server CPU in proportion to its one parameter, units of
	 * work, reading no table and waiting for nothing.
	 */
	public String cpuStatement() {
		return this.vendor.cpuStatement();
	}

	/**
	 * The server's CPU clock for this connection, when the server runs on this machine
	 * and its CPU per connection can be read; empty otherwise (wall time then).
	 */
	public Optional<ConnectionCpu> connectionCpu(Connection connection) {
		return this.vendor.connectionCpu(connection);
	}

	/** The user its embedded server takes, without a password. */
	public String embeddedUser() {
		return this.vendor.embeddedUser();
	}

	/** Its embedded server's {@code max_connections}. */
	public int embeddedMaxConnections() {
		return this.vendor.embeddedMaxConnections();
	}

	/** The slots of {@link #embeddedMaxConnections()} regular users cannot take. */
	public int embeddedReservedConnections() {
		return this.vendor.embeddedReservedConnections();
	}

	/** The name of its embedded server's own log in a run's directory. */
	public String embeddedLog() {
		return this.vendor.embeddedLog();
	}

	/**
	 * Starts its embedded server for a service, for the life of the application; its data
	 * in a temporary directory, removed when it stops.
	 */
	public EmbeddedDatabase startEmbedded() {
		return this.vendor.startEmbedded();
	}

	/**
	 * Starts its embedded server for a sweep, its own log appended to
	 * {@code runDirectory}'s {@link #embeddedLog()}; any data it keeps there is removed
	 * when it stops.
	 */
	public EmbeddedDatabase startEmbedded(Path runDirectory) {
		return this.vendor.startEmbedded(runDirectory, runDirectory.resolve(embeddedLog()));
	}

}
