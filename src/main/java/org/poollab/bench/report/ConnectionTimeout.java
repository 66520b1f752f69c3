package org.poollab.bench.report;

import java.util.Locale;

import org.poollab.bench.text.Durations;

/**
 * The recommended wait for a connection ({@code connection-timeout}, r2dbc-pool's
 * {@code max-acquire-time}) and the one sentence that explains it wherever it is written.
 */
final class ConnectionTimeout {

	/** The wait is this many times the slowest healthy request ... */
	static final int FACTOR = 4;

	/** ... rounded up to this step ... */
	static final long STEP_MS = 250;

	/**
	 * ... and at least this long: HikariCP ignores a connection-timeout below 250 ms, and
	 * validation-timeout (at least 250 ms) must stay below it.
	 */
	static final long MIN_MS = 500;

	/** Why a wait longer than the rule's is not worth it. */
	static final String FAIL_FAST = "a longer wait means the pool is saturated, so fail fast";

	private ConnectionTimeout() {
	}

	/**
	 * connection-timeout from the slowest healthy request: {@link #FACTOR} times it,
	 * rounded up to {@link #STEP_MS}, at least {@link #MIN_MS}.
	 */
	static long ms(double slowestMs) {
		return Math.max(MIN_MS, (long) Math.ceil(FACTOR * slowestMs / STEP_MS) * STEP_MS);
	}

	/**
	 * The rule in words, e.g. {@code 4x the slowest successful request (120 ms), rounded
	 * up to 250 ms, at least 500 ms}.
	 * @param basis what the wait was derived from
	 * @param basisMs its figure
	 */
	static String rule(String basis, double basisMs) {
		return String.format(Locale.ROOT, "%dx %s (%s ms), rounded up to %d ms, at least %d ms", FACTOR, basis,
				Durations.ms(basisMs), STEP_MS, MIN_MS);
	}

}
