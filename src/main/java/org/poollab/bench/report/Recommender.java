package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.stream.Collectors;

import org.poollab.bench.SweepResults.Database;
import org.poollab.bench.SweepResults.Host;
import org.poollab.bench.report.Recommendation.CrossChecks;
import org.poollab.bench.report.Recommendation.Verdict;

/**
 * Applies {@link Recommendation#RULE} to one topology's grid. Where the grid cannot
 * support an answer it says so in a sentence rather than naming a number.
 */
final class Recommender {

	/** Relative p99 margin counted as "as good as the best". */
	static final double P99_MARGIN_SHARE = 0.10;

	/** Absolute floor of that margin: JMeter records whole milliseconds. */
	static final double P99_MARGIN_FLOOR_MS = 1.0;

	/**
	 * Spindles in HikariCP's starting formula: 0, the database's data sits on SSD / page
	 * cache here, so no disk head ever makes a query wait.
	 */
	static final int EFFECTIVE_SPINDLE_COUNT = 0;

	/**
	 * Connections one request holds at once: the service runs one statement per request.
	 */
	static final int CONNECTIONS_PER_REQUEST = 1;

	/**
	 * Tn in HikariCP's deadlock formula: Tomcat's default
	 * {@code server.tomcat.threads.max}. It drops out while a request holds one
	 * connection.
	 */
	static final int REQUEST_THREADS = 200;

	private Recommender() {
	}

	static double marginMs(double bestP99Ms) {
		return Math.max(P99_MARGIN_SHARE * bestP99Ms, P99_MARGIN_FLOOR_MS);
	}

	static Recommendation recommend(Grid grid, Host host, Database database) {
		List<String> caveats = new ArrayList<>();
		if (!grid.excluded().isEmpty()) {
			caveats.add(grid.excluded().size() + " point(s) left out because their outcome was not ok (listed below).");
		}
		// No pool ("none") is the baseline the pool sizes are compared with, never a
		// candidate: there is no maximum-pool-size to paste for it.
		List<Cell> cells = grid.cells().stream().filter(Cell::pooled).toList();
		List<Cell> unpooled = grid.cells().stream().filter((cell) -> !cell.pooled()).toList();
		if (cells.isEmpty()) {
			return answer(grid, Verdict.NO_DATA, null,
					"The grid cannot support a conclusion for " + grid.name() + ": no point of this topology "
							+ (unpooled.isEmpty() ? "finished with outcome ok."
									: "with a pool finished with outcome ok (only 'none' was measured)."),
					caveats, null, host, database);
		}
		List<Cell> verified = cells.stream().filter(Cell::verified).toList();
		if (verified.size() < cells.size()) {
			caveats.add((cells.size() - verified.size()) + " cell(s) did not prove their pool size (HikariCP's "
					+ "connections.max gauge disagreed or was missing) and were not considered: "
					+ describe(cells.stream().filter((cell) -> !cell.verified()).toList()) + ".");
		}
		if (verified.isEmpty()) {
			return answer(grid, Verdict.UNVERIFIED, null,
					"The grid cannot support a conclusion: no point proved that its pool had the size it claims, "
							+ "so no measurement can be attributed to a pool size.",
					caveats, busiest(cells), host, database);
		}
		int[] poolSizes = Cell.distinct(verified, Cell::poolSize);
		if (poolSizes.length == 1) {
			int highestRateRps = verified.stream().mapToInt(Cell::rateRps).max().getAsInt();
			return answer(grid, Verdict.SINGLE_POOL_SIZE, null,
					"The grid cannot support a conclusion about pool size: only pool size " + poolSizes[0]
							+ " was measured, so there is nothing to compare it with."
							+ withoutPool(unpooled, highestRateRps).replace("that rate", highestRateRps + " rps"),
					caveats, busiest(verified), host, database);
		}
		List<Cell> sustained = verified.stream().filter(Cell::sustained).toList();
		if (sustained.isEmpty()) {
			return answer(grid, Verdict.SATURATED, null,
					"The grid cannot support a conclusion: every pool size saturated at every measured rate "
							+ "(errors, connection timeouts or an under-achieved rate). Measure lower rates, "
							+ "or look for the bottleneck outside the pool.",
					caveats, busiest(verified), host, database);
		}
		int decidingRateRps = sustained.stream().mapToInt(Cell::rateRps).max().getAsInt();
		List<Cell> atRate = verified.stream().filter((cell) -> cell.rateRps() == decidingRateRps).toList();
		List<Cell> candidates = sustained.stream()
			.filter((cell) -> cell.rateRps() == decidingRateRps)
			.sorted(Comparator.comparingInt(Cell::poolSize))
			.toList();
		Cell best = candidates.stream().min(Comparator.comparingDouble(Cell::p99Ms)).get();
		double marginMs = marginMs(best.p99Ms());
		Cell chosen = candidates.stream().filter((cell) -> cell.p99Ms() <= best.p99Ms() + marginMs).findFirst().get();
		double worstP99Ms = candidates.stream().mapToDouble(Cell::p99Ms).max().getAsDouble();
		boolean flat = candidates.size() == atRate.size() && candidates.size() > 1
				&& worstP99Ms - best.p99Ms() <= marginMs;

		if (decidingRateRps == grid.ratesRps()[grid.ratesRps().length - 1]) {
			caveats.add("Some pool size sustained every measured rate, so the ceiling was not found: above "
					+ decidingRateRps + " rps the pool size may matter more than it does here.");
		}
		if (!grid.hasRepeats()) {
			caveats.add("Each point ran once: p99 differences of a millisecond or two may be noise; "
					+ "repeats would tell.");
		}
		String summary;
		Verdict verdict;
		if (flat) {
			verdict = Verdict.FLAT;
			String spread = (worstP99Ms == best.p99Ms()) ? "a p99 of " + ms(best.p99Ms()) + " ms at every size"
					: "p99 between " + ms(best.p99Ms()) + " and " + ms(worstP99Ms) + " ms";
			summary = String.format(Locale.ROOT,
					"Pool size does not matter in this range: at %d rps every pool size measured (%s) sustained "
							+ "the rate with %s, within the %s ms margin. Pool size %d is named only because it is "
							+ "the smallest measured, not because a knee was found.",
					decidingRateRps, pools(candidates), spread, ms(marginMs), chosen.poolSize());
		}
		else {
			verdict = Verdict.CHOSEN;
			summary = String.format(Locale.ROOT,
					"At %d rps, the highest rate any pool size sustained, pool %d is the smallest whose p99 "
							+ "(%s ms) is within %s ms of the best (%s ms at pool %d).",
					decidingRateRps, chosen.poolSize(), ms(chosen.p99Ms()), ms(marginMs), ms(best.p99Ms()),
					best.poolSize());
			List<Cell> smaller = atRate.stream().filter((cell) -> cell.poolSize() < chosen.poolSize()).toList();
			if (!smaller.isEmpty()) {
				summary += " Smaller pools at that rate: " + smaller.stream()
					.map((cell) -> "pool " + cell.poolSize() + " "
							+ (cell.sustained() ? "p99 " + ms(cell.p99Ms()) + " ms"
									: "failed (" + cell.shortfall() + ")"))
					.collect(Collectors.joining("; ")) + ".";
			}
			int largestPool = poolSizes[poolSizes.length - 1];
			if (chosen.poolSize() == largestPool) {
				caveats.add("The chosen pool is the largest measured: p99 may still fall above pool " + largestPool
						+ "; extend the grid upwards to find the knee.");
			}
		}
		summary += withoutPool(unpooled, decidingRateRps);
		return answer(grid, verdict, chosen, summary, caveats, chosen, host, database)
			.withDecidingRate(decidingRateRps);
	}

