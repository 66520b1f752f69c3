package org.poollab.bench.telemetry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.model.HistogramQuantile;
import org.poollab.bench.results.Pool;
import org.poollab.bench.telemetry.Telemetry.CpuSample;
import org.poollab.bench.telemetry.Telemetry.Scrape;

/**
 * Pool telemetry over a measured window. Gauges (max, active, pending) are the values the
 * scrapes inside the window saw, so a peak shorter than the scrape interval can be
 * missed; counters and histograms are the difference between the scrape just before the
 * window and the one just after it, so they cover the window to within one scrape
 * interval. An instance no scrape reached in the window has no observed maximum, and one
 * whose maximum changed during the window reports {@link #CHANGED}: neither proves the
 * point's pool size.
 */
public final class PoolWindow {

	/** The observed maximum of an instance whose pool size changed during the window. */
	static final int CHANGED = -1;

	private PoolWindow() {
	}

	/**
	 * The instances' refusals (503s) in the window by reason, all instances together.
	 */
	public static Map<String, Long> refusals(List<Scrape> scrapes, int instances, long startMs, long endMs) {
		Map<String, Long> refused = new TreeMap<>();
		for (int i = 0; i < instances; i++) {
			List<Scrape> mine = Telemetry.of(scrapes, i);
			if (mine.isEmpty()) {
				continue;
			}
			PoolSnapshot before = before(mine, startMs);
			PoolSnapshot after = after(mine, endMs);
			after.refused()
				.forEach((reason, count) -> refused.merge(reason,
						Math.round(count - before.refused().getOrDefault(reason, 0.0)), Long::sum));
		}
		return refused;
	}

	public static Pool summarize(List<Scrape> scrapes, int instances, long startMs, long endMs) {
		List<Integer> observedMax = new ArrayList<>();
		int peakActive = 0;
		int peakPending = 0;
		double timeouts = 0;
		double acquireCount = 0;
		double usageSeconds = 0;
		double usageCount = 0;
		int fewestSamples = Integer.MAX_VALUE;
		@Nullable Long pinned = null;
		double meanActive = 0;
		Map<Double, Double> acquireBuckets = new TreeMap<>();
		Map<Double, Double> holdBuckets = new TreeMap<>();
		double holdSeconds = 0;
		double holdCount = 0;
		for (int i = 0; i < instances; i++) {
			List<Scrape> mine = Telemetry.of(scrapes, i);
			List<Scrape> inside = mine.stream().filter((s) -> s.atMs() >= startMs && s.atMs() <= endMs).toList();
			fewestSamples = Math.min(fewestSamples, inside.size());
			if (inside.isEmpty()) {
				continue;
			}
			int last = (int) inside.get(inside.size() - 1).pool().max();
			boolean constant = inside.stream().allMatch((scrape) -> scrape.pool().max() == last);
			observedMax.add(constant ? last : CHANGED);
			for (Scrape scrape : inside) {
				peakActive = Math.max(peakActive, (int) scrape.pool().active());
				peakPending = Math.max(peakPending, (int) scrape.pool().pending());
			}
			meanActive += inside.stream().mapToDouble((scrape) -> scrape.pool().active()).average().orElse(0);
			PoolSnapshot before = before(mine, startMs);
			PoolSnapshot after = after(mine, endMs);
			timeouts += after.timeouts() - before.timeouts();
			if (after.pinned() != null) {
				long instancePinned = Math.round(after.pinned() - ((before.pinned() != null) ? before.pinned() : 0));
				pinned = (pinned != null) ? pinned + instancePinned : instancePinned;
			}
			acquireCount += after.acquireCount() - before.acquireCount();
			usageSeconds += after.usageSumSeconds() - before.usageSumSeconds();
			usageCount += after.usageCount() - before.usageCount();
			Histogram.difference(after.acquireBuckets(), before.acquireBuckets())
				.forEach((le, count) -> acquireBuckets.merge(le, count, Double::sum));
			holdSeconds += after.hold().sumSeconds() - before.hold().sumSeconds();
			holdCount += after.hold().count() - before.hold().count();
			Histogram.difference(after.hold().buckets(), before.hold().buckets())
				.forEach((le, count) -> holdBuckets.merge(le, count, Double::sum));
		}
		return new Pool(observedMax, peakActive, peakPending,
				Histogram.percentileMs(acquireBuckets, acquireCount, 0.99),
				(usageCount > 0) ? 1000 * usageSeconds / usageCount : 0, Math.round(timeouts),
				(fewestSamples == Integer.MAX_VALUE) ? 0 : fewestSamples, meanActive, pinned,
				(holdCount > 0) ? 1000 * holdSeconds / holdCount : null,
				(holdCount > 0) ? HistogramQuantile.interpolatedMs(holdBuckets, holdCount, 0.99) : null);
	}

	/**
	 * The last scrape at or before the window's start (the first scrape when none was
	 * that early): counters are read as differences from it.
	 */
	private static PoolSnapshot before(List<Scrape> mine, long startMs) {
		return Telemetry.lastAtOrBefore(mine, startMs).orElse(mine.get(0)).pool();
	}

	/** The first scrape at or after the window's end (else the last one). */
	private static PoolSnapshot after(List<Scrape> mine, long endMs) {
		return Telemetry.firstAtOrAfter(mine, endMs).orElse(mine.get(mine.size() - 1)).pool();
	}

	/**
	 * CPU the load generator used during the window, in cores.
	 */
	public static double cpuCores(List<CpuSample> samples, long startMs, long endMs) {
		CpuSample first = samples.stream().filter((s) -> s.atMs() >= startMs).findFirst().orElse(null);
		CpuSample last = samples.stream().filter((s) -> s.atMs() <= endMs).reduce((a, b) -> b).orElse(null);
		if (first == null || last == null || last.atMs() <= first.atMs()) {
			return 0;
		}
		return (last.cpuNanos() - first.cpuNanos()) / 1e6 / (last.atMs() - first.atMs());
	}

}
