package org.poollab.bench.results;

import org.jspecify.annotations.Nullable;

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
 */
public record EmulatedHold(double meanMs, @Nullable Double p99Ms, String place, String source, @Nullable Double cpuMs) {

	public EmulatedHold {
		source = (source != null) ? source : "";
	}

	/** A waiting hold alone. */
	public EmulatedHold(double meanMs, @Nullable Double p99Ms, String place, String source) {
		this(meanMs, p99Ms, place, source, null);
	}

	public static EmulatedHold of(HoldTime hold, HoldPlace place, String source) {
		return new EmulatedHold(hold.meanMs(), hold.p99Ms(), place.value(), source);
	}

	/** Database CPU alone, no waiting hold. */
	public static EmulatedHold cpu(double cpuMs, String source) {
		return new EmulatedHold(0, null, HoldPlace.DATABASE.value(), source, cpuMs);
	}

	/** The same hold with database CPU besides; {@code null}: none. */
	public EmulatedHold withCpu(@Nullable Double cpuMs, String cpuSource) {
		String both = (cpuMs != null && !cpuSource.equals(this.source)) ? this.source + ", " + cpuSource : this.source;
		return new EmulatedHold(this.meanMs, this.p99Ms, this.place, both, cpuMs);
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

	/** The waiting hold; only when {@link #waits()}. */
	public HoldTime holdTime() {
		return new HoldTime(this.meanMs, this.p99Ms);
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
		return holdTime().describe() + " (" + this.place + ")" + (cpu.isEmpty() ? "" : " + " + cpu);
	}

}
