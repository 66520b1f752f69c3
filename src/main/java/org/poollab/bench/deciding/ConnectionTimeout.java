package org.poollab.bench.deciding;

import java.util.Locale;

import org.poollab.bench.text.Durations;

/**
 * The sweep's rule for the wait for a connection: how long a healthy request can wait
 * before the wait itself says the pool is saturated. r2dbc-pool's
 * {@code max-acquire-time} is this rule as written; HikariCP's {@code connection-timeout}
 * is it or a floor, since HikariCP also derives the driver's login timeout from it
 * ({@link PastedSettings}).
 */
public final class ConnectionTimeout {

	/** The wait is this many times the slowest healthy request ... */
	public static final int FACTOR = 4;

	/** ... rounded up to this step ... */
	public static final long STEP_MS = 250;

	/**
	 * ... and at least this long: HikariCP ignores a connection-timeout below 250 ms, and
	 * validation-timeout (at least 250 ms) must stay below it.
	 */
	public static final long MIN_MS = 500;

	/** Why a wait longer than the rule's is not worth it. */
	public static final String FAIL_FAST = "a longer wait means the pool is saturated, so fail fast";

	private ConnectionTimeout() {
	}

	/**
	 * The wait from the slowest healthy request: {@link #FACTOR} times it, rounded up to
	 * {@link #STEP_MS}, at least {@link #MIN_MS}.
	 */
	public static long ms(double slowestMs) {
		return Math.max(MIN_MS, (long) Math.ceil(FACTOR * slowestMs / STEP_MS) * STEP_MS);
	}

	/**
	 * The rule in words, e.g. {@code 4x the slowest successful request (120 ms), rounded
	 * up to 250 ms, at least 500 ms}.
	 * @param basis what the wait was derived from
	 * @param basisMs its figure
	 */
	public static String rule(String basis, double basisMs) {
		return String.format(Locale.ROOT, "%dx %s (%s ms), rounded up to %d ms, at least %d ms", FACTOR, basis,
				Durations.ms(basisMs), STEP_MS, MIN_MS);
	}

}
