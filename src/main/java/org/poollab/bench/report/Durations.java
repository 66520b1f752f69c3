package org.poollab.bench.report;

import java.time.Duration;

/**
 * How the lab writes a length of time for people, on the console and in the report:
 * {@code 4m01s}, {@code 55s}, {@code 250ms}. One home, so the console's time account and
 * the report's header read alike.
 */
public final class Durations {

	private Durations() {
	}

	/** E.g. {@code 4m01s}, {@code 55s}; below a second, milliseconds ({@code 250ms}). */
	public static String human(Duration duration) {
		long seconds = Math.round(duration.toMillis() / 1000.0);
		if (seconds >= 60) {
			return "%dm%02ds".formatted(seconds / 60, seconds % 60);
		}
		return (duration.toMillis() >= 1000 || duration.isZero()) ? seconds + "s" : duration.toMillis() + "ms";
	}

	/** {@link #human(Duration)} of a number of seconds. */
	public static String human(double seconds) {
		return human(Duration.ofMillis(Math.round(seconds * 1000)));
	}

}
