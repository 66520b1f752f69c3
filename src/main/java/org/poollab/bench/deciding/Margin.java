package org.poollab.bench.deciding;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.poollab.bench.text.Durations;

/**
 * How far from the best p99 still counts as as good: the fixed margin, or with repeats
 * the widest spread between repeats at the deciding rate when that is wider, since the
 * repeats show the noise is at least that large.
 *
 * @param ms the margin
 * @param why empty for the fixed margin; else what widened it, for the summary
 */
public record Margin(double ms, String why) {

	/** Relative p99 margin counted as "as good as the best". */
	public static final double P99_MARGIN_SHARE = 0.10;

	/** Absolute floor of that margin: JMeter records whole milliseconds. */
	public static final double P99_MARGIN_FLOOR_MS = 1.0;

	public static double marginMs(double bestP99Ms) {
		return Math.max(P99_MARGIN_SHARE * bestP99Ms, P99_MARGIN_FLOOR_MS);
	}

	public static Margin of(Cell best, List<Cell> candidates) {
		double fixedMs = marginMs(best.latency().p99Ms());
		Cell noisiest = candidates.stream()
			.max(Comparator.comparingDouble((cell) -> cell.latency().p99SpreadMs()))
			.get();
		if (noisiest.latency().p99SpreadMs() <= fixedMs) {
			return new Margin(fixedMs, "");
		}
		double[] p99s = noisiest.points()
			.stream()
			.filter((point) -> Fate.of(point) != Fate.DIED)
			.mapToDouble((point) -> point.latency().p99Ms())
			.sorted()
			.toArray();
		return new Margin(noisiest.latency().p99SpreadMs(),
				String.format(Locale.ROOT,
						" (the noise margin is the widest spread between repeats at this rate, pool %s's "
								+ "p99 %s to %s ms, wider than the fixed %s ms)",
						noisiest.poolLabel(), Durations.ms(p99s[0]), Durations.ms(p99s[p99s.length - 1]),
						Durations.ms(fixedMs)));
	}

}
