package org.poollab.bench.telemetry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
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
 * interval.
 * <p>
 * The pool's size is proven by the scrapes inside the window that read the pool after its
 * last resize: HikariCP's gauges lag the pool by up to {@link #GAUGE_LAG}, so a scrape
 * asked for sooner than that after the resize may still show the size before it. An
 * instance no such scrape reached has no observed maximum; one whose maximum changed
 * during the window, or whose resize was confirmed only after the window began, reports
 * {@link #CHANGED}: neither proves the point's pool size.
 */
public final class PoolWindow {

	/** The observed maximum of an instance whose pool size changed during the window. */
	static final int CHANGED = -1;

	/**
	 * How stale a pool gauge can be: HikariCP serves {@code hikaricp_connections_max} and
	 * the other pool gauges from statistics it refreshes at most once a second
	 * ({@code HikariPool.getPoolStats()} builds a {@code PoolStats} with a one-second
	 * timeout). The reactive twin's r2dbc-pool gauges are held to the same bound.
	 */
	static final Duration GAUGE_LAG = Duration.ofSeconds(1);

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

	/**
	 * The pools' figures over the window.
	 * @param resizedAtMs by instance, when the lab last saw its pool at a new size, up to
	 * and including the window's own resize (missing: never resized)
	 */
	public static Pool summarize(List<Scrape> scrapes, int instances, long startMs, long endMs,
			List<Long> resizedAtMs) {
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
		PoolSnapshot.Hold held = PoolSnapshot.Hold.NONE;
		Map<Double, Double> usageBuckets = new TreeMap<>();
		boolean labTimer = false;
		for (int i = 0; i < instances; i++) {
			List<Scrape> mine = Telemetry.of(scrapes, i);
			List<Scrape> inside = mine.stream().filter((s) -> s.atMs() >= startMs && s.atMs() <= endMs).toList();
			fewestSamples = Math.min(fewestSamples, inside.size());
			if (inside.isEmpty()) {
				continue;
			}
			observedMax(inside, startMs, (i < resizedAtMs.size()) ? resizedAtMs.get(i) : Long.MIN_VALUE)
				.ifPresent(observedMax::add);
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
			held = held.plus(after.hold().since(before.hold()));
			// The lab's services publish their hold timer's buckets from their start.
			labTimer |= !after.hold().buckets().isEmpty();
			Histogram.difference(after.usageBuckets(), before.usageBuckets())
				.forEach((le, count) -> usageBuckets.merge(le, count, Double::sum));
		}
		double usageMeanMs = (usageCount > 0) ? 1000 * usageSeconds / usageCount : 0;
		Hold hold = labTimer ? Hold.of(held.sumSeconds(), held.count(), held.buckets())
				: Hold.of(usageSeconds, usageCount, usageBuckets);
		return new Pool(observedMax, peakActive, peakPending,
				Histogram.percentileMs(acquireBuckets, acquireCount, 0.99), usageMeanMs, Math.round(timeouts),
				(fewestSamples == Integer.MAX_VALUE) ? 0 : fewestSamples, meanActive, pinned, hold.meanMs(),
				hold.p99Ms(), held.drawnMeanMs());
	}

	/**
	 * A window's connection hold: the lab's own services time every hold themselves
	 * ({@code lab.connection.hold}, buckets published from their start); a team's app has
	 * HikariCP's usage timer, whose p99 needs the buckets it publishes only when asked.
	 */
	private record Hold(@Nullable Double meanMs, @Nullable Double p99Ms) {

		static Hold of(double seconds, double count, Map<Double, Double> buckets) {
			if (count <= 0) {
				return new Hold(null, null);
			}
			return new Hold(1000 * seconds / count,
					(Histogram.count(buckets) > 0) ? HistogramQuantile.interpolatedMs(buckets, count, 0.99) : null);
		}

	}

	/**
	 * One instance's pool size over the window, from its scrapes inside it: empty when
	 * none of them read the pool after its resize.
	 */
	private static OptionalInt observedMax(List<Scrape> inside, long startMs, long resizedAtMs) {
		if (resizedAtMs > startMs) {
			return OptionalInt.of(CHANGED);
		}
		long provenFromMs = (resizedAtMs == Long.MIN_VALUE) ? Long.MIN_VALUE : resizedAtMs + GAUGE_LAG.toMillis();
		List<Scrape> afterResize = inside.stream().filter((scrape) -> scrape.sentMs() >= provenFromMs).toList();
		if (afterResize.isEmpty()) {
			return OptionalInt.empty();
		}
		int last = (int) afterResize.get(afterResize.size() - 1).pool().max();
		boolean constant = afterResize.stream().allMatch((scrape) -> scrape.pool().max() == last);
		return OptionalInt.of(constant ? last : CHANGED);
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
