package org.poollab.service.hold;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

import javax.sql.DataSource;

import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.poollab.vendor.ConnectionCpu;
import org.poollab.vendor.DatabaseVendor;

/**
 * A statement that costs the database a chosen amount of CPU ({@code lab.hold.cpu}), run
 * on the request's connection inside its transaction: the part of a hold that contends
 * for the database's cores, where a waiting hold ({@code pg_sleep}) only occupies a
 * connection. Its work is a count of units, calibrated against the database at start so
 * that {@code 2ms} is 2 ms of CPU on this database and this machine.
 * <p>
 * Calibration costs the statement at a few unit counts and fits milliseconds against
 * units ({@link SimpleRegression}): the slope is the CPU per unit, the intercept what
 * every execution costs besides (parse, executor start), taken off. Where the database
 * runs on this machine the cost is CPU itself, however busy the machine is (instances
 * start at once): on PostgreSQL the backend serving the connection, a process of its own
 * (user + system time, {@code /proc/<pid>/stat}); on MariaDB the server's thread serving
 * it, one thread per connection ({@code information_schema.PROCESSLIST.TID}; the kernel's
 * nanoseconds on the CPU, {@code /proc/<pid>/task/<tid>/schedstat}). Elsewhere (a
 * database on another host, MariaDB's thread pool) it is the least of several wall times,
 * the execution nothing interrupted, round trip included: a busy machine preempts a
 * statement and so makes that calibration undershoot. Which way it was calibrated is
 * {@link #calibratedBy}, and the start-up log says it. CpuHoldIT checks the result
 * against the server's CPU time.
 *
 * @param statement the vendor's statement, one parameter: units of work
 * @param unitsPerMs units that cost one millisecond of CPU
 * @param overheadMs what an execution costs besides its units (the fit's intercept, at
 * least 0), taken off the units it is given
 * @param cpuMs the CPU each execution is asked to cost, milliseconds
 * @param calibratedBy what the calibration measured, e.g. {@code least of 3 CPU times
 * of the server thread}
 */
public record CpuHold(String statement, double unitsPerMs, double overheadMs, double cpuMs, String calibratedBy) {

	/** The least CPU hold: below it the round trip would dwarf it. */
	public static final Duration SHORTEST = Duration.ofNanos(100_000);

	/** The most: a statement, not a batch job. */
	public static final Duration LONGEST = Duration.ofSeconds(1);

	/** What {@code lab.hold.cpu} (the lab's {@code bench.holdCpu}) accepts. */
	public static final String ALLOWED = "a duration of database CPU per request from 0.1ms to 1s, e.g. 2ms";

	/** Executions timed at each unit count; the least counts. */
	static final int RUNS_PER_COUNT = 7;

	/**
	 * Unit counts timed, as multiples of the first one that takes at least a millisecond.
	 */
	static final int[] MULTIPLES = { 1, 2, 3, 4 };

	/**
	 * Times each unit count's server CPU is measured; the least counts. What else runs on
	 * the machine can only add to a backend's or thread's CPU time (a busy sibling core,
	 * caches shared), never take from it, as with wall time ({@link #RUNS_PER_COUNT}).
	 * One measurement per count let a single disturbed reading skew the fit by a quarter
	 * (connection-hold.md, "Database CPU", has the run).
	 */
	static final int CPU_MEASURES_PER_COUNT = 3;

	private static final Logger logger = LoggerFactory.getLogger(CpuHold.class);

	/** What is wrong with a CPU hold, or empty when it is allowed. */
	static Optional<String> problem(Duration cpu) {
		if (cpu.compareTo(SHORTEST) < 0 || cpu.compareTo(LONGEST) > 0) {
			return Optional.of("the database CPU per request must be from 0.1ms to 1s");
		}
		return Optional.empty();
	}