	/**
	 * What no pool did at the deciding rate, beside the pool sizes: the case for pooling
	 * in this grid's own numbers.
	 */
	private static String withoutPool(List<Cell> unpooled, int rateRps) {
		return unpooled.stream()
			.filter((cell) -> cell.rateRps() == rateRps)
			.findFirst()
			.map((cell) -> " Without a pool (a new connection per request) at that rate: "
					+ (cell.sustained() ? "p99 " + ms(cell.p99Ms()) + " ms." : "failed (" + cell.shortfall() + ")."))
			.orElse("");
	}

	private static Recommendation answer(Grid grid, Verdict verdict, Cell chosen, String summary, List<String> caveats,
			Cell littleCell, Host host, Database database) {
		CrossChecks crossChecks = crossChecks(grid, littleCell, host, database);
		if (chosen != null && chosen.poolSize() > crossChecks.fleetBudgetPerInstance()) {
			caveats.add("Pool " + chosen.poolSize() + " × " + crossChecks.instances()
					+ " instance(s) exceeds the database's connection budget (" + crossChecks.fleetBudgetPerInstance()
					+ " per instance).");
		}
		if (chosen != null && Math.ceil(crossChecks.littleBusyPerInstance()) > chosen.poolSize()) {
			caveats.add(String.format(Locale.ROOT,
					"Little's law puts %.1f connections busy per instance, more than the pool of %d: "
							+ "the usage figure and the latency disagree; check the telemetry.",
					crossChecks.littleBusyPerInstance(), chosen.poolSize()));
		}
		return new Recommendation(grid.name(), verdict,
				(chosen != null) ? OptionalInt.of(chosen.poolSize()) : OptionalInt.empty(), OptionalInt.empty(),
				summary, List.copyOf(caveats), crossChecks);
	}

	static CrossChecks crossChecks(Grid grid, Cell littleCell, Host host, Database database) {
		int instances = Math.max(1, grid.instances());
		double busyFleet = (littleCell != null) ? littleCell.achievedRps() * littleCell.usageMeanMs() / 1000
				: Double.NaN;
		// Behind pgbouncer only its one pool reaches PostgreSQL, whatever the instances.
		int poolsReachingTheDatabase = grid.behindPgBouncer() ? 1 : instances;
		int budgetPerInstance = Math.max(0, database.maxConnections() - database.reservedConnections())
				/ poolsReachingTheDatabase;
		int deadlockFloor = REQUEST_THREADS * (CONNECTIONS_PER_REQUEST - 1) + 1;
		return new CrossChecks((littleCell != null) ? littleCell.achievedRps() : 0,
				(littleCell != null) ? littleCell.usageMeanMs() : Double.NaN, busyFleet, busyFleet / instances,
				host.cpuCores(), host.cpuCores() * 2 + EFFECTIVE_SPINDLE_COUNT, deadlockFloor, instances,
				database.maxConnections(), database.reservedConnections(), budgetPerInstance);
	}

	/** The cell that moved the most requests: where Little's law says the most. */
	private static Cell busiest(List<Cell> cells) {
		return cells.stream().max(Comparator.comparingDouble(Cell::achievedRps)).orElse(null);
	}

	private static String describe(List<Cell> cells) {
		return cells.stream()
			.map((cell) -> "pool " + cell.poolSize() + " @ " + cell.rateRps() + " rps")
			.collect(Collectors.joining(", "));
	}

	private static String pools(List<Cell> cells) {
		return cells.stream().map((cell) -> String.valueOf(cell.poolSize())).collect(Collectors.joining(", "));
	}

	static String ms(double valueMs) {
		return (valueMs == Math.rint(valueMs)) ? String.valueOf((long) valueMs)
				: String.format(Locale.ROOT, "%.1f", valueMs);
	}

}
