package org.poollab.bench.deciding;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.poollab.bench.deciding.Recommendation.Verdict;
import org.poollab.bench.text.Durations;

/**
 * The verdict where every candidate's p99 carries its 95 % interval: the pool sizes
 * {@link Decision} finds indistinguishable from the best, the choice among them, and how
 * settled it is, in the summary's words. Apart from {@link Recommender}, which finds the
 * deciding rate and hands the decision here, since this is the sentence-making for one
 * verdict only.
 */
public final class IntervalVerdict {

	/** Below this, the decision is called unsettled and more repeats are advised. */
	public static final double SETTLED_PROBABILITY = 0.8;

	private IntervalVerdict() {
	}

	/** The verdict from intervals: the indistinguishable set and the choice in it. */
	static Recommendation decided(DecidingRate at, Decision decision) {
		Cell chosen = decision.chosen();
		List<Cell> atRate = at.atRate();
		Set<Integer> refuted = at.refuted();
		String summary = String.format(Locale.ROOT, "At %d rps, %s, %s.", at.rateRps(), at.why(), set(decision))
				+ unsettled(decision) + " " + choice(decision, atRate, refuted)
				+ " Redone on p99s drawn from each pool's interval, the decision picks " + decision.describePicks()
				+ ".";
		if (!refuted.isEmpty()) {
			summary += " Refuted by its confirmation run (started as pasted, Poisson arrivals at the deciding rate): "
					+ "pool " + refuted.stream().sorted().map(String::valueOf).collect(Collectors.joining(", pool "))
					+ ", so it cannot be the choice.";
		}
		Knee knee = Knee.of(atRate, around(decision));
		Optional<String> sides = knee.sentence();
		if (sides.isPresent()) {
			summary += " " + sides.get();
		}
		summary += others(decision, atRate, knee);
		addCaveats(decision, atRate, at.caveats());
		summary += at.withoutPool();
		String basis = String.format(Locale.ROOT,
				"measured: the smallest of the pools indistinguishable from the best at %d rps (%s) that sustained "
						+ "it; picked in %.0f %% of redrawn decisions",
				at.rateRps(), Recommender.pools(decision.indistinguishable()), 100 * decision.probability());
		return Recommender.answer(at, Verdict.CHOSEN, chosen.poolSize(), summary, chosen, false, basis)
			.withDecision(decision.indistinguishable().stream().map(Cell::poolSize).toList(),
					decision.unsettled().stream().map(Cell::poolSize).toList(), decision.picks());
	}

	/** The pools indistinguishable from the best, and why, in a clause. */
	private static String set(Decision decision) {
		Cell best = decision.best();
		if (decision.indistinguishable().size() == 1) {
			return "pool " + best.poolLabel() + " has the best p99 (" + Durations.ms(best.latency().p99Ms())
					+ best.latency().p99Interval().map(CellText::interval).orElse("") + " ms)"
					+ (decision.unsettled().isEmpty() ? ", told apart from every other pool by its 95 % interval" : "");
		}
		String bestFigure = "pool " + best.poolLabel() + ", p99 " + Durations.ms(best.latency().p99Ms())
				+ best.latency().p99Interval().map(CellText::interval).orElse("") + " ms";
		return "pools " + Recommender.pools(decision.indistinguishable()) + " are indistinguishable from the best ("
				+ bestFigure + "): the 90 % interval of each difference lies within " + margin(decision);
	}

	/**
	 * The equivalence margin and where it comes from, e.g. "±20 ms (20 % of the 100 ms
	 * objective)".
	 */
	private static String margin(Decision decision) {
		double objectiveMs = decision.best().p99ObjectiveMs();
		double bestMs = decision.best().latency().p99Ms();
		String source;
		if (decision.marginMs() == Decision.MARGIN_FLOOR_MS) {
			source = "two of the whole milliseconds JMeter records";
		}
		else if (objectiveMs > 0 && Decision.EQUIVALENCE_SHARE * objectiveMs <= Decision.BEST_SHARE * bestMs) {
			source = String.format(Locale.ROOT, "%.0f %% of the %s ms objective", 100 * Decision.EQUIVALENCE_SHARE,
					Durations.ms(objectiveMs));
		}
		else {
			source = (Decision.BEST_SHARE == 1.0) ? "the best p99 itself"
					: String.format(Locale.ROOT, "%.0f %% of the best p99", 100 * Decision.BEST_SHARE);
		}
		return "±" + Durations.ms(decision.marginMs()) + " ms (the equivalence margin, " + source + ")";
	}

	/**
	 * The pools neither shown equivalent to the best nor told apart from it, in a
	 * sentence; empty when there are none.
	 */
	private static String unsettled(Decision decision) {
		if (decision.unsettled().isEmpty()) {
			return "";
		}
		List<Cell> unsettled = decision.unsettled();
		return " Not settled: pool" + ((unsettled.size() > 1) ? "s " : " ") + Recommender.pools(unsettled) + " ("
				+ unsettled.stream()
					.map((cell) -> "p99 " + Durations.ms(cell.latency().p99Ms())
							+ cell.latency().p99Interval().map(CellText::interval).orElse("") + " ms")
					.collect(Collectors.joining("; "))
				+ ") can be neither told apart from the best nor shown within " + margin(decision)
				+ " of it, so the choice takes the pool that measured better.";
	}