	/**
	 * Calibrates the vendor's statement against the database behind {@code dataSource}.
	 * @throws IllegalStateException when the statement's cost does not grow with its work
	 */
	public static CpuHold calibrate(DataSource dataSource, DatabaseVendor vendor, Duration cpu) throws SQLException {
		String statement = vendor.cpuStatement();
		try (Connection connection = dataSource.getConnection();
				PreparedStatement burn = connection.prepareStatement(statement)) {
			Optional<ConnectionCpu> clock = vendor.connectionCpu(connection);
			Meter meter = clock
				.<Meter>map((server) -> (units) -> least(CPU_MEASURES_PER_COUNT, () -> cpuMs(burn, units, server)))
				.orElse((units) -> leastWallMs(burn, units));
			String calibratedBy = clock
				.map((server) -> "least of " + CPU_MEASURES_PER_COUNT + " CPU times of the " + server.name())
				.orElse("least of " + RUNS_PER_COUNT + " wall times");
			long base = 1_000;
			while (leastWallMs(burn, base) < 1 && base < Integer.MAX_VALUE / 16) {
				base *= 2;
			}
			SimpleRegression fit = new SimpleRegression();
			for (int multiple : MULTIPLES) {
				fit.addData(base * multiple, meter.ms(base * multiple));
			}
			double msPerUnit = fit.getSlope();
			if (!(msPerUnit > 0)) {
				throw new IllegalStateException(
						"Could not calibrate the CPU hold: %s cost no more with more work (slope %s ms per unit)"
							.formatted(statement, msPerUnit));
			}
			double overheadMs = Math.max(0, fit.getIntercept());
			CpuHold hold = new CpuHold(statement, 1 / msPerUnit, overheadMs, cpu.toNanos() / 1e6, calibratedBy);
			logger.info(
					"Costing each request {} of database CPU (lab.hold.cpu): {} with {} units; calibrated on the {}: {} units per ms plus {} ms an execution (r\u00b2 {})",
					HoldProperties.written(cpu), statement, hold.units(), calibratedBy, Math.round(hold.unitsPerMs()),
					String.format(Locale.ROOT, "%.3f", overheadMs),
					String.format(Locale.ROOT, "%.3f", fit.getRSquare()));
			return hold;
		}
	}

	/** The cost of one execution of some units of work, milliseconds. */
	private interface Meter {

		double ms(long units) throws SQLException;

	}

	/** Units of work one execution is given. */
	public long units() {
		return Math.max(1, Math.round((this.cpuMs - this.overheadMs) * this.unitsPerMs));
	}

	/** Runs the statement once on {@code connection}. */
	public void burn(Connection connection) throws SQLException {
		try (PreparedStatement burn = connection.prepareStatement(this.statement)) {
			run(burn, units());
		}
	}

	/**
	 * The least of some measures: what else runs on the machine only ever adds to a
	 * measure, CPU time or wall time.
	 */
	private static double least(int measures, Measure measure) throws SQLException {
		double least = Double.MAX_VALUE;
		for (int i = 0; i < measures; i++) {
			least = Math.min(least, measure.ms());
		}
		return least;
	}

	/** One measure of an execution's cost, milliseconds. */
	private interface Measure {

		double ms() throws SQLException;

	}

	/**
	 * The server's CPU per execution, over executions enough for the clock's
	 * {@link ConnectionCpu#perCount()}.
	 */
	private static double cpuMs(PreparedStatement burn, long units, ConnectionCpu cpu) throws SQLException {
		long before = cpu.nanos();
		int executions = 0;
		long spent;
		do {
			run(burn, units);
			executions++;
			spent = cpu.nanos() - before;
		}
		while (spent < cpu.perCount().toNanos());
		return spent / 1e6 / executions;
	}

	private static double leastWallMs(PreparedStatement burn, long units) throws SQLException {
		return least(RUNS_PER_COUNT, () -> wallMs(burn, units));
	}

	/** One execution's wall time, milliseconds. */
	private static double wallMs(PreparedStatement burn, long units) throws SQLException {
		long start = System.nanoTime();
		run(burn, units);
		return (System.nanoTime() - start) / 1e6;
	}

	private static void run(PreparedStatement burn, long units) throws SQLException {
		burn.setLong(1, units);
		try (ResultSet result = burn.executeQuery()) {
			result.next();
		}
	}

}
