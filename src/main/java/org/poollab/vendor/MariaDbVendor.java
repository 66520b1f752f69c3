package org.poollab.vendor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
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
 * MariaDB, and MySQL through the same driver (MariaDB Connector/J), which speaks its
 * protocol; the embedded server of {@link EmbeddedMariaDbServer}.
 */
final class MariaDbVendor implements Vendor {

	/**
	 * MariaDB's and MySQL's error code for "Too many connections" (ER_CON_COUNT_ERROR).
	 * MariaDB Connector/J 3.5 reports it (seen against MariaDB 10.11) as a plain
	 * {@code SQLException} with SQLSTATE {@code HY000}, not the {@code 08004} the
	 * server's error list gives it: the code is what tells it apart.
	 */
	static final int TOO_MANY_CONNECTIONS = 1040;

	/**
	 * The thread CPU each unit count is measured over: counted in nanoseconds, a few
	 * executions' worth is enough.
	 */
	static final Duration THREAD_CPU_PER_COUNT = Duration.ofMillis(20);

	@Override
	public String product() {
		return "MariaDB";
	}

	@Override
	public List<String> driverProducts() {
		return List.of("MariaDB", "MySQL");
	}

	/**
	 * MariaDB Connector/J also takes {@code jdbc:mysql:} URLs, but only with
	 * {@code permitMysqlScheme} among their options (without it: "No suitable driver").
	 */
	@Override
	public List<String> urlPrefixes() {
		return List.of("jdbc:mariadb:", "jdbc:mysql:");
	}

	@Override
	public String exampleUrl() {
		return "jdbc:mariadb://127.0.0.1:3306/test";
	}

	/**
	 * MariaDB Connector/J counts milliseconds; its {@code connectTimeout} bounds the
	 * whole login.
	 */
	@Override
	public Properties labConnectionProperties() {
		Properties properties = new Properties();
		properties.setProperty("connectTimeout", "3000");
		properties.setProperty("socketTimeout", "30000");
		properties.setProperty("connectionAttributes", "program_name:pool-sizing-lab");
		return properties;
	}

	/**
	 * MariaDB and MySQL reserve none of {@code max_connections}: they admit one
	 * connection beyond it, for an administrator (SUPER or CONNECTION ADMIN), so all of
	 * it is the pools'.
	 */
	@Override
	public String settingsQuery() {
		return "SELECT @@version, @@max_connections, 0";
	}

	@Override
	public boolean tooManyConnections(@Nullable String sqlState, int errorCode) {
		return errorCode == TOO_MANY_CONNECTIONS;
	}

	@Override
	public String tooManyConnectionsWords() {
		return "Too many connections";
	}

	@Override
	public boolean pooledByPgBouncer() {
		return false;
	}

	@Override
	public boolean runsReactiveTwin() {
		return false;
	}

	@Override
	public String sleepStatement() {
		return "SELECT SLEEP(?)";
	}

	/**
	 * Evaluates an expression that many times ({@code BENCHMARK}, built for exactly
	 * this).
	 */
	@Override
	public String cpuStatement() {
		return "SELECT BENCHMARK(?, CRC32('pool-sizing lab'))";
	}

	/**
	 * The server's thread serving this connection, when the server runs a thread per
	 * connection on this machine: its {@code TID} in the process list is a thread of a
	 * {@code mariadbd} (or {@code mysqld}) here, whose CPU time grows when the connection
	 * runs a statement (so it is not another server's thread of the same number). MySQL
	 * has no {@code TID} column, and MariaDB's thread pool no thread per connection:
	 * empty there.
	 */
	@Override
	public Optional<ConnectionCpu> connectionCpu(Connection connection) {
		try (Statement query = connection.createStatement()) {
			long tid;
			try (ResultSet thread = query.executeQuery(
					"SELECT TID, @@thread_handling FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()")) {
				if (!thread.next() || !"one-thread-per-connection".equals(thread.getString(2))) {
					return Optional.empty();
				}
				tid = thread.getLong(1);
			}
			Optional<Path> schedstat = ThreadCpu.schedstat(tid, "mariadbd", "mysqld");
			if (schedstat.isEmpty()) {
				return Optional.empty();
			}
			ConnectionCpu clock = new ThreadCpu(schedstat.get());
			long before = clock.nanos();
			query.execute("DO 1");
			return (clock.nanos() > before) ? Optional.of(clock) : Optional.empty();
		}
		catch (SQLException | UncheckedIOException ex) {
			return Optional.empty();
		}
	}

	@Override
	public String embeddedUser() {
		return EmbeddedMariaDbServer.USER;
	}

	@Override
	public int embeddedMaxConnections() {
		return EmbeddedMariaDbServer.MAX_CONNECTIONS;
	}

	@Override
	public int embeddedReservedConnections() {
		return 0;
	}

	@Override
	public String embeddedLog() {
		return "mariadb.log";
	}

	@Override
	public EmbeddedDatabase startEmbedded() {
		return EmbeddedMariaDbServer.start(EmbeddedMariaDbServer.MAX_CONNECTIONS);
	}

	/**
	 * The binaries and data go to a directory of its own under {@code java.io.tmpdir},
	 * not the run's, removed when it stops.
	 */
	@Override
	public EmbeddedDatabase startEmbedded(Path runDirectory, Path log) {
		return EmbeddedMariaDbServer.start(EmbeddedMariaDbServer.MAX_CONNECTIONS, log);
	}

	/**
	 * One thread's time on the CPU, the kernel's scheduler statistics' first field, in
	 * nanoseconds (Linux's {@code Documentation/scheduler/sched-stats.rst}): a thread's
	 * own, where {@code /proc/<pid>/stat} sums the process's threads.
	 */
	private record ThreadCpu(Path schedstat) implements ConnectionCpu {

		/**
		 * The thread's {@code schedstat}, when {@code tid} is a thread of a process named
		 * one of {@code commands}: its thread group's {@code comm}, which any user may
		 * read (as the thread's {@code status} and {@code schedstat}), unlike its
		 * {@code exe}.
		 */
		static Optional<Path> schedstat(long tid, String... commands) {
			try {
				String pid = Files.readAllLines(Path.of("/proc", Long.toString(tid), "status"))
					.stream()
					.filter((line) -> line.startsWith("Tgid:"))
					.map((line) -> line.substring("Tgid:".length()).trim())
					.findFirst()
					.orElseThrow();
				String command = Files.readString(Path.of("/proc", pid, "comm")).trim();
				Path schedstat = Path.of("/proc", pid, "task", Long.toString(tid), "schedstat");
				return (List.of(commands).contains(command) && Files.isReadable(schedstat)) ? Optional.of(schedstat)
						: Optional.empty();
			}
			catch (IOException | RuntimeException ex) {
				return Optional.empty();
			}
		}

		@Override
		public long nanos() {
			try {
				return Long.parseLong(Files.readString(this.schedstat).trim().split(" ", 2)[0]);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		@Override
		public String name() {
			return "server thread";
		}

		@Override
		public Duration perCount() {
			return THREAD_CPU_PER_COUNT;
		}

	}

}
