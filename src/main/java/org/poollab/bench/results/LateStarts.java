package org.poollab.bench.results;

/**
 * How late JMeter may start its requests (the p99 of its late starts in a window) before
 * the window is the generator's rather than the service's: at 2000 rps 10 ms is 20
 * requests sent late; on this box a generator that keeps up shows 0–2 ms (measured with
 * the open model at 500 and 1000 rps), one that falls behind hundreds. The same limit
 * marks a cell's latency as understated.
 */
public final class LateStarts {

	/** The limit; a late-start p99 above it is late. */
	public static final double LIMIT_MS = 10;

	private LateStarts() {
	}

	/** Whether a late-start p99 is past {@link #LIMIT_MS}. */
	public static boolean late(double startLagP99Ms) {
		return startLagP99Ms > LIMIT_MS;
	}

}
