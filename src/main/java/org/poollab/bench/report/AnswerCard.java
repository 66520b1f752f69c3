package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.deciding.CellText;
import org.poollab.bench.deciding.Decision;
import org.poollab.bench.deciding.Decisions;
import org.poollab.bench.deciding.IntervalVerdict;
import org.poollab.bench.deciding.Knee;
import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.deciding.TopologyGrid;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.Settling;
import org.poollab.bench.text.Durations;

/**
 * What the report leads with, one per topology: the answer and what it rests on, in a few
 * labelled lines, before any table.
 *
 * @param title e.g. {@code multi: maximum-pool-size 5 per instance}
 * @param lines label and text, in the order shown
 */
record AnswerCard(String title, List<Line> lines) {

	/** One labelled line of a card. */
	record Line(String label, String text) {
	}

	static AnswerCard of(Section section) {
		Recommendation recommendation = section.recommendation();
		TopologyGrid grid = section.grid();
		List<Line> lines = new ArrayList<>();
		String title;
		if (recommendation.poolSize().isPresent() && recommendation.verdict().conclusive()) {
			int pool = recommendation.poolSize().getAsInt();
			title = grid.name() + ": " + grid.limits().stack().poolSizeKey() + " " + pool
					+ (grid.behindPgBouncer() ? " (pgbouncer's pool for the fleet)" : " per instance");
			recommendation.decidingRateRps()
				.ifPresent((rate) -> lines.add(new Line("chosen at",
						rate + " rps, the highest rate a pool size sustained" + ((grid.instances() > 1)
								? String.format(Locale.ROOT, " (%.0f per instance)", (double) rate / grid.instances())
								: ""))));
			if (!recommendation.indistinguishable().isEmpty()) {
				lines.add(new Line("indistinguishable", (recommendation.indistinguishable().size() == 1)
						? "none: pool " + recommendation.indistinguishable().get(0) + " is told apart from every other"
						: "pools " + range(recommendation.indistinguishable())
								+ " (the best p99's 95 % interval overlaps theirs, or they are within 10 % of the objective)"));
			}
			recommendation.probability()
				.ifPresent((probability) -> lines.add(new Line("decision",
						String.format(Locale.ROOT,
								"pool %d in %.0f %% of %d decisions redone on p99s drawn from the intervals%s%s", pool,
								100 * probability, Decision.DRAWS,
								(probability < IntervalVerdict.SETTLED_PROBABILITY) ? " (not settled)" : "",
								section.settling().map(AnswerCard::effort).orElse("")))));
			if (recommendation.probability().isEmpty()) {
				// Nothing was redrawn, but what the adaptive effort did is still said.
				section.settling()
					.ifPresent((settling) -> lines
						.add(new Line("decision", "pool " + pool + ": " + Settling.NOT_REDRAWN + effort(settling))));
			}
			fleet(section, pool).ifPresent(lines::add);
		}
		else {
			title = grid.name() + ": no pool size (" + Header.headline(recommendation) + ")";
		}
		if (section.confirmed().isEmpty()) {
			lines.add(new Line("confirmation", Limits.AS_DEPLOYED.equals(grid.limits().heap())
					? "not run: the lab did not start this deployment (bench.target=external)" : "not run"));
		}
		section.confirmed().forEach((confirmed) -> lines.add(new Line("confirmation", confirmed.sentence())));
		unconfirmed(section).ifPresent((said) -> lines.add(new Line("confirmation", said)));
		sides(grid, recommendation).forEach(lines::add);
		slowMotion(grid).ifPresent(lines::add);
		return new AnswerCard(title, List.copyOf(lines));
	}

	/** Named when the topology ran in slow motion. */
	static Optional<Line> slowMotion(TopologyGrid grid) {
		int k = grid.timeScale();
		return (k > 1) ? Optional.of(new Line("time scale",
				"k = %d: measured at rates ÷ %d with holds and connection-timeout × %d, this box being too small for the question as asked; latencies in your time"
					.formatted(k, k, k)))
				: Optional.empty();
	}

	/**
	 * The fleet's connections against the database's budget, and where the contention fit
	 * found one, the N* beyond which more connections delivered less.
	 */
	private static Optional<Line> fleet(Section section, int pool) {
		TopologyGrid grid = section.grid();
		Recommendation recommendation = section.recommendation();
		if (grid.behindPgBouncer()) {
			return Optional.empty();
		}
		if (!recommendation.crossChecks().budgetKnown()) {
			return Optional.of(new Line("fleet", String.format(Locale.ROOT,
					"%d instance(s) x %d = %d connections; the database's budget was not checked (no bench.database.url)",
					grid.instances(), pool, grid.instances() * pool)));
		}
		Recommendation.CrossChecks checks = recommendation.crossChecks();
		int budget = checks.maxConnections() - checks.reservedConnections();
		return Optional.of(new Line("fleet", String.format(Locale.ROOT,
				"%d instance(s) x %d = %d connections of the database's %d (max_connections %d - %d reserved)",
				grid.instances(), pool, grid.instances() * pool, budget, checks.maxConnections(),
				checks.reservedConnections())
				+ section.contention()
					.flatMap(Contention::peakConnections)
					.map((peak) -> String.format(Locale.ROOT,
							"; beyond N* = %.0f connections (the USL through this grid's throughput) more delivered less",
							peak))
					.orElse("")));
	}

