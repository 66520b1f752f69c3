package org.poollab.bench.load;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import org.apache.commons.math3.stat.descriptive.SummaryStatistics;
import org.jspecify.annotations.Nullable;

import org.poollab.bench.deploy.Database;
import org.poollab.bench.model.Usl;
import org.poollab.bench.results.CpuCeiling;
import org.poollab.bench.results.SloSearch;
import org.poollab.service.hold.CpuHold;
import org.poollab.service.role.RoleQueries;

import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * How the database itself scales with concurrent connections: the lab drives it over JDBC
 * with the service's own statement in the service's own transaction (read-only,
 * committed, every column of every row read) from 1 to 64 connections at once, each
 * running transactions back to back, and counts what completes in a fixed window. The
 * counts are the Universal Scalability Law's samples; at one connection the transactions'
 * own nanosecond timings are the connection hold of a request with no queue and no
 * service around it.
 */
public final class DatabaseScaling {

	/** The concurrencies measured: doubling, so the fit sees both ends. */
	static final List<Integer> CONNECTIONS = List.of(1, 2, 4, 8, 16, 32, 64);

	/** Not counted at each concurrency: connections open, statements prepared. */
	static final Duration WARM_UP = Duration.ofSeconds(1);

	/**
	 * Before the first concurrency, not counted: the JIT's and the statements' warm-up.
	 */
	static final Duration JIT_WARM_UP = Duration.ofSeconds(5);

	/** Counted at each concurrency. */
	static final Duration WINDOW = SloSearch.Scaling.WINDOW;

	private DatabaseScaling() {
	}

	/**
	 * @param mostConnections the most connections the database's budget leaves for this
	 * (concurrencies above it are skipped)
	 */
	public static SloSearch.Scaling measure(Database database, int mostConnections, PrintStream out)
			throws SQLException, InterruptedException {
		return measure(database, mostConnections, out, null);
	}

	/**
	 * @param mostConnections the most connections the database's budget leaves for this
	 * (concurrencies above it are skipped)
	 * @param cpuMs the database CPU each request also costs ({@code bench.holdCpu}), run
	 * in each transaction as the instances run it, so that the fit (and the fleet
	 * planner's N*) sees the contention for the database's cores; {@code null} for none
	 */
	public static SloSearch.Scaling measure(Database database, int mostConnections, PrintStream out,
			@Nullable Double cpuMs) throws SQLException, InterruptedException {
		CpuHold cpu = null;
		if (cpuMs != null) {
			try (Connection connection = database.connect()) {
				cpu = CpuHold.calibrate(new SingleConnectionDataSource(connection, true), database.vendor(),
						Duration.ofNanos(Math.round(cpuMs * 1e6)));
			}
		}
		CpuHold burn = cpu;
		List<Usl.Sample> samples = new ArrayList<>();
		SummaryStatistics hold = new SummaryStatistics();
		// Not counted: this JVM's JIT and the driver's prepared statements warm up first,
		// or one connection, measured first, measures them (it ran at a third of two
		// connections' rate here before this).
		level(database, 2, JIT_WARM_UP, null, burn);
		for (int connections : CONNECTIONS) {
			if (connections > mostConnections) {
				break;
			}
			double perSecond = level(database, connections, WINDOW, (connections == 1) ? hold : null, burn).perSecond();
			samples.add(new Usl.Sample(connections, perSecond));
			out.printf(Locale.ROOT, "  %d connection(s): %.0f transactions/s%n", connections, perSecond);
		}
		double meanNanos = hold.getMean();
		return new SloSearch.Scaling(samples, Usl.fit(samples), meanNanos / 1e6,
				hold.getVariance() / (meanNanos * meanNanos));
	}

	/**
	 * What the database's CPU carries on this box, before a grid whose requests cost it
	 * CPU ({@code contention}): the service's transaction with its CPU hold back to back
	 * on twice the box's cores in connections, with nothing else running. Twice, so that
	 * while one connection's backend waits for the lab's next round trip another's burns:
	 * fewer leave cores idle, and more would measure the contention the grid asks about.
	 * The database's own CPU over the window (its processes' time, where the lab started
	 * it) says what each transaction cost it and how many cores it got.
	 * @param cpuMs the database CPU each request costs, run as the instances run it
	 * @param mostConnections the most connections the database's budget leaves for this
	 */
	public static CpuCeiling ceiling(Database database, double cpuMs, int mostConnections, PrintStream out)
			throws SQLException, InterruptedException {
		CpuHold cpu;
		try (Connection connection = database.connect()) {
			cpu = CpuHold.calibrate(new SingleConnectionDataSource(connection, true), database.vendor(),
					Duration.ofNanos(Math.round(cpuMs * 1e6)));
		}
		int connections = Math.max(1, Math.min(2 * Runtime.getRuntime().availableProcessors(), mostConnections));
		level(database, 2, JIT_WARM_UP, null, cpu);
		Counted counted = level(database, connections, CEILING_WINDOW, null, cpu);
		Double cpuMsPerRequest = null;
		Double cores = null;
		if (counted.cpuNanos().isPresent() && counted.completed() > 0) {
			cpuMsPerRequest = counted.cpuNanos().getAsLong() / 1e6 / counted.completed();
			cores = (double) counted.cpuNanos().getAsLong() / counted.nanos();
		}
		CpuCeiling ceiling = new CpuCeiling(counted.perSecond(), connections, cpuMs, cpuMsPerRequest, cores);
		out.println("  " + ceiling.describe());
		return ceiling;
	}

