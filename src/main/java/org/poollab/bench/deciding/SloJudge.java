package org.poollab.bench.deciding;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.poollab.bench.results.Interval;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.SloSearch;
import org.poollab.bench.text.Durations;

/**
 * The SLO search's verdict on one pool size, by the same rules as the grid's cells: a
 * size meets the objective when every repeat sustained the rate on its own
 * ({@link Cell#sustained()}: no death, no pool timeout, few errors, the rate achieved,
 * the p99 within the objective, the pool proven) and the upper bound of the repeats' p99
 * interval is within the objective too, so that a p99 that only just met it by chance
 * does not count.
 */
public final class SloJudge {

	/** How a refutation's verdict starts. */
	public static final String REFUTED = "refuted by its confirmation";

	private SloJudge() {
	}

	public static SloSearch.Probe judge(int poolSize, List<Point> repeats, double p99ObjectiveMs) {
		Cell all = Cell.of(repeats, p99ObjectiveMs);
		List<String> failed = new ArrayList<>();
		Repeats.failed(all).forEach((repeat, one) -> failed.add("repeat " + repeat + ": " + CellText.shortfall(one)));
		Cell.Latency latency = all.latency();
		Optional<Interval> interval = latency.p99Interval();
		double upperMs = interval.map(Interval::highMs).orElse(latency.p99Ms());
		// The instance's own timer (a histogram bucket's upper bound): a second,
		// independent
		// measurement of the same requests beside JMeter's.
		String figures = String.format(Locale.ROOT, "p99 %s ms%s%s", Durations.ms(latency.p99Ms()),
				interval
					.map((bound) -> " (95 %% interval %s-%s ms)".formatted(Durations.ms(bound.lowMs()),
							Durations.ms(bound.highMs())))
					.orElse(""),
				(latency.serverP99Ms() > 0) ? ", the instance's own p99 " + Durations.ms(latency.serverP99Ms()) + " ms"
						: "");
		boolean meets = failed.isEmpty() && upperMs <= p99ObjectiveMs;
		String verdict;
		if (!failed.isEmpty()) {
			verdict = figures + "; does not sustain the rate in every repeat: " + String.join("; ", failed);
		}
		else if (!meets) {
			verdict = figures + String.format(Locale.ROOT,
					"; every repeat sustained the rate, but the interval's upper bound is above the %s ms objective",
					Durations.ms(p99ObjectiveMs));
		}
		else {
			verdict = figures + String.format(Locale.ROOT, "; within the %s ms objective in all %d repeat(s)",
					Durations.ms(p99ObjectiveMs), repeats.size());
		}
		return new SloSearch.Probe(poolSize, meets, latency.p99Ms(), interval.orElse(null), verdict,
				List.copyOf(repeats));
	}

	/** A confirmation that refuted the search's answer, as a failing step of its path. */
	public static SloSearch.Probe refutation(int poolSize, Point window, double p99ObjectiveMs) {
		Cell cell = Cell.of(List.of(window), p99ObjectiveMs);
		return new SloSearch.Probe(poolSize, false, cell.latency().p99Ms(), cell.latency().p99Interval().orElse(null),
				REFUTED + " as pasted (a fresh instance): " + CellText.shortfall(cell), List.of(window));
	}

}
