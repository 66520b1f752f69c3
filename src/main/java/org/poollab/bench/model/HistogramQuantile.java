package org.poollab.bench.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * A quantile of a cumulative histogram (Prometheus's {@code le} buckets), interpolated
 * linearly within the bucket that holds it, as Prometheus's {@code histogram_quantile}
 * does: finer than the bucket's upper bound where recordings spread over the bucket,
 * never outside it. The first bucket's lower edge is 0; beyond the largest finite bucket
 * the answer is that bucket's bound. Written here because neither commons-math3 nor
 * Micrometer reads a quantile back from exposed buckets.
 */
public final class HistogramQuantile {

	private HistogramQuantile() {
	}

	/**
	 * @param cumulative counts at or below each upper bound, seconds ({@code +Inf} as
	 * infinity)
	 * @param count the recordings the quantile is of
	 * @param quantile e.g. 0.99
	 * @return milliseconds; 0 for no recording
	 */
	public static double interpolatedMs(Map<Double, Double> cumulative, double count, double quantile) {
		if (count <= 0) {
			return 0;
		}
		double rank = quantile * count;
		double lower = 0;
		double below = 0;
		for (Map.Entry<Double, Double> bucket : new TreeMap<>(cumulative).entrySet()) {
			if (bucket.getKey().isInfinite()) {
				return 1000 * lower;
			}
			if (bucket.getValue() >= rank) {
				double inBucket = bucket.getValue() - below;
				double share = (inBucket > 0) ? (rank - below) / inBucket : 1;
				return 1000 * (lower + (bucket.getKey() - lower) * share);
			}
			lower = bucket.getKey();
			below = bucket.getValue();
		}
		return 1000 * lower;
	}

}
