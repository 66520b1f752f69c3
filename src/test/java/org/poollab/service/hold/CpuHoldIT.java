package org.poollab.service.hold;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.poollab.vendor.DatabaseVendor;
import org.poollab.vendor.EmbeddedMariaDbServer;
import org.poollab.vendor.EmbeddedPostgresServer;

import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CPU hold costs what it is asked for, on a real PostgreSQL with nothing else to do.
 * <p>
 * Measured as CPU, not time: the backend serving the connection
 * ({@code pg_backend_pid()}) is a process of its own, so its user + system time before
 * and after ({@code /proc/<pid>/stat}, which
 * {@link ProcessHandle.Info#totalCpuDuration()} reads) is exactly what the statements
 * cost the database, whatever else the machine does meanwhile. EXPLAIN ANALYZE would give
 * the executor's wall time, which a busy machine stretches. The kernel counts CPU in 10
 * ms ticks, so the statement runs 100 times (about 200 ms): a tick is then 5 % of it.
 * <p>
 * What is asserted is the behaviour: the hold's CPU is spent in the database, and within
 * a factor of two of what was asked. How close it comes is a measurement, and the sweep
 * makes it on every point (its database CPU per request). The calibration and the check
 * both run beside whatever else the machine does, and CPU per unit of work is not
 * constant on a shared machine: beside two other test JVMs on a slower 2-core machine
 * (fresh-clone run, 2026-11-28) PostgreSQL read 3.1 ms for 2 ms asked.
 */
class CpuHoldIT {

	private static final Duration ASKED = Duration.ofMillis(2);

	private static final double ASKED_MS = ASKED.toMillis();

	private static final int EXECUTIONS = 100;

	private static EmbeddedPostgresServer postgres;

	@BeforeAll
	static void start() {
		postgres = EmbeddedPostgresServer.start(20);
	}

	@AfterAll
	static void stop() {
		postgres.close();
	}

	@Test
	void aStatementAskedForTwoMillisecondsCostsTheDatabaseTwoMillisecondsOfCpu() throws SQLException {
		SingleConnectionDataSource dataSource = new SingleConnectionDataSource(postgres.jdbcUrl(),
				EmbeddedPostgresServer.USER, "", true);
		try (Connection connection = dataSource.getConnection()) {
			CpuHold hold = CpuHold.calibrate(dataSource, DatabaseVendor.POSTGRESQL, ASKED);
			assertThat(hold.calibratedBy()).isEqualTo("least of 3 CPU times of the backend");
			ProcessHandle backend = ProcessHandle.of(backendPid(connection)).orElseThrow();
			assertThat(cpuMsPerExecution(hold, connection, backend))
				.as("database CPU per execution, ms (%d units)", hold.units())
				.isBetween(0.5 * ASKED_MS, 2.0 * ASKED_MS);
		}
		finally {
			dataSource.destroy();
		}
	}

	/**
	 * MariaDB serves a connection on a thread of its one {@code mariadbd}: the
	 * calibration reads that thread's CPU (the embedded server runs on this machine, a
	 * thread per connection), and the whole server's CPU, with nothing else connected,
	 * checks it. Calibrated by wall time instead, a busy machine preempts the timed
	 * statements and the hold undershoots (0.3 ms for 2 ms asked beside two builds,
	 * 2026-11-28), which the first assertion rules out.
	 */
	@Test
	void onMariaDbTheStatementAskedForTwoMillisecondsCostsTheServerTwoMillisecondsOfCpu() throws SQLException {
		try (EmbeddedMariaDbServer mariadb = EmbeddedMariaDbServer.start(EmbeddedMariaDbServer.MIN_MAX_CONNECTIONS)) {
			SingleConnectionDataSource dataSource = new SingleConnectionDataSource(mariadb.jdbcUrl(),
					EmbeddedMariaDbServer.USER, "", true);
			try (Connection connection = dataSource.getConnection()) {
				CpuHold hold = CpuHold.calibrate(dataSource, DatabaseVendor.MARIADB, ASKED);
				assertThat(hold.statement()).contains("BENCHMARK");
				assertThat(hold.calibratedBy()).isEqualTo("least of 3 CPU times of the server thread");
				ProcessHandle server = mariadb.process().orElseThrow();
				assertThat(cpuMsPerExecution(hold, connection, server))
					.as("mariadbd CPU per execution, ms (%d units)", hold.units())
					.isBetween(0.5 * ASKED_MS, 2.0 * ASKED_MS);
			}
			finally {
				dataSource.destroy();
			}
		}
	}

	/**
	 * The CPU {@code process} spent per execution of the hold, over {@link #EXECUTIONS}
	 * after one that plans and caches the statement: the least of three such measures, as
	 * the calibration takes the least of three. Other work on the machine can only
	 * inflate the CPU a statement costs (shared caches and cores), never deflate it; one
	 * measure beside three test JVMs read 2.5 ms for a hold calibrated quiet at 2 ms
	 * (fresh-clone CI run, 2026-11-28).
	 */
	private static double cpuMsPerExecution(CpuHold hold, Connection connection, ProcessHandle process)
			throws SQLException {
		hold.burn(connection);
		double least = Double.MAX_VALUE;
		for (int measure = 0; measure < 3; measure++) {
			Duration before = process.info().totalCpuDuration().orElseThrow();
			for (int i = 0; i < EXECUTIONS; i++) {
				hold.burn(connection);
			}
			Duration spent = process.info().totalCpuDuration().orElseThrow().minus(before);
			least = Math.min(least, spent.toNanos() / 1e6 / EXECUTIONS);
		}
		return least;
	}

	private static long backendPid(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet pid = statement.executeQuery("SELECT pg_backend_pid()")) {
			pid.next();
			return pid.getLong(1);
		}
	}

}
