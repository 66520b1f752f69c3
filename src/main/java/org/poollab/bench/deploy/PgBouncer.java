package org.poollab.bench.deploy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.results.PgBouncerFacts;

/**
 * pgbouncer between the instances and PostgreSQL, in transaction mode (as in "Improve
 * database performance with connection pooling", Stack Overflow blog, 2020): the
 * instances' HikariCP pools connect to it, and its own pool to the database is the size
 * the point sweeps. Run by the lab in the foreground, with its configuration under the
 * run directory, and watched through its admin console.
 */
public final class PgBouncer implements AutoCloseable {

	/**
	 * pgbouncer refuses to run as root. As root, the lab runs it in a user namespace
	 * where root is mapped to this unprivileged id (util-linux {@code unshare}), the way
	 * the embedded PostgreSQL runs its server.
	 */
	private static final int UNPRIVILEGED_ID = 1000;

	/** The database name clients use; pgbouncer maps it to the real one. */
	static final String DATABASE = "lab";

	private final ProcessHandle process;

	private final int port;

	private final String username;

	private final Path secrets;

	private final ChildProcesses processes;

	private PgBouncer(ProcessHandle process, int port, String username, Path secrets, ChildProcesses processes) {
		this.process = process;
		this.port = port;
		this.username = username;
		this.secrets = secrets;
		this.processes = processes;
	}

	/** The executable's name, as the lab looks for it on PATH. */
	public static final String PROGRAM = "pgbouncer";

