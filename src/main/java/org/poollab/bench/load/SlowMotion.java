package org.poollab.bench.load;

import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.results.Capacity;

/**
 * Which time scale a topology runs at, from what the box carries ({@link CapacityProbe}).
 * The pool's queue depends on rate x hold and on how holds and arrivals vary, not on the
 * rate itself (Little's law; in Erlang C the probability of waiting and the busy
 * connections do not change when the rate is divided by k and every time constant
 * multiplied by k, and the waits scale by exactly k); the box's CPU depends on the rate.
 * So a question the box cannot carry at its own speed is asked in slow motion, k times
 * slower, and its latencies are mapped back to the team's time.
 */
public final class SlowMotion {

	/** The factors tried, smallest first. */
	public static final List<Integer> SERIES = TimeScale.SERIES;

	/**
	 * A grid whose highest total rate is at most this is not probed and runs as asked.
	 * The slowest 2-core box of this kind the lab was run on served 1,077–1,183 rps of
	 * {@code GET /roles} on one instance ({@code wrk -c16}, after a 40 s warm-up; the
	 * fastest served 6,612; src/site/markdown/measurements.md, the service's ceiling):
	 * 100 rps is under a tenth of that, where the box's CPU is not what limits. Each
	 * point's own checks (hold, late starts, rate sent) still judge it.
	 */
	public static final int PROBE_FLOOR_RPS = 100;

	private SlowMotion() {
	}

	/**
	 * What the sweep does with a topology.
	 *
	 * @param timeScale the k it runs at; meaningless when {@code runs} is false
	 * @param runs false: the box cannot carry the question at any allowed k, and nothing
	 * of the topology is measured
	 * @param why one sentence, for the console, the report and results.json
	 */
	public record Choice(int timeScale, boolean runs, String why) {
	}

	/**
	 * The smallest k of {@link #SERIES} at which the box carries the grid, empty when
	 * even the largest is not enough.
	 */
	static OptionalInt needed(@Nullable Integer capacityRps, int highestRateRps) {
		if (capacityRps == null) {
			return OptionalInt.empty();
		}
		for (int k : SERIES) {
			if (highestRateRps / (double) k <= TimeScale.SAFE_SHARE * capacityRps) {
				return OptionalInt.of(k);
			}
		}
		return OptionalInt.empty();
	}

	/**
	 * @param fixed {@code bench.timeScale} when a number was given; {@code null} for
	 * {@code auto}
	 * @param capacity what the probe found
	 * @param highestRateRps the grid's highest total rate
	 * @param notScalable why slow motion does not apply (no waiting hold to stretch;
	 * database CPU, which is what is measured); {@code null} when it does
	 */
	public static Choice choose(@Nullable Integer fixed, Capacity capacity, int highestRateRps,
			@Nullable String notScalable) {
		OptionalInt needed = needed(capacity.capacityRps(), highestRateRps);
		String carried = (capacity.capacityRps() != null)
				? "this box carries %d rps here".formatted(capacity.capacityRps())
				: "this box did not carry even %d rps here".formatted(capacity.steps().get(0).rateRps());
		String asked = String.format(Locale.ROOT, "the grid asks up to %d rps and may use at most %.0f %% of that",
				highestRateRps, 100 * TimeScale.SAFE_SHARE);
		if (notScalable != null) {
			if (needed.isPresent() && needed.getAsInt() == 1) {
				return new Choice(1, true, carried + "; " + asked + ": runs as asked");
			}
			return new Choice(1, true, carried + "; " + asked + ": runs as asked all the same (" + notScalable
					+ "); each point's checks say where the box, not the pool, was measured");
		}
		if (fixed != null) {
			if (needed.isPresent() && needed.getAsInt() <= fixed) {
				return new Choice(fixed, true, carried + "; " + asked + ": runs at bench.timeScale=" + fixed);
			}
			return new Choice(fixed, false,
					carried + "; " + asked + ": not run at bench.timeScale=" + fixed + "; " + (needed.isPresent()
							? "it would need bench.timeScale=" + needed.getAsInt()
							: "even bench.timeScale=" + SERIES.get(SERIES.size() - 1) + " would not be enough"));
		}
		if (needed.isEmpty()) {
			return new Choice(SERIES.get(SERIES.size() - 1), false, carried + "; " + asked + ": not run; even k = "
					+ SERIES.get(SERIES.size() - 1) + " would not be enough");
		}
		int k = needed.getAsInt();
		return new Choice(k, true, carried + "; " + asked + ((k == 1) ? ": runs as asked"
				: ": runs in slow motion, k = %d (rates ÷ %d, holds and connection-timeout x %d; latencies mapped back to your time)"
					.formatted(k, k, k)));
	}

}