	/** Counted for the database's CPU ceiling: long enough for 10 ms CPU ticks. */
	static final Duration CEILING_WINDOW = Duration.ofSeconds(5);

	/**
	 * What one level counted.
	 *
	 * @param perSecond transactions completed a second
	 * @param completed transactions completed in the window
	 * @param nanos the window's length
	 * @param cpuNanos the database's CPU time in it, where the lab can read it
	 */
	private record Counted(double perSecond, long completed, long nanos, OptionalLong cpuNanos) {
	}

	/**
	 * Transactions per second with this many connections busy at once.
	 * @param timings where one connection's transaction times go, or null
	 */
	private static Counted level(Database database, int connections, Duration window,
			@Nullable SummaryStatistics timings, @Nullable CpuHold cpu) throws SQLException, InterruptedException {
		List<Connection> opened = new ArrayList<>();
		AtomicBoolean counting = new AtomicBoolean();
		AtomicBoolean stop = new AtomicBoolean();
		LongAdder completed = new LongAdder();
		AtomicReference<SQLException> failure = new AtomicReference<>();
		CountDownLatch finished = new CountDownLatch(connections);
		List<Thread> threads = new ArrayList<>();
		try {
			for (int i = 0; i < connections; i++) {
				opened.add(database.connect());
			}
			for (Connection connection : opened) {
				Thread thread = new Thread(() -> {
					try {
						work(connection, stop, counting, completed, timings, cpu);
					}
					catch (SQLException ex) {
						failure.compareAndSet(null, ex);
					}
					finally {
						finished.countDown();
					}
				}, "db-scaling-" + threads.size());
				thread.setDaemon(true);
				threads.add(thread);
				thread.start();
			}
			Thread.sleep(WARM_UP.toMillis());
			OptionalLong cpuFrom = database.cpuNanos();
			counting.set(true);
			long from = System.nanoTime();
			Thread.sleep(window.toMillis());
			counting.set(false);
			long nanos = System.nanoTime() - from;
			OptionalLong cpuTo = database.cpuNanos();
			stop.set(true);
			finished.await();
			if (failure.get() != null) {
				throw failure.get();
			}
			return new Counted(completed.sum() / (nanos / 1e9), completed.sum(), nanos, spent(cpuFrom, cpuTo));
		}
		finally {
			stop.set(true);
			for (Thread thread : threads) {
				thread.join();
			}
			for (Connection connection : opened) {
				connection.close();
			}
		}
	}

	/**
	 * One connection's transactions back to back until stopped, counted (and timed) while
	 * counting.
	 */
	private static void work(Connection connection, AtomicBoolean stop, AtomicBoolean counting, LongAdder completed,
			@Nullable SummaryStatistics timings, @Nullable CpuHold cpu) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(RoleQueries.ALL_ROLES)) {
			while (!stop.get()) {
				long started = System.nanoTime();
				transaction(connection, statement, cpu);
				if (counting.get()) {
					completed.increment();
					if (timings != null) {
						timings.addValue(System.nanoTime() - started);
					}
				}
			}
		}
	}

	/** The CPU time between two readings, where both were read. */
	private static OptionalLong spent(OptionalLong from, OptionalLong to) {
		return (from.isPresent() && to.isPresent()) ? OptionalLong.of(to.getAsLong() - from.getAsLong())
				: OptionalLong.empty();
	}

	/**
	 * One request's transaction as Spring runs it for the service's read-only repository:
	 * read-only, auto-commit off, the statement, every column of every row read, commit,
	 * the connection reset.
	 */
	private static void transaction(Connection connection, PreparedStatement statement, @Nullable CpuHold cpu)
			throws SQLException {
		connection.setReadOnly(true);
		connection.setAutoCommit(false);
		try (ResultSet rows = statement.executeQuery()) {
			int columns = rows.getMetaData().getColumnCount();
			while (rows.next()) {
				for (int column = 1; column <= columns; column++) {
					rows.getObject(column);
				}
			}
		}
		if (cpu != null) {
			cpu.burn(connection);
		}
		connection.commit();
		connection.setAutoCommit(true);
		connection.setReadOnly(false);
	}

}