	/**
	 * Starts pgbouncer in front of the database and waits until its admin console
	 * answers.
	 * @param executable the pgbouncer binary
	 * @param database the PostgreSQL it pools connections to
	 * @param port where it listens, on 127.0.0.1
	 * @param poolSize its pool size ({@code default_pool_size})
	 * @param maxClients how many client connections it accepts (every instance's HikariCP
	 * pool together, with room to spare)
	 * @param directory where its configuration and log go
	 */
	static PgBouncer start(Path executable, Database database, int port, int poolSize, int maxClients, Path directory,
			ChildProcesses processes) throws IOException, InterruptedException {
		Files.createDirectories(directory);
		URI server = URI.create(Database.withoutQuery(database.url()).substring("jdbc:".length()));
		String databaseName = server.getPath().substring(1);
		// The password is not written under the run directory: the [databases] section
		// lives in a private temporary file, included by the configuration and removed
		// when pgbouncer stops.
		Path secrets = Files.createTempFile("pgbouncer-databases", ".ini",
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
		// Ctrl-C stops pgbouncer from a shutdown hook without close(): the file goes
		// then.
		secrets.toFile().deleteOnExit();
		Files.writeString(secrets, """
				[databases]
				%s = host=%s port=%d dbname=%s user=%s%s
				""".formatted(DATABASE, server.getHost(), (server.getPort() > 0) ? server.getPort() : 5432,
				databaseName, database.username(),
				database.password().isEmpty() ? "" : " password='" + database.password().replace("'", "\\'") + "'"));
		Path userlist = directory.resolve("userlist.txt");
		// Clients are the lab's own instances on loopback: trust, like the embedded
		// PostgreSQL. The user must still be listed.
		Files.writeString(userlist, "\"%s\" \"\"%n".formatted(database.username()));
		Path config = directory.resolve("pgbouncer.ini");
		Files.writeString(config, config(secrets, userlist, port, poolSize, maxClients, database.username()));
		List<String> command = new ArrayList<>();
		if (isRoot()) {
			command.addAll(List.of("unshare", "--map-user=" + UNPRIVILEGED_ID, "--map-group=" + UNPRIVILEGED_ID));
		}
		command.addAll(List.of(executable.toString(), config.toString()));
		Path log = directory.resolve("pgbouncer.log");
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
		Process process;
		try {
			process = processes.start("pgbouncer", builder);
		}
		catch (IOException | RuntimeException ex) {
			Files.deleteIfExists(secrets);
			throw ex;
		}
		PgBouncer pgbouncer = new PgBouncer(process.toHandle(), port, database.username(), secrets, processes);
		try {
			Ports.awaitListening(process, port, "pgbouncer", log);
		}
		catch (LabFailureException ex) {
			pgbouncer.close();
			throw ex;
		}
		return pgbouncer;
	}

	/**
	 * Transaction pooling, as in the Stack Overflow blog article: a server connection
	 * belongs to a client for one transaction only. The admin console is reached with
	 * pgjdbc, which sends {@code extra_float_digits} and, to skip the SET statements it
	 * would run on a server of a version below 12 (which the admin console refuses),
	 * {@code replication}: pgbouncer is told to ignore both.
	 */
	static String config(Path databases, Path userlist, int port, int poolSize, int maxClients, String admin) {
		return """
				%%include %s
				[pgbouncer]
				listen_addr = 127.0.0.1
				listen_port = %d
				unix_socket_dir =
				auth_type = trust
				auth_file = %s
				admin_users = %s
				pool_mode = transaction
				default_pool_size = %d
				min_pool_size = 0
				reserve_pool_size = 0
				max_client_conn = %d
				ignore_startup_parameters = extra_float_digits,replication
				server_check_delay = 0
				logfile =
				pidfile =
				log_connections = 0
				log_disconnections = 0
				""".formatted(databases, port, userlist, admin, poolSize, maxClients);
	}

	/**
	 * The JDBC URL the instances use. pgjdbc switches to named server-side prepared
	 * statements after five executions of one statement; under transaction pooling the
	 * next transaction may run on another server connection that never saw them, so
	 * {@code prepareThreshold=0} keeps every statement unnamed.
	 */
	String jdbcUrl() {
		return "jdbc:postgresql://127.0.0.1:%d/%s?prepareThreshold=0".formatted(this.port, DATABASE);
	}

	public boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Sets pgbouncer's pool size between points and has every server connection replaced
	 * once released, so the next point starts from a pool of the new size.
	 */
	void resize(int poolSize) throws SQLException {
		try (Connection admin = admin(); Statement statement = admin.createStatement()) {
			statement.execute("SET default_pool_size = " + poolSize);
			statement.execute("RECONNECT " + DATABASE);
		}
	}

	/**
	 * What pgbouncer's admin console says now about the lab's database.
	 */
	public Sample sample() throws SQLException {
		try (Connection admin = admin(); Statement statement = admin.createStatement()) {
			int poolSize = -1;
			try (ResultSet databases = statement.executeQuery("SHOW DATABASES")) {
				while (databases.next()) {
					if (DATABASE.equals(databases.getString("name"))) {
						poolSize = databases.getInt("pool_size");
					}
				}
			}
			int serverConnections = 0;
			int serverActive = 0;
			int clientsWaiting = 0;
			double maxWaitMs = 0;
			try (ResultSet pools = statement.executeQuery("SHOW POOLS")) {
				while (pools.next()) {
					if (DATABASE.equals(pools.getString("database"))) {
						serverActive += pools.getInt("sv_active");
						serverConnections += pools.getInt("sv_active") + pools.getInt("sv_idle")
								+ pools.getInt("sv_used") + pools.getInt("sv_tested") + pools.getInt("sv_login");
						clientsWaiting += pools.getInt("cl_waiting");
						maxWaitMs = Math.max(maxWaitMs,
								pools.getLong("maxwait") * 1000.0 + pools.getLong("maxwait_us") / 1000.0);
					}
				}
			}
			return new Sample(System.currentTimeMillis(), poolSize, serverConnections, serverActive, clientsWaiting,
					maxWaitMs);
		}
	}

	/**
	 * One look at pgbouncer through its admin console.
	 *
	 * @param atMs when, epoch milliseconds
	 * @param poolSize {@code pool_size} of the lab's database
	 * @param serverConnections connections to PostgreSQL, busy or not
	 * @param serverActive connections to PostgreSQL in a transaction
	 * @param clientsWaiting client connections waiting for a server connection
	 * @param maxWaitMs how long the longest-waiting client had waited
	 */
	public record Sample(long atMs, int poolSize, int serverConnections, int serverActive, int clientsWaiting,
			double maxWaitMs) {
	}

	/**
	 * pgbouncer over a measured window: the pool size it reported last, and peaks.
	 * @param clientPoolSize every instance's HikariCP pool size
	 */
	public static PgBouncerFacts summarize(List<Sample> samples, int clientPoolSize, long startMs, long endMs) {
		List<Sample> inside = samples.stream().filter((s) -> s.atMs() >= startMs && s.atMs() <= endMs).toList();
		return new PgBouncerFacts(inside.isEmpty() ? -1 : inside.get(inside.size() - 1).poolSize(), clientPoolSize,
				inside.stream().mapToInt(Sample::serverConnections).max().orElse(0),
				inside.stream().mapToInt(Sample::serverActive).max().orElse(0),
				inside.stream().mapToInt(Sample::clientsWaiting).max().orElse(0),
				inside.stream().mapToDouble(Sample::maxWaitMs).max().orElse(0), inside.size());
	}

	@Override
	public void close() {
		this.processes.stop(this.process);
		try {
			Files.deleteIfExists(this.secrets);
		}
		catch (IOException ex) {
			// A private temporary file; the next boot's tmp clean-up takes it.
		}
	}

	private Connection admin() throws SQLException {
		// pgjdbc warns through java.util.logging that "1.18.0/bouncer" is no PostgreSQL
		// version it knows; it is not one, and that is expected here.
		Logger.getLogger("org.postgresql.jdbc.PgConnection").setLevel(Level.SEVERE);
		return Database.connect("jdbc:postgresql://127.0.0.1:%d/pgbouncer?preferQueryMode=simple&replication=database"
			.formatted(this.port), this.username, "");
	}

	private static boolean isRoot() {
		try {
			return "0".equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid").toString());
		}
		catch (IOException | UnsupportedOperationException ex) {
			return "root".equals(System.getProperty("user.name"));
		}
	}

}
