package org.poollab.bench.deciding;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.poollab.bench.deciding.Recommendation.CrossChecks;
import org.poollab.bench.deciding.Recommendation.Verdict;
import org.poollab.bench.text.Durations;

/**
 * The verdict by a fixed p99 margin, where the candidates' intervals cannot decide (a
 * {@link Decision} needs every candidate's interval): the smallest pool within the
 * {@link Margin} of the best, or, when every pool is within it, no knee and a size
 * derived by {@link NoKnee}. Apart from {@link Recommender} as the other of its two
 * verdicts at the deciding rate, beside {@link IntervalVerdict}.
 */
public final class MarginVerdict {

	private MarginVerdict() {
	}

	static Recommendation decide(DecidingRate at, List<Cell> candidates, int[] poolSizes) {
		Cell best = candidates.stream().min(Comparator.comparingDouble((cell) -> cell.latency().p99Ms())).get();
		Margin margin = Margin.of(best, candidates);
		double worstP99Ms = candidates.stream().mapToDouble((cell) -> cell.latency().p99Ms()).max().getAsDouble();
		boolean flat = candidates.size() == at.atRate().size() && candidates.size() > 1
				&& worstP99Ms - best.latency().p99Ms() <= margin.ms();
		boolean provisional = candidates.stream().anyMatch((cell) -> cell.repeats().size() < 2);
		return flat ? flat(at, candidates, best, worstP99Ms, margin, provisional)
				: chosen(at, candidates, best, margin, poolSizes[poolSizes.length - 1], provisional);
	}

	/**
	 * Every candidate within the margin of the best: no knee, and a pool size derived by
	 * {@link NoKnee}.
	 */
	private static Recommendation flat(DecidingRate at, List<Cell> candidates, Cell best, double worstP99Ms,
			Margin margin, boolean provisional) {
		Cell busiest = Recommender.busiest(candidates);
		CrossChecks checks = Recommender.crossChecks(at.topology(), busiest);
		NoKnee noKnee = NoKnee.of(candidates, checks);
		String spread = (worstP99Ms == best.latency().p99Ms())
				? "a p99 of " + Durations.ms(best.latency().p99Ms()) + " ms at every size"
				: "p99 between " + Durations.ms(best.latency().p99Ms()) + " and " + Durations.ms(worstP99Ms) + " ms";
		String summary = String.format(Locale.ROOT,
				"No knee was found: pool sizes %s are equal within noise at %d rps, with %s, within the %s ms "
						+ "margin%s. Pool size %d is derived, not measured: %s",
				Recommender.pools(candidates), at.rateRps(), spread, Durations.ms(margin.ms()), margin.why(),
				noKnee.poolSize(), noKnee.why());
		at.caveats().addAll(noKnee.caveats());
		summary += at.withoutPool() + (provisional ? " " + Recommendation.PROVISIONAL : "");
		String basis = "NOT a measured knee: pool sizes " + Recommender.pools(candidates) + " equal within noise at "
				+ at.rateRps() + " rps; derived: " + noKnee.why();
		return Recommender.answer(at, Verdict.FLAT, noKnee.poolSize(), summary, busiest, provisional, basis);
	}

	/** The smallest pool within the margin of the best, with the others at the rate. */
	private static Recommendation chosen(DecidingRate at, List<Cell> candidates, Cell best, Margin margin,
			int largestPool, boolean provisional) {
		Cell chosen = candidates.stream()
			.filter((cell) -> cell.latency().p99Ms() <= best.latency().p99Ms() + margin.ms())
			.findFirst()
			.get();
		String summary = String.format(Locale.ROOT, "At %d rps, %s, ", at.rateRps(), at.why())
				+ chosenBecause(chosen, best, candidates, margin);
		List<Cell> smaller = at.atRate().stream().filter((cell) -> cell.poolSize() < chosen.poolSize()).toList();
		if (!smaller.isEmpty()) {
			summary += " Smaller pools at that rate: "
					+ smaller.stream().map(Recommender::fate).collect(Collectors.joining("; ")) + ".";
		}
		List<Cell> larger = at.atRate().stream().filter((cell) -> cell.poolSize() > chosen.poolSize()).toList();
		if (!larger.isEmpty()) {
			summary += " Larger: " + larger.stream().map(Recommender::fate).collect(Collectors.joining("; ")) + ".";
		}
		if (chosen.poolSize() == largestPool) {
			at.caveats()
				.add("The chosen pool is the largest measured: p99 may still fall above pool " + largestPool
						+ "; extend the grid upwards to find the knee.");
		}
		summary += at.withoutPool() + (provisional ? " " + Recommendation.PROVISIONAL : "");
		String basis = "measured: the smallest pool within the p99 margin (" + Durations.ms(margin.ms())
				+ " ms) of the best at " + at.rateRps() + " rps, the highest rate sustained";
		return Recommender.answer(at, Verdict.CHOSEN, chosen.poolSize(), summary, chosen, provisional, basis);
	}

	/** Why the chosen pool, without comparing it with itself. */
	private static String chosenBecause(Cell chosen, Cell best, List<Cell> candidates, Margin margin) {
		if (candidates.size() == 1) {
			return "pool " + chosen.poolLabel() + " is the only pool size that sustained it (p99 "
					+ Durations.ms(chosen.latency().p99Ms()) + " ms).";
		}
		if (chosen == best) {
			boolean tied = candidates.stream()
				.anyMatch((cell) -> cell != chosen && cell.latency().p99Ms() == chosen.latency().p99Ms());
			return "pool " + chosen.poolLabel()
					+ (tied ? " is the smallest with the best p99 (" : " has the best p99 (")
					+ Durations.ms(chosen.latency().p99Ms()) + " ms)" + margin.why() + ".";
		}
		return "pool " + chosen.poolLabel() + " is the smallest whose p99 (" + Durations.ms(chosen.latency().p99Ms())
				+ " ms) is within " + Durations.ms(margin.ms()) + " ms" + margin.why() + " of the best ("
				+ Durations.ms(best.latency().p99Ms()) + " ms at pool " + best.poolLabel() + ").";
	}

}
