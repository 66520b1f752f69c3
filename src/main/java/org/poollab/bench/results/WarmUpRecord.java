package org.poollab.bench.results;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.poollab.bench.text.Durations;

/**
 * A fresh deployment's warm-up: load at {@code rateRps} (after a ramp) until the slowest
 * instance's own p99 ({@code http.server.requests}) of one slice was within 20 % or 1 ms
 * of the slice before, or until {@code bench.topologyWarmup}.
 *
 * @param deployment the deployment's label, e.g. {@code single}
 * @param rateRps the rate held
 * @param seconds how long the load ran, ramp included
 * @param sliceSeconds how long each slice was
 * @param end how it ended
 * @param serverP99sMs the slowest instance's p99 in each slice after the ramp, -1 where
 * an instance had no figures
 */
public record WarmUpRecord(String deployment, int rateRps, double seconds, long sliceSeconds, End end,
		List<Double> serverP99sMs) {

	/**
	 * A slice this many times the p99 objective, twice in a row, ends a warm-up as
	 * {@link End#OVERLOADED}.
	 */
	public static final int OVERLOAD_FACTOR = 10;

	/** How a warm-up ended. */
	public enum End {

		/** The slowest instance's p99 settled at the top rate. */
		SETTLED,

		/**
		 * Stopped early: an instance did not answer, or its p99 was above
		 * {@link #OVERLOAD_FACTOR} times the objective twice in a row.
		 */
		OVERLOADED,

		/** {@code bench.topologyWarmup} reached. */
		LIMIT

	}

	public boolean settled() {
		return this.end == End.SETTLED;
	}

	/**
	 * One warm-up in a sentence, for the report's header and the console alike: how it
	 * ended, after how long, and the slowest instance's own p99 per slice.
	 * @return e.g. "Warm-up of single up to 2000 rps, 35s: settled (slowest instance's
	 * own p99 per 5 s: 880 → 11.6 → 5.4 → 6 ms)."
	 */
	public String sentence() {
		return String.format(Locale.ROOT,
				"Warm-up of %s up to %d rps, %s: %s (slowest instance's own p99 per %d s: %s).", this.deployment(),
				this.rateRps(), Durations.human(this.seconds()), switch (this.end()) {
					case SETTLED -> "settled";
					case OVERLOADED -> "NOT settled, stopped early: the instances were drowning (an instance did not "
							+ "answer, or p99 above %dx the objective twice)".formatted(OVERLOAD_FACTOR);
					case LIMIT -> "NOT settled (bench.topologyWarmup reached)";
				}, this.sliceSeconds(),
				this.serverP99sMs().isEmpty() ? "no full slice"
						: this.serverP99sMs()
							.stream()
							.map((p99) -> (p99 < 0) ? "?" : Durations.ms(p99))
							.collect(Collectors.joining(" → ")) + " ms");
	}

}
