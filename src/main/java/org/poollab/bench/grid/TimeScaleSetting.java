package org.poollab.bench.grid;

import java.util.Locale;

/**
 * {@code bench.timeScale}: {@code auto}, where the capacity probe picks k from
 * {@link TimeScale#SERIES} per topology, or a fixed whole number (1 forbids slow motion).
 */
public sealed interface TimeScaleSetting {

	/** What the setting's binding accepts: auto, or 1 to 100. */
	String PATTERN = "(?i)\\s*(auto|[1-9][0-9]?|100)\\s*";

	/** What is allowed, for refusals and the options page. */
	String ALLOWED = "auto or a whole number from 1 to 100 (1 forbids slow motion)";

	/** The default. */
	TimeScaleSetting AUTO = new Auto();

	/**
	 * The setting as written, already checked against {@link #PATTERN}.
	 * @throws IllegalArgumentException for anything else
	 */
	static TimeScaleSetting parse(String written) {
		String value = written.trim().toLowerCase(Locale.ROOT);
		if (!value.matches(PATTERN)) {
			throw new IllegalArgumentException("bench.timeScale=" + written + " is not allowed: use " + ALLOWED + ".");
		}
		return "auto".equals(value) ? AUTO : new Fixed(Integer.parseInt(value));
	}

	/** Whether this asks for slow motion whatever the probe finds: a fixed k above 1. */
	default boolean fixedSlowMotion() {
		return this instanceof Fixed fixed && fixed.k() > 1;
	}

	/** As written, e.g. {@code auto} or {@code 2}. */
	String written();

	/** k chosen per topology by the capacity probe. */
	record Auto() implements TimeScaleSetting {

		@Override
		public String written() {
			return "auto";
		}

	}

	/** k as set, for every topology. */
	record Fixed(int k) implements TimeScaleSetting {

		public Fixed {
			if (k < 1) {
				throw new IllegalArgumentException("k is a whole number of 1 or more, not " + k);
			}
		}

		@Override
		public String written() {
			return String.valueOf(this.k);
		}

		/** k as a scale, no overhead measured. */
		public TimeScale scale() {
			return TimeScale.of(this.k);
		}

	}

}
