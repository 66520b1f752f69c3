package org.poollab.bench.grid;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import org.poollab.service.hold.HoldHistogram;

/**
 * HikariCP's {@code hikaricp_connections_usage_seconds} histogram read as the uses' real
 * lengths: HikariCP records each use cut down to whole milliseconds, and Micrometer's
 * bucket bounds lie between them.
 */
final class WholeMilliseconds {

	/** HikariCP's usage is recorded in whole milliseconds. */
	private static final double RESOLUTION_MS = 1;

	/**
	 * What a use loses on average, cut down to whole milliseconds, where nothing says
	 * more: half a millisecond, its fraction of a millisecond as likely anywhere. Without
	 * buckets (a summary, or count and sum alone) the lab adds it to the mean and the
	 * p99; with buckets, {@link #histogram} finds it from them.
	 */
	static final double MEAN_CUT_MS = RESOLUTION_MS / 2;

	private WholeMilliseconds() {
	}

	/**
	 * The histogram of the uses' real lengths, scaled only as far as the sum needs.
	 * HikariCP records each use cut down to whole milliseconds ({@code 0.7 ms} is
	 * {@code 0}), so a bucket counts the whole numbers above the bound below it and up to
	 * its own, and its uses lasted from the first of them to a millisecond past the last:
	 * Micrometer's first bucket, up to 1 ms, holds the 0s and the 1s, uses of 0 to 2 ms;
	 * the next with a whole number in it, up to 2.1 ms, the 2s, uses of 2 to 3 ms. Each
	 * bucket is read as that span, and the first is split between its 0s and 1s by the
	 * {@code _sum}, the whole milliseconds the other buckets do not account for (theirs
	 * at each span's middle). Read at their own bounds, the buckets put every use up to a
	 * millisecond short, most of a sub-millisecond hold; scaling every draw to the
	 * cut-down mean instead would shrink the tail with it (a plain app's p99 by a third).
	 * @param meanMs {@code _sum / _count}, the cut-down mean
	 */
	static HoldHistogram histogram(NavigableMap<Double, Double> buckets, double meanMs) {
		NavigableMap<Double, Double> spans = uncut(buckets, meanMs);
		HoldHistogram asCounted = HoldHistogram.ofCounts(spans, meanMs);
		double interpolatedMeanMs = meanMs / asCounted.scale();
		double kept = Math.max(meanMs, Math.min(meanMs + RESOLUTION_MS, interpolatedMeanMs));
		return (kept == meanMs) ? asCounted : HoldHistogram.ofCounts(spans, kept);
	}

	/**
	 * Cumulative counts by the end of the span of real lengths each bucket's whole
	 * milliseconds stand for, seconds, the {@code +Inf} bucket kept; the first span, when
	 * it holds the 0s and the 1s, split at 1 ms.
	 */
	static NavigableMap<Double, Double> uncut(NavigableMap<Double, Double> buckets, double meanMs) {
		TreeMap<Double, Double> spans = new TreeMap<>();
		for (Map.Entry<Double, Double> bucket : buckets.entrySet()) {
			double end = Double.isInfinite(bucket.getKey()) ? bucket.getKey()
					: (Math.floor(bucket.getKey() * 1000 + 1e-6) + 1) / 1000;
			spans.merge(end, bucket.getValue(), Math::max);
		}
		Map.Entry<Double, Double> first = spans.firstEntry();
		// Split only a first span of the 0s and the 1s, as Micrometer's timers begin
		// theirs.
		if (first == null || Double.isInfinite(first.getKey()) || Math.round(first.getKey() * 1000) != 2) {
			return spans;
		}
		double total = spans.lastEntry().getValue();
		double wholeMsOfTheRest = 0;
		double below = first.getValue();
		double lowerMs = first.getKey() * 1000;
		for (Map.Entry<Double, Double> span : spans.tailMap(first.getKey(), false).entrySet()) {
			double endMs = Double.isInfinite(span.getKey()) ? lowerMs + 1 : span.getKey() * 1000;
			wholeMsOfTheRest += (span.getValue() - below) * (lowerMs + endMs - 1) / 2;
			below = span.getValue();
			lowerMs = endMs;
		}
		double ones = Math.max(0, Math.min(first.getValue(), meanMs * total - wholeMsOfTheRest));
		spans.put(RESOLUTION_MS / 1000, first.getValue() - ones);
		return spans;
	}

}
