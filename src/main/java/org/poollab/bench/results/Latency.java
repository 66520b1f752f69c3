package org.poollab.bench.results;

import org.jspecify.annotations.Nullable;

/**
 * Percentiles from the raw samples (HdrHistogram); JMeter records whole milliseconds.
 *
 * @param p50Interval the median's 95 % interval; {@code null} in results written before
 * intervals were recorded, or for too few samples
 * @param p99Interval the 99th percentile's 95 % interval, likewise
 */
public record Latency(double meanMs, double p50Ms, double p95Ms, double p99Ms, double p999Ms, double maxMs,
		@Nullable Interval p50Interval, @Nullable Interval p99Interval) {

	/** Figures without intervals (results written before they were recorded). */
	public Latency(double meanMs, double p50Ms, double p95Ms, double p99Ms, double p999Ms, double maxMs) {
		this(meanMs, p50Ms, p95Ms, p99Ms, p999Ms, maxMs, null, null);
	}

}
