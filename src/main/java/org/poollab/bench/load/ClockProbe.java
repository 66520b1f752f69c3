package org.poollab.bench.load;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How far a remote engine's clock is off the lab's, from requests the engine sends to a
 * probe the lab runs (NTP's idea, one way): the engine stamps each request's start
 * {@code ts1} and its elapsed {@code e} by its own clock, the lab stamps the moment the
 * request arrived {@code t2} by its own. By the engine's clock the arrival happened
 * between the request's start and its end. JMeter reads the wall clock now and then and
 * counts on from it in whole milliseconds ({@code sampleresult.useNanoTime}, its
 * default), so its start time is up to 1 ms early or 2 ms late and its elapsed time up to
 * 1 ms short: the arrival was between {@code ts1 - 1} and {@code ts1 + e + 3} by the
 * engine's clock, which therefore reads {@code skew = ts1 + (e + 2) / 2 - t2} ahead of
 * the lab's, give or take {@code (e + 4) / 2}. The fastest request bounds the skew the
 * most tightly.
 */
public final class ClockProbe {

	/** How early JMeter's start time may be, in milliseconds. */
	static final double EARLY_START_MS = 1;

	/**
	 * How late JMeter's start time may be, plus how short its elapsed time, in
	 * milliseconds.
	 */
	static final double LATE_END_MS = 3;

	private ClockProbe() {
	}

	/**
	 * One probe request.
	 *
	 * @param startMs when the engine started it, by the engine's clock (JMeter's
	 * {@code timeStamp})
	 * @param elapsedMs how long it took, by the engine (JMeter's {@code elapsed})
	 * @param arrivedMs when it arrived at the lab's probe, by the lab's clock
	 */
	public record Reading(long startMs, long elapsedMs, double arrivedMs) {

		double skewMs() {
			double earliest = this.startMs - EARLY_START_MS;
			double latest = this.startMs + this.elapsedMs + LATE_END_MS;
			return (earliest + latest) / 2 - this.arrivedMs;
		}

		double uncertaintyMs() {
			return (this.elapsedMs + LATE_END_MS + EARLY_START_MS) / 2;
		}

	}

	/**
	 * An engine's clock against the lab's.
	 *
	 * @param engine the engine, as in {@code bench.remoteEngines}
	 * @param skewMs how far ahead of the lab's its clock reads (negative: behind)
	 * @param uncertaintyMs give or take
	 * @param requests how many probe requests came back measured
	 */
	public record Skew(String engine, double skewMs, double uncertaintyMs, int requests) {

		/**
		 * Whether the skew is beyond the limit even at the most favourable end of its
		 * uncertainty: a reading that could be within the limit is not refused.
		 */
		public boolean beyond(Duration limit) {
			return Math.abs(this.skewMs) - this.uncertaintyMs > limit.toNanos() / 1e6;
		}

		/** E.g. {@code 0.4 ms behind the lab's (± 1.0 ms, 10 probe requests)}. */
		public String describe() {
			return String.format(Locale.ROOT, "%.1f ms %s the lab's (± %.1f ms, %d probe requests)",
					Math.abs(this.skewMs), (this.skewMs >= 0) ? "ahead of" : "behind", this.uncertaintyMs,
					this.requests);
		}

	}

	/**
	 * The engine's skew from its probe requests: the reading with the narrowest
	 * uncertainty (the fastest request), the median of those as narrow when several are.
	 * @return empty when no request came back measured
	 */
	public static Optional<Skew> skew(String engine, List<Reading> readings) {
		if (readings.isEmpty()) {
			return Optional.empty();
		}
		double narrowest = readings.stream().mapToDouble(Reading::uncertaintyMs).min().orElseThrow();
		List<Reading> best = readings.stream()
			.filter((reading) -> reading.uncertaintyMs() == narrowest)
			.sorted(Comparator.comparingDouble(Reading::skewMs))
			.toList();
		Reading median = best.get((best.size() - 1) / 2);
		return Optional.of(new Skew(engine, median.skewMs(), narrowest, readings.size()));
	}

}
