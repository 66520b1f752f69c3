package org.poollab.bench.deciding;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SortedSet;
import java.util.TreeSet;

import org.poollab.bench.results.SweepResults;

/**
 * What the sweep asks of the decision while it runs: which pools to confirm, which
 * decisions are not settled yet, which points decide each answer.
 */
public final class Decisions {

	/**
	 * Confirmation runs per topology: the answer's, and when that refutes it, the next
	 * answer's. Each is a fresh start with its warm-up (about 90 s here), so a third did
	 * not fit the default preset's 15 minutes.
	 */
	public static final int MAX_CONFIRMATIONS = 2;

	private Decisions() {
	}

	/**
	 * A pool size chosen at a rate, worth confirming.
	 *
	 * @param deployment the topology, with its request threads when the sweep varied them
	 * @param poolSize the chosen {@code maximum-pool-size}
	 * @param rateRps the rate the pool size was chosen at
	 */
	public record Choice(String deployment, int poolSize, int rateRps) {
	}

	/**
	 * The choices worth confirming: one per topology whose measurements chose a HikariCP
	 * pool size at some rate (not behind pgbouncer, whose answer is pgbouncer's pool).
	 * @param results what the sweep measured
	 * @return the choices, in the order the topologies ran
	 */
	public static List<Choice> toConfirm(SweepResults results) {
		return Answers.of(results).toConfirm();
	}

	/**
	 * A topology whose decision is not settled, and the cells that decide it.
	 *
	 * @param topology the topology
	 * @param rateRps the deciding rate
	 * @param chosen the pool size chosen now
	 * @param probability how often the redone decision picks it
	 * @param pools the pool sizes to measure again: the choice, its smaller neighbour and
	 * the pool the redone decision picks most often instead, and the pools not settled
	 * against the best, largest first
	 * @param notSettled the pools neither shown equivalent to the best nor told apart
	 * from it ({@link Recommendation#unsettled()})
	 */
	public record Unsettled(String topology, int rateRps, int chosen, double probability, List<Integer> pools,
			List<Integer> notSettled) {
	}

	/**
	 * How settled a deployment's decision is (adaptive effort).
	 * @param results the results so far
	 * @param deployment the topology, with its request threads when the sweep varied them
	 * (e.g. {@code single-virtual}: {@link Choice#deployment})
	 * @return how often the redone decision picks the choice; empty when the verdict did
	 * not come from intervals
	 */
	public static OptionalDouble probability(SweepResults results, String deployment) {
		return TopologyGrid.of(results)
			.stream()
			.filter((grid) -> grid.key().equals(deployment))
			.findFirst()
			.map((grid) -> recommend(results, grid).probability())
			.orElse(OptionalDouble.empty());
	}

	/**
	 * The deployment's decision when it is not settled: picked less often than 80 % when
	 * redone on drawn p99s, or with a pool neither shown equivalent to the best nor told
	 * apart from it.
	 * @param results the results so far
	 * @param deployment the topology, with its request threads when the sweep varied them
	 * (e.g. {@code single-virtual}: {@link Choice#deployment})
	 * @return what to measure again; empty when the decision is settled or did not come
	 * from intervals
	 */
	public static Optional<Unsettled> unsettled(SweepResults results, String deployment) {
		Optional<TopologyGrid> grid = TopologyGrid.of(results)
			.stream()
			.filter((one) -> one.key().equals(deployment))
			.findFirst();
		if (grid.isEmpty()) {
			return Optional.empty();
		}
		Recommendation recommendation = recommend(results, grid.get());
		// Unsettled: the redone decision wavers, or a pool could be neither shown
		// equivalent to the best nor told apart from it (more repeats narrow both).
		boolean wavers = recommendation.probability().isPresent()
				&& recommendation.probability().getAsDouble() < IntervalVerdict.SETTLED_PROBABILITY;
		if (!(wavers || !recommendation.unsettled().isEmpty()) || recommendation.poolSize().isEmpty()
				|| recommendation.decidingRateRps().isEmpty()) {
			return Optional.empty();
		}
		int chosen = recommendation.poolSize().getAsInt();
		int rate = recommendation.decidingRateRps().getAsInt();
		SortedSet<Integer> pools = new TreeSet<>(Comparator.reverseOrder());
		pools.add(chosen);
		grid.get()
			.cells()
			.stream()
			.filter((cell) -> cell.rateRps() == rate && cell.poolSize() > 0 && cell.poolSize() < chosen)
			.mapToInt(Cell::poolSize)
			.max()
			.ifPresent(pools::add);
		recommendation.picks().keySet().stream().filter((pool) -> pool != chosen).findFirst().ifPresent(pools::add);
		pools.addAll(recommendation.unsettled());
		return Optional.of(new Unsettled(deployment, rate, chosen, recommendation.probability().orElse(1.0),
				List.copyOf(pools), recommendation.unsettled()));
	}

	/**
	 * A point that decides a topology's answer.
	 *
	 * @param topology the topology
	 * @param poolLabel its pool size as the report names it
	 * @param rateRps the deciding rate
	 * @param repeat which repeat
	 */
	public record Deciding(String topology, String poolLabel, int rateRps, int repeat) {
	}

	/**
	 * The points that decide each topology's answer: every repeat of the chosen pool size
	 * and of its smaller neighbour at the deciding rate.
	 * @param results what the sweep measured
	 * @return the points, topology by topology
	 */
	public static List<Deciding> deciding(SweepResults results) {
		List<Deciding> deciding = new ArrayList<>();
		for (TopologyGrid grid : TopologyGrid.of(results)) {
			for (Cell cell : grid.deciding(recommend(results, grid))) {
				cell.points()
					.forEach((point) -> deciding
						.add(new Deciding(grid.topology(), cell.poolLabel(), cell.rateRps(), point.repeat())));
			}
		}
		return deciding;
	}

	/**
	 * What a deployment's confirmation run showed, in a sentence (the console's line).
	 * @param results the results, with their confirmations
	 * @param deployment the topology, with its request threads when the sweep varied them
	 * (e.g. {@code single-virtual}: {@link Choice#deployment})
	 * @return the sentence; empty when the deployment had no confirmation run
	 */
	public static String confirmationLine(SweepResults results, String deployment) {
		return Confirmed.of(results, deployment).map(Confirmed::sentence).orElse("");
	}

	/**
	 * The rule applied to a topology's grid, leaving out the pool sizes its confirmation
	 * runs refuted.
	 * @param results what the sweep measured
	 * @param grid one of its topologies' grids
	 * @return the recommendation
	 */
	public static Recommendation recommend(SweepResults results, TopologyGrid grid) {
		return Recommender.recommend(grid, results.host(), results.databaseOf(grid.limits()),
				Confirmed.refuted(results, grid.key()));
	}

}