	/**
	 * The pools at the rate that were no candidate, in sentences: those that failed
	 * (unless the knee already names them) and those left out as understated.
	 */
	private static String others(Decision decision, List<Cell> atRate, Knee knee) {
		List<Cell> others = atRate.stream().filter((cell) -> !decision.candidates().contains(cell)).toList();
		List<Cell> understated = others.stream().filter(Cell::sustained).toList();
		List<Cell> failed = others.stream().filter((cell) -> !cell.sustained() && !knee.names(cell)).toList();
		String sentences = "";
		if (!failed.isEmpty()) {
			sentences += " Did not sustain it: "
					+ failed.stream().map(Recommender::fate).collect(Collectors.joining("; ")) + ".";
		}
		if (!understated.isEmpty()) {
			sentences += " Left out: " + understated.stream()
				.map((cell) -> "pool " + cell.poolLabel() + ", " + CellText.latencyCaveat(cell).orElse("understated"))
				.collect(Collectors.joining("; ")) + ".";
		}
		return sentences;
	}

	/**
	 * The caveats the choice calls for: unsettled, a pool of 1, or the largest pool
	 * measured without another to tell it from.
	 */
	private static void addCaveats(Decision decision, List<Cell> atRate, List<String> caveats) {
		Cell chosen = decision.chosen();
		if (decision.probability() < SETTLED_PROBABILITY) {
			caveats.add(String.format(Locale.ROOT,
					"The choice is not settled: redone on p99s drawn from the intervals, the decision picks pool %s "
							+ "only %.0f %% of the time (%s). More repeats (-Dbench.repeats=3) or longer windows "
							+ "narrow the intervals.",
					chosen.poolLabel(), 100 * decision.probability(), decision.describePicks()));
		}
		if (chosen.poolSize() == 1) {
			caveats.add("With a pool of 1 every request queues behind the one in flight: one slow statement stalls "
					+ "the instance. The grid could not tell it apart from the best here; the confirmation of a "
					+ "production rate should.");
		}
		int largestPool = atRate.stream().mapToInt(Cell::poolSize).max().getAsInt();
		if (chosen.poolSize() == largestPool && decision.indistinguishable().size() == 1) {
			caveats.add("The chosen pool is the largest measured: p99 may still fall above pool " + largestPool
					+ "; extend the grid upwards to find the knee.");
		}
	}

	/**
	 * The choice in a sentence: the smallest eligible pool of the set, or, when none of
	 * the set can be the choice, why not and where the choice came from instead.
	 */
	private static String choice(Decision decision, List<Cell> atRate, Set<Integer> refuted) {
		Cell chosen = decision.chosen();
		List<Cell> set = decision.indistinguishable();
		if (!set.contains(chosen)) {
			String whyNot = set.stream()
				.map((cell) -> Decision.whyNot(cell, atRate, refuted)
					.map((why) -> "pool " + cell.poolLabel() + ": " + why))
				.flatMap(Optional::stream)
				.collect(Collectors.joining("; "));
			return ((set.size() == 1) ? "It cannot be the choice (" : "None of them can be the choice (") + whyNot
					+ "), so the choice is pool " + chosen.poolLabel() + " (p99 "
					+ Durations.ms(chosen.latency().p99Ms())
					+ chosen.latency().p99Interval().map(CellText::interval).orElse("")
					+ " ms), the smallest of the pools indistinguishable from the best of those that can be.";
		}
		Optional<String> notEligible = Decision.whyNot(chosen, atRate, refuted);
		if (notEligible.isPresent()) {
			// No pool at this rate can be the choice: the rate was taken as the highest
			// any pool sustained, and the best stands.
			return "The choice is pool " + chosen.poolLabel() + ", the best, although no pool here can be the choice "
					+ "by the rule (pool " + chosen.poolLabel() + ": " + notEligible.get() + ").";
		}
		return (set.size() == 1) ? "The choice is pool " + chosen.poolLabel() + "." : "The choice is pool "
				+ chosen.poolLabel() + ", the smallest of them that sustained the rate in "
				+ "every repeat with its p99 clear of the objective or with every larger pool sustaining it too.";
	}

	/**
	 * The pools around the best: the best, those indistinguishable from it, those not
	 * settled against it, the choice.
	 */
	private static List<Integer> around(Decision decision) {
		List<Integer> around = new ArrayList<>(decision.indistinguishable().stream().map(Cell::poolSize).toList());
		// Not settled is neither side of the knee: it was not shown slower.
		decision.unsettled().forEach((cell) -> around.add(cell.poolSize()));
		around.add(decision.chosen().poolSize());
		return around;
	}

}
