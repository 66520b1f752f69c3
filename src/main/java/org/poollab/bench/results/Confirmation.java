package org.poollab.bench.results;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A topology started afresh with exactly the recommended
 * {@code spring.datasource.hikari.*} block (read from a file, as a user pastes it), then
 * loaded with Poisson arrivals at the rate the pool size was chosen at.
 *
 * @param topology the topology, with its request threads when the sweep varied them, e.g.
 * {@code multi} or {@code single-virtual} ({@link Point#deployment()})
 * @param block the YAML the instances were started with, byte for byte
 * @param settings the block's {@code spring.datasource.hikari.*} settings as parsed from
 * it, by key (e.g. {@code connection-timeout} to {@code 500})
 * @param mismatches every difference between {@code settings} and what each instance
 * reported through its actuator once started; empty when they all matched
 * @param point the measured window: rate, arrivals, latency, status counts, outcome; the
 * second window when the first was a cold tail
 * @param chosenAt what the pool was chosen from, the window is compared with it;
 * {@code null} where nothing was (results written before it was recorded)
 * @param coldTail the first window, when it was measured again on the same instances
 * because its p99 was far outside {@code chosenAt}'s interval with a wide interval of its
 * own; {@code null} when the window was measured once
 */
public record Confirmation(String topology, String block, Map<String, String> settings, List<String> mismatches,
		Point point, @Nullable ChosenAt chosenAt, @Nullable Point coldTail) {

	public Confirmation {
		settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
		mismatches = List.copyOf(mismatches);
	}

	/** A window compared with nothing (results written before it was recorded). */
	public Confirmation(String topology, String block, Map<String, String> settings, List<String> mismatches,
			Point point) {
		this(topology, block, settings, mismatches, point, null, null);
	}

	/**
	 * The same confirmation with its window measured again on the same instances: this
	 * window becomes the cold tail.
	 * @param second the window measured after it
	 */
	public Confirmation measuredAgain(Point second) {
		return new Confirmation(this.topology, this.block, this.settings, this.mismatches, second, this.chosenAt,
				this.point);
	}

	/**
	 * The p99 of what the pool was chosen from: the grid's cell at the block's rate, or
	 * the SLO search's measurement of the pool.
	 *
	 * @param by {@code grid} or {@code search}, for the sentence
	 * @param p99Ms its p99
	 * @param p99Interval its p99's 95 % interval; {@code null} where none was recorded
	 */
	public record ChosenAt(String by, double p99Ms, @Nullable Interval p99Interval) {

		public static final String GRID = "grid";

		public static final String SEARCH = "search";

	}

}
