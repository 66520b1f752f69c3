package org.poollab.bench.text;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.Locale;

/**
 * How the lab writes a length of time for people, on the console and in the report:
 * {@code 4m01s}, {@code 55s}, {@code 250ms} for how long something ran, {@code 12.3} for
 * a latency in milliseconds. One home, so the console, the decision's reasons and the
 * report read alike.
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

	/**
	 * Milliseconds as the report writes them: whole numbers without a decimal, one
	 * decimal from 1 ms up, and below 1 ms two significant digits, so 0.01 and 0.0030 do
	 * not collapse into 0.0.
	 */
	public static String ms(double valueMs) {
		if (valueMs == Math.rint(valueMs)) {
			return String.valueOf((long) valueMs);
		}
		if (Math.abs(valueMs) >= 1) {
			return String.format(Locale.ROOT, "%.1f", valueMs);
		}
		return new BigDecimal(valueMs).round(new MathContext(2)).stripTrailingZeros().toPlainString();
	}

	/**
	 * An interval in milliseconds, in brackets after a figure: {@code " [11.2–13.0]"}.
	 */
	public static String interval(double lowMs, double highMs) {
		return " [" + ms(lowMs) + "–" + ms(highMs) + "]";
	}

}
