package org.poollab.bench.results;

import org.jspecify.annotations.Nullable;

import org.poollab.service.hold.HoldPlace;
import org.poollab.service.hold.HoldTime;

/**
 * The connection hold every instance of a point was told to emulate
 * ({@code bench.holdTime}, {@code bench.holdTimeFrom} or the preset's), as each
 * instance's {@code lab.hold.*}.
 *
 * @param meanMs the asked mean hold
 * @param p99Ms the asked p99; {@code null}: every request holds the mean
 * @param place where the time goes: {@code database} or {@code application}
 * ({@link HoldPlace#value()})
 * @param source where the figures came from: {@code bench.holdTime}, the preset's name,
 * or the exposition {@code bench.holdTimeFrom} read
 */
public record EmulatedHold(double meanMs, @Nullable Double p99Ms, String place, String source) {

	public EmulatedHold {
		source = (source != null) ? source : "";
	}

	public static EmulatedHold of(HoldTime hold, HoldPlace place, String source) {
		return new EmulatedHold(hold.meanMs(), hold.p99Ms(), place.value(), source);
	}

	public HoldTime holdTime() {
		return new HoldTime(this.meanMs, this.p99Ms);
	}

	/** As settings write it, with the place: {@code 10ms (database)}. */
	public String describe() {
		return holdTime().describe() + " (" + this.place + ")";
	}

}
