package org.poollab.bench.telemetry;

import java.util.Map;
import java.util.TreeMap;

/**
 * A Micrometer percentile histogram as {@code /actuator/prometheus} exposes it: for each
 * bucket's upper bound ({@code le}, in seconds, {@code +Inf} last) the count of
 * recordings at or below it since the instance started. What happened in a window is the
 * difference between two scrapes; a percentile is read off the buckets, so it is only as
 * fine as they are.
 */
final class Histogram {

	private Histogram() {
	}

	/**
	 * @param le a bucket's {@code le} label
	 * @return its upper bound in seconds
	 */
	static double bound(String le) {
		return le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
	}

	/**
	 * The recordings between two scrapes, still cumulative. A bucket the earlier scrape
	 * lacks counts from 0: Micrometer creates a timer (a status, a URI) at its first
	 * recording.
	 */
	static TreeMap<Double, Double> difference(Map<Double, Double> after, Map<Double, Double> before) {
		TreeMap<Double, Double> window = new TreeMap<>();
		after.forEach((le, count) -> window.put(le, count - before.getOrDefault(le, 0.0)));
		return window;
	}

	/** The recordings in the {@code +Inf} bucket, which holds them all. */
	static double count(Map<Double, Double> cumulative) {
		return cumulative.getOrDefault(Double.POSITIVE_INFINITY, 0.0);
	}

	/**
	 * The upper bound of the first bucket holding the percentile: an over-estimate by at
	 * most the bucket's width, never interpolated. Beyond the largest finite bucket it is
	 * reported as that bucket's bound.
	 * @param cumulative cumulative counts by upper bound (seconds)
	 * @param count the recordings the percentile is of
	 * @param quantile e.g. {@code 0.99}
	 * @return milliseconds; 0 for no recording
	 */
	static double percentileMs(Map<Double, Double> cumulative, double count, double quantile) {
		if (count <= 0) {
			return 0;
		}
		double largestFinite = 0;
		for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
			if (!bucket.getKey().isInfinite()) {
				largestFinite = bucket.getKey();
				if (bucket.getValue() >= quantile * count) {
					return 1000 * bucket.getKey();
				}
			}
		}
		return 1000 * largestFinite;
	}

}
