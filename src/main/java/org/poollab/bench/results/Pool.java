package org.poollab.bench.results;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * HikariCP telemetry scraped from every instance's {@code /actuator/prometheus} during
 * the measured window.
 *
 * @param observedMax {@code hikaricp.connections.max} per instance scraped in the window
 * (-1: it changed during the window); each must equal the point's pool size, which proves
 * the point measured what it claims
 * @param peakActive highest {@code hikaricp.connections.active} seen on any one instance
 * @param peakPending highest {@code hikaricp.connections.pending} seen on any one
 * instance
 * @param acquireP99Ms 99th percentile of {@code hikaricp.connections.acquire} over the
 * window, all instances together (upper bound of the histogram bucket)
 * @param usageMeanMs mean time a connection was held ({@code hikaricp.connections.usage})
 * @param timeouts connection-acquire timeouts ({@code hikaricp.connections.timeout})
 * @param telemetrySamples scrapes per instance that the figures rest on
 * @param meanActive the mean of {@code hikaricp.connections.active} over the window's
 * scrapes, summed over the instances: connections busy on average, which by Little's law
 * and the throughput give the mean hold without HikariCP's whole-millisecond rounding;
 * null in results written before it was recorded
 * @param pinnedEvents times a virtual thread blocked while pinned to its carrier in the
 * window (JFR {@code jdk.VirtualThreadPinned}), all instances together; null where the
 * service's JVM has no virtual threads (before Java 21) or in results written before it
 * was recorded
 * @param holdMeanMs the mean connection hold, checkout to return, as the instances timed
 * it on a nanosecond clock ({@code lab.connection.hold}), all instances together; null
 * where no request was timed or in results written before it was recorded
 * @param holdP99Ms its 99th percentile, interpolated within its histogram bucket
 * @param holdDrawnMeanMs the mean of the holds the instances drew to emulate in the
 * window ({@code lab.hold.drawn}), all instances together: what {@code holdMeanMs} is
 * judged against, where a heavy tail makes a window's draws differ from the asked mean;
 * null where nothing was drawn (no emulated hold, a team's app) or in results written
 * before it was recorded
 */
public record Pool(List<Integer> observedMax, int peakActive, int peakPending, double acquireP99Ms, double usageMeanMs,
		long timeouts, int telemetrySamples, @Nullable Double meanActive, @Nullable Long pinnedEvents,
		@Nullable Double holdMeanMs, @Nullable Double holdP99Ms, @Nullable Double holdDrawnMeanMs) {

	/**
	 * Figures without the mean active connections, pinned virtual threads or the measured
	 * hold (results written before them).
	 */
	public Pool(List<Integer> observedMax, int peakActive, int peakPending, double acquireP99Ms, double usageMeanMs,
			long timeouts, int telemetrySamples) {
		this(observedMax, peakActive, peakPending, acquireP99Ms, usageMeanMs, timeouts, telemetrySamples, null, null,
				null, null, null);
	}

	/**
	 * Every instance reported {@code poolSize} as its HikariCP maximum; for
	 * {@link SweepResults#NO_POOL}, every instance was scraped and none reported a
	 * HikariCP pool (its gauges read 0, which a HikariCP pool never reports).
	 * @param poolSize the size the point claims
	 * @return whether the telemetry proves it
	 */
	public boolean verified(int poolSize) {
		return !this.observedMax.isEmpty() && this.observedMax.stream().allMatch((max) -> max == poolSize);
	}

}
