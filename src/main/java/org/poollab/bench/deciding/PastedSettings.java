package org.poollab.bench.deciding;

import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import org.poollab.bench.text.Durations;

/**
 * The HikariCP values a team pastes into its own application, decided in one place so
 * that they hold there and not only in the lab's service: the pool's floor,
 * {@code connection-timeout}, {@code validation-timeout} and the suggested (opt-in)
 * {@code leak-detection-threshold}, each with its reason and what it risks.
 * {@code RecommendedYaml} and {@code SloYaml} render these; they decide none of them.
 *
 * @param poolSize the {@code maximum-pool-size} to write, empty when none is supported
 * @param poolWhy its reason; when the floor raised it, the measured pool and why the
 * written one is larger
 * @param connectionTimeoutMs the {@code connection-timeout} to write
 * @param connectionTimeoutWhy its source and risk
 * @param validationTimeoutMs the {@code validation-timeout} to write
 * @param validationTimeoutWhy its source and risk
 * @param leakDetectionThresholdMs the suggested {@code leak-detection-threshold}, written
 * commented out
 * @param leakDetectionThresholdWhy why it is opt-in, and where the suggestion comes from
 */
public record PastedSettings(OptionalLong poolSize, String poolWhy, long connectionTimeoutMs,
		String connectionTimeoutWhy, long validationTimeoutMs, String validationTimeoutWhy,
		long leakDetectionThresholdMs, String leakDetectionThresholdWhy) {

	/**
	 * The smallest pool a plain Spring Boot application starts with when Flyway migrates
	 * on the same pool: measured with {@code org.poollab.plainapp.PlainApplication} at
	 * pool 1 and 2 on an empty database ({@code PlainAppBlocksIT}). At pool 1 Flyway
	 * waits for a second connection while it holds the first, and start-up fails after
	 * connection-timeout.
	 */
	public static final int PLAIN_APP_MIN_POOL = 2;

	/**
	 * connection-timeout is never written below this. HikariCP sets the driver's login
	 * timeout to max(1 s, connection-timeout + 500 ms)
	 * ({@code PoolBase.setLoginTimeout}), JVM-wide through {@code DriverManager} for a
	 * {@code jdbc-url} pool, so the wait for a pooled connection also bounds opening a
	 * new one. Not measured: the floor is pgjdbc's own default {@code connectTimeout}.
	 */
	public static final long CONNECTION_TIMEOUT_FLOOR_MS = 10_000;

	/** HikariCP's default connection-timeout. */
	public static final long DEFAULT_CONNECTION_TIMEOUT_MS = 30_000;

	/** HikariCP's default validation-timeout. */
	public static final long DEFAULT_VALIDATION_TIMEOUT_MS = 5_000;

	/** HikariCP ignores leak detection below two seconds. */
	public static final long MIN_LEAK_DETECTION_THRESHOLD_MS = 2_000;

	/** The suggested leak threshold when nothing measured a hold. */
	static final long UNMEASURED_LEAK_DETECTION_THRESHOLD_MS = 60_000;

	/** What a request refused by the pool gets, in a team's app and in the lab's. */
	public static final String REFUSAL = "a plain Spring MVC app then answers 500 (Boot's default error handling; "
			+ "the lab's own service maps it to 503)";

	/** HikariCP's settings and their defaults, the source of every default written. */
	public static final String HIKARI_SETTINGS = "https://github.com/brettwooldridge/HikariCP#gear-configuration-knobs-baby";

	/** pgjdbc's connection parameters (connectTimeout, loginTimeout). */
	public static final String PGJDBC_PARAMETERS = "https://jdbc.postgresql.org/documentation/use/#connection-parameters";

	/**
	 * The values for one block.
	 * @param pool the measured pool (or HikariCP's formula where nothing was measured),
	 * empty when none is supported
	 * @param poolWhy the reason for that pool
	 * @param deadlockFloor HikariCP's Tn × (Cm − 1) + 1
	 * @param waitBasisMs the slowest healthy request the wait is derived from, empty when
	 * nothing sustained its rate
	 * @param waitBasis what that figure is, e.g. {@code MEASURED: the slowest successful
	 * request}
	 * @param holdBasisMs the longest hold seen (or its bound), empty when none
	 * @param holdBasis what that figure is
	 * @return the values with their reasons
	 */
	public static PastedSettings of(OptionalLong pool, String poolWhy, int deadlockFloor, OptionalDouble waitBasisMs,
			String waitBasis, OptionalDouble holdBasisMs, String holdBasis) {
		long floor = poolFloor(deadlockFloor);
		OptionalLong written = pool.isPresent() ? OptionalLong.of(Math.max(floor, pool.getAsLong())) : pool;
		String why = (pool.isPresent() && written.getAsLong() > pool.getAsLong()) ? poolWhy + "; WRITTEN "
				+ written.getAsLong() + ", not the " + pool.getAsLong() + " measured: " + poolFloorWhy(deadlockFloor)
				: poolWhy;
		long connectionTimeoutMs = connectionTimeoutMs(waitBasisMs);
		return new PastedSettings(written, why, connectionTimeoutMs,
				connectionTimeoutWhy(connectionTimeoutMs, waitBasisMs, waitBasis), DEFAULT_VALIDATION_TIMEOUT_MS,
				"ms; HikariCP's default (" + HIKARI_SETTINGS
						+ "), below connection-timeout; not measured by the sweep. "
						+ "Risk: a validation slower than this on a database under stress discards a healthy "
						+ "connection and opens a new one",
				leakDetectionThresholdMs(holdBasisMs), leakDetectionThresholdWhy(holdBasisMs, holdBasis));
	}

	/** The smallest pool ever written: a plain app's, or the deadlock floor if higher. */
	public static long poolFloor(int deadlockFloor) {
		return Math.max(PLAIN_APP_MIN_POOL, deadlockFloor);
	}

	private static String poolFloorWhy(int deadlockFloor) {
		return (deadlockFloor > PLAIN_APP_MIN_POOL)
				? "HikariCP's deadlock floor Tn × (Cm − 1) + 1 = " + deadlockFloor
						+ " for requests that hold more than one connection at once (About Pool Sizing, "
						+ "https://github.com/brettwooldridge/HikariCP/wiki/About-Pool-Sizing)"
				: "a plain Spring Boot app with Flyway on this pool needs " + PLAIN_APP_MIN_POOL
						+ " to start (measured: at pool 1 Flyway waits for a second connection while it holds the "
						+ "first, and start-up fails; Liquibase not measured); the lab's own service runs Flyway on "
						+ "connections of its own";
	}

	/**
	 * connection-timeout: the sweep's rule ({@link ConnectionTimeout}) from the slowest
	 * healthy request, at least {@link #CONNECTION_TIMEOUT_FLOOR_MS}; HikariCP's default
	 * when nothing sustained its rate.
	 */
	public static long connectionTimeoutMs(OptionalDouble waitBasisMs) {
		return waitBasisMs.isPresent()
				? Math.max(CONNECTION_TIMEOUT_FLOOR_MS, ConnectionTimeout.ms(waitBasisMs.getAsDouble()))
				: DEFAULT_CONNECTION_TIMEOUT_MS;
	}

	private static String connectionTimeoutWhy(long writtenMs, OptionalDouble waitBasisMs, String waitBasis) {
		String risk = String.format(Locale.ROOT, "Risk: a request the pool cannot serve waits %s s, and %s",
				Durations.ms(writtenMs / 1000.0), REFUSAL);
		if (waitBasisMs.isEmpty()) {
			return "ms; HikariCP's default (" + HIKARI_SETTINGS + "): no sustained point to derive a shorter one from. "
					+ risk;
		}
		String rule = ConnectionTimeout.rule(waitBasis, waitBasisMs.getAsDouble());
		String loginTimeout = "HikariCP also sets the driver's login timeout to max(1 s, connection-timeout + "
				+ "500 ms), JVM-wide through DriverManager for a jdbc-url pool, so this also bounds opening a new "
				+ "physical connection (TLS, IAM, another zone)";
		if (writtenMs > CONNECTION_TIMEOUT_FLOOR_MS) {
			return "ms; " + rule + ": " + ConnectionTimeout.FAIL_FAST + "; above the "
					+ CONNECTION_TIMEOUT_FLOOR_MS / 1000 + " s floor (" + loginTimeout + "). " + risk;
		}
		return "ms; a documented floor, not measured: " + loginTimeout + "; " + CONNECTION_TIMEOUT_FLOOR_MS / 1000
				+ " s is pgjdbc's own default connectTimeout (" + PGJDBC_PARAMETERS + "). The sweep's rule, " + rule
				+ ", gives " + ConnectionTimeout.ms(waitBasisMs.getAsDouble())
				+ " ms: a wait that long already means the pool is saturated. " + risk;
	}

	/**
	 * The suggested leak-detection-threshold: the longest hold, rounded up to whole
	 * seconds, at least HikariCP's 2 s; a minute when nothing measured one.
	 */
	public static long leakDetectionThresholdMs(OptionalDouble holdBasisMs) {
		if (holdBasisMs.isEmpty()) {
			return UNMEASURED_LEAK_DETECTION_THRESHOLD_MS;
		}
		return Math.max(MIN_LEAK_DETECTION_THRESHOLD_MS, (long) Math.ceil(holdBasisMs.getAsDouble() / 1000) * 1000);
	}

	private static String leakDetectionThresholdWhy(OptionalDouble holdBasisMs, String holdBasis) {
		String optIn = "ms; opt-in, so commented out: HikariCP then logs a warning with a stack trace for every "
				+ "connection held longer, and a batch job, @Scheduled task, migration or streaming response that "
				+ "holds one that long warns too. ";
		return optIn + (holdBasisMs.isPresent()
				? String.format(Locale.ROOT,
						"Suggested: %s (%s ms), rounded up to whole seconds, at least HikariCP's 2 s minimum",
						holdBasis, Durations.ms(holdBasisMs.getAsDouble()))
				: "Suggested: a minute, as nothing sustained its rate to measure a hold");
	}

}
