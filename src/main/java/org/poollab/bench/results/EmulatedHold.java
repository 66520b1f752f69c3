package org.poollab.bench.results;

import java.math.BigDecimal;
import java.math.RoundingMode;

import org.jspecify.annotations.Nullable;

import org.poollab.service.hold.HoldHistogram;
import org.poollab.service.hold.HoldPlace;
import org.poollab.service.hold.HoldTime;

/**
 * The connection hold every instance of a point was told to emulate
 * ({@code bench.holdTime}, {@code bench.holdTimeFrom}, {@code bench.holdCpu} or the
 * preset's), as each instance's {@code lab.hold.*}: a waiting hold, database CPU, or both
 * (the CPU first, then the wait).
 *
 * @param meanMs the asked mean waiting hold; 0 for none (database CPU alone)
 * @param p99Ms the asked p99; {@code null}: every request holds the mean
 * @param place where the waiting time goes: {@code database} or {@code application}
 * ({@link HoldPlace#value()})
 * @param source where the figures came from: {@code bench.holdTime}, the preset's name,
 * or the exposition {@code bench.holdTimeFrom} read
 * @param cpuMs the database CPU each request's transaction costs ({@code lab.hold.cpu});
 * {@code null} for none
 * @param histogram the measured distribution each hold is drawn from
 * ({@link HoldHistogram#written()}, scaled to the mean), {@code lab.hold.histogram};
 * {@code null}: the mean and p99 say it
 * @param usesPerRequest connection uses each request takes, each a hold of its own
 * ({@code lab.hold.uses}); 1 unless read from a team's metrics
 */
public record EmulatedHold(double meanMs, @Nullable Double p99Ms, String place, String source, @Nullable Double cpuMs,
		@Nullable String histogram, double usesPerRequest) {

	public EmulatedHold {
		source = (source != null) ? source : "";
		// results.json written before uses were counted has none: one use.
		usesPerRequest = (usesPerRequest >= 1) ? usesPerRequest : 1;
	}

	/** One use per request, no histogram. */
	public EmulatedHold(double meanMs, @Nullable Double p99Ms, String place, String source, @Nullable Double cpuMs) {
		this(meanMs, p99Ms, place, source, cpuMs, null, 1);
	}

	/** A waiting hold alone. */
	public EmulatedHold(double meanMs, @Nullable Double p99Ms, String place, String source) {
		this(meanMs, p99Ms, place, source, null);
	}

	public static EmulatedHold of(HoldTime hold, HoldPlace place, String source) {
		return new EmulatedHold(hold.meanMs(), hold.p99Ms(), place.value(), source);
	}

	/**
	 * A hold drawn from a measured histogram, {@code usesPerRequest} of them a request;
	 * the p99 is the histogram's, for the console and the report.
	 */
	public static EmulatedHold of(HoldHistogram histogram, double usesPerRequest, HoldPlace place, String source) {
		return new EmulatedHold(histogram.meanMs(), histogram.quantileMs(0.99), place.value(), source, null,
				histogram.written(), usesPerRequest);
	}

	/** Database CPU alone, no waiting hold. */
	public static EmulatedHold cpu(double cpuMs, String source) {
		return new EmulatedHold(0, null, HoldPlace.DATABASE.value(), source, cpuMs);
	}

	/** The same hold with database CPU besides; {@code null}: none. */
	public EmulatedHold withCpu(@Nullable Double cpuMs, String cpuSource) {
		String both = (cpuMs != null && !cpuSource.equals(this.source)) ? this.source + ", " + cpuSource : this.source;
		return new EmulatedHold(this.meanMs, this.p99Ms, this.place, both, cpuMs, this.histogram, this.usesPerRequest);
	}

	/**
	 * The same hold with {@code usesPerRequest} uses per request, each drawn as before.
	 */
	public EmulatedHold withUses(double usesPerRequest) {
		return new EmulatedHold(this.meanMs, this.p99Ms, this.place, this.source, this.cpuMs, this.histogram,
				usesPerRequest);
	}

	/**
	 * The hold as the lab emulates it in slow motion: the mean, the p99 and a histogram's
	 * bucket bounds {@code k} times as long, the uses as they were. Database CPU cannot
	 * be stretched (it is what such a hold measures), so a hold with CPU is never scaled.
	 * @param k the time scale's factor, 1 for the hold as asked
	 * @throws IllegalArgumentException for k below 1, or above 1 with database CPU
	 */
	public EmulatedHold scaled(int k) {
		if (k < 1) {
			throw new IllegalArgumentException("a hold is stretched by a whole number of 1 or more, not " + k);
		}
		if (k == 1) {
			return this;
		}
		if (this.cpuMs != null) {
			throw new IllegalArgumentException(
					"a hold with database CPU cannot run in slow motion: the database's CPU is what it measures");
		}
		String stretched = (this.histogram != null)
				? HoldHistogram.parse(this.histogram, this.meanMs).scaled(k).written() : null;
		return new EmulatedHold(this.meanMs * k, (this.p99Ms != null) ? this.p99Ms * k : null, this.place, this.source,
				null, stretched, this.usesPerRequest);
	}

	/** Whether requests also wait ({@code lab.hold.mean}), not only cost CPU. */
	public boolean waits() {
		return this.meanMs > 0;
	}

	/**
	 * The mean hold a request was asked to have, the CPU's time included; {@code null}
	 * for database CPU alone, whose hold is whatever contention makes it.
	 */
	public @Nullable Double askedMeanMs() {
		return waits() ? this.meanMs + ((this.cpuMs != null) ? this.cpuMs : 0) : null;
	}

	/** The asked p99 where one was asked of a waiting hold. */
	public @Nullable Double askedP99Ms() {
		return (waits() && this.p99Ms != null) ? this.p99Ms + ((this.cpuMs != null) ? this.cpuMs : 0) : null;
	}

	/**
	 * The waiting hold; only when {@link #waits()}. Drawn from a histogram, its p99 may
	 * be beyond what {@link HoldTime} takes, so only the mean is kept.
	 */
	public HoldTime holdTime() {
		return (this.histogram != null) ? new HoldTime(this.meanMs, null) : new HoldTime(this.meanMs, this.p99Ms);
	}

	/**
	 * As settings write it, with the place: {@code 10ms (database)},
	 * {@code 2ms of database CPU}, {@code 10ms (database) + 2ms of database CPU}.
	 */
	public String describe() {
		String cpu = (this.cpuMs != null) ? new HoldTime(this.cpuMs, null).describe() + " of database CPU" : "";
		if (!waits()) {
			return cpu;
		}
		return describeWaiting() + " (" + this.place + ")" + (cpu.isEmpty() ? "" : " + " + cpu);
	}

	/**
	 * The waiting hold alone as settings write it, with its histogram and uses:
	 * {@code 10ms,40ms}, {@code 1.05ms (histogram, p99 9.8ms) x 2.5 uses}.
	 */
	public String describeWaiting() {
		String waiting = (this.histogram != null)
				? ms(this.meanMs) + " (histogram, p99 " + ms((this.p99Ms != null) ? this.p99Ms : this.meanMs) + ")"
				: holdTime().describe();
		return waiting + ((this.usesPerRequest != 1) ? " x " + number(this.usesPerRequest) + " uses" : "");
	}

	private static String ms(double ms) {
		return number(ms) + "ms";
	}

	private static String number(double value) {
		return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
	}

}