	/**
	 * Said when the answer is not the pool the last confirmation ran: the runs refuted
	 * the pools before it, and no run was left for it.
	 */
	static Optional<String> unconfirmed(Section section) {
		if (section.confirmed().isEmpty() || section.recommendation().poolSize().isEmpty()) {
			return Optional.empty();
		}
		int answer = section.recommendation().poolSize().getAsInt();
		// The block as pasted: its pool may be the floor above the answer.
		long pasted = RecommendedYaml.reactive(section) ? answer
				: RecommendedYaml.pasted(section).poolSize().orElse(answer);
		int rate = section.recommendation().decidingRateRps().orElse(-1);
		boolean ran = section.confirmed()
			.stream()
			.anyMatch((confirmed) -> confirmed.run().point().poolSize() == pasted
					&& confirmed.run().point().rateRps() == rate);
		return ran ? Optional.empty()
				: Optional.of("pool " + answer + " at " + rate
						+ " rps, the answer after those, was not run as pasted (at most " + Decisions.MAX_CONFIRMATIONS
						+ " confirmation runs per topology): not confirmed.");
	}

	/** What adaptive effort did and cost. */
	private static String effort(Settling settling) {
		return String.format(Locale.ROOT,
				"; after %d extra round(s) of pools %s at %d rps (%.0f s; before them the choice of then was picked in "
						+ "%.0f %%)%s",
				settling.rounds(), settling.pools(), settling.rateRps(), settling.seconds(),
				100 * settling.probabilityBefore(), switch (settling.end()) {
					case "cap" -> ", stopped by bench.adaptiveCap";
					case "rounds" -> ", stopped after the most rounds it runs";
					case "died" -> ", stopped: an instance died";
					default -> "";
				});
	}

	/** What goes wrong on either side of the answer, with what this grid showed of it. */
	private static List<Line> sides(TopologyGrid grid, Recommendation recommendation) {
		if (recommendation.poolSize().isEmpty() || recommendation.decidingRateRps().isEmpty()) {
			return List.of();
		}
		int pool = recommendation.poolSize().getAsInt();
		int rate = recommendation.decidingRateRps().getAsInt();
		List<Cell> atRate = grid.cells().stream().filter((cell) -> cell.rateRps() == rate).toList();
		Optional<Cell> smaller = atRate.stream()
			.filter((cell) -> cell.poolSize() < pool && cell.poolSize() > 0)
			.max(Comparator.comparingInt(Cell::poolSize));
		String tooSmall = "requests queue for a connection (acquire time), then get 503 after connection-timeout"
				+ smaller
					.map((cell) -> String.format(Locale.ROOT, "; here pool %s at %d rps: %s", cell.poolLabel(), rate,
							cell.sustained() ? "acquire p99 " + Durations.ms(cell.pool().acquireP99Ms()) + " ms, p99 "
									+ Durations.ms(cell.latency().p99Ms()) + " ms" : CellText.shortfall(cell)))
					.orElse("");
		int largest = atRate.stream().mapToInt(Cell::poolSize).max().orElse(pool);
		boolean noFaster = recommendation.indistinguishable().contains(largest);
		String tooLarge = worse(atRate, pool, recommendation.indistinguishable())
			.orElse((noFaster ? "no faster at this rate (pools up to " + largest + " are indistinguishable)"
					+ Knee.above(grid, pool, rate).map((above) -> ", but " + above).orElse("") + ", " : ""))
				+ "every instance keeps its connections open, and under overload the database runs up to "
				+ "instances x pool statements at once and queues them itself"
				+ ((largest > pool) ? String.format(Locale.ROOT, " (the largest measured, %d, x %d instance(s) = %d)",
						largest, grid.instances(), largest * grid.instances()) : "");
		return List.of(new Line("too small", tooSmall), new Line("too large", tooLarge));
	}

	/**
	 * The larger pools that did worse than the answer at its rate, with their figures:
	 * the far side of a U-shaped curve ({@link Knee}). With intervals, those that failed
	 * the rate or are measurably slower than the best; without, those that failed it.
	 * Empty when none did.
	 */
	private static Optional<String> worse(List<Cell> atRate, int pool, List<Integer> indistinguishable) {
		List<Cell> considered = atRate.stream().filter(Cell::pooled).filter(Cell::considered).toList();
		List<Integer> around = new ArrayList<>(indistinguishable);
		around.add(pool);
		Knee knee = Knee.of(considered, around);
		List<Cell> worse = knee.tooLarge()
			.stream()
			.filter((cell) -> !indistinguishable.isEmpty() || !cell.sustained())
			.toList();
		// What they are worse than: the fastest of the pools around the answer (with
		// intervals, the best).
		Optional<Cell> fastest = considered.stream()
			.filter((cell) -> around.contains(cell.poolSize()) && cell.sustained())
			.min(Comparator.comparingDouble((cell) -> cell.latency().p99Ms()));
		if (fastest.isEmpty() || (worse.isEmpty() && knee.notShown().isEmpty())) {
			return Optional.empty();
		}
		Cell reference = fastest.get();
		String than = "than pool " + reference.poolLabel() + " (p99 " + Durations.ms(reference.latency().p99Ms())
				+ reference.latency().p99Interval().map(CellText::interval).orElse("") + " ms)";
		String notShown = knee.notShown().isEmpty() ? "" : "not shown worse " + than + ": "
				+ String.join(", ", knee.notShown().stream().map(Knee::partly).toList()) + "; ";
		return Optional
			.of((worse.isEmpty() ? "" : "worse at this rate " + than + ": " + Knee.list(worse) + "; ") + notShown);
	}

	/** {@code 1–50} for a run of the grid's sizes, else the list. */
	private static String range(List<Integer> pools) {
		return (pools.size() > 2)
				? pools.get(0) + "–" + pools.get(pools.size() - 1) + " ("
						+ pools.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")"
				: pools.stream().map(String::valueOf).collect(Collectors.joining(" and "));
	}

}
