package org.poollab.bench.deciding;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.deciding.Recommendation.CrossChecks;
import org.poollab.bench.deciding.Recommendation.Verdict;
import org.poollab.bench.model.Fleet;
import org.poollab.bench.results.DatabaseFacts;
import org.poollab.bench.results.Host;
import org.poollab.bench.results.PgBouncerFacts;
import org.poollab.bench.results.Stack;
import org.poollab.bench.text.Durations;

/**
 * Applies {@link Recommendation#RULE} to one topology's grid. Where the grid cannot
 * support an answer it says so in a sentence rather than naming a number. It finds the
 * deciding rate and its candidates; the verdict there is {@link IntervalVerdict}'s where
 * every candidate carries its 95 % interval, else {@link MarginVerdict}'s.
 */
public final class Recommender {

	/**
	 * Spindles in HikariCP's starting formula: 0, the database's data sits on SSD / page
	 * cache here, so no disk head ever makes a query wait.
	 */
	public static final int EFFECTIVE_SPINDLE_COUNT = 0;

	/**
	 * Tn in HikariCP's deadlock formula when the sweep did not set Tomcat's threads:
	 * Tomcat's default {@code server.tomcat.threads.max}. It drops out while a request
	 * holds one connection.
	 */
	public static final int DEFAULT_REQUEST_THREADS = Fleet.TOMCAT_DEFAULT_THREADS;

	private Recommender() {
	}

	public static Recommendation recommend(TopologyGrid grid, Host host, DatabaseFacts database) {
		return recommend(grid, host, database, Map.of());
	}

	/**
	 * The rule, where some pool sizes were refuted by the confirmation run (started with
	 * the recommended block as pasted, they did not hold the objective under Poisson
	 * arrivals): they cannot be the choice, and the next pool of the indistinguishable
	 * set is.
	 * @param refutedByRate pool sizes whose confirmation failed, by the rate it ran at
	 */
	public static Recommendation recommend(TopologyGrid grid, Host host, DatabaseFacts database,
			Map<Integer, Set<Integer>> refutedByRate) {
		TopologyCase topology = new TopologyCase(grid, host, database, new ArrayList<>());
		List<String> caveats = topology.caveats();
		excluded(grid).ifPresent(caveats::add);
		// No pool ("none") is the baseline the pool sizes are compared with, never a
		// candidate: there is no maximum-pool-size to paste for it.
		List<Cell> cells = grid.cells().stream().filter(Cell::pooled).toList();
		List<Cell> unpooled = grid.cells().stream().filter((cell) -> !cell.pooled()).toList();
		tooManyClients(grid, database).ifPresent(caveats::add);
		if (cells.isEmpty()) {
			return noAnswer(topology, Verdict.NO_DATA, "The grid cannot support a conclusion for " + grid.name()
					+ ": no point of this topology "
					+ (unpooled.isEmpty() ? "was measured." : "with a pool was measured (only 'none' was measured)."),
					null);
		}
		List<Cell> considered = cells.stream().filter(Cell::considered).toList();
		notConsidered(cells, considered, caveats);
		if (considered.isEmpty()) {
			return noAnswer(topology, Verdict.UNVERIFIED,
					"The grid cannot support a conclusion: no point proved that its pool had the size it claims, "
							+ "so no measurement can be attributed to a pool size.",
					busiest(cells));
		}
		int[] poolSizes = considered.stream().mapToInt(Cell::poolSize).distinct().sorted().toArray();
		if (poolSizes.length == 1) {
			int highestRateRps = considered.stream().mapToInt(Cell::rateRps).max().getAsInt();
			return noAnswer(topology, Verdict.SINGLE_POOL_SIZE,
					"The grid cannot support a conclusion about pool size: only pool size " + poolSizes[0]
							+ " was measured, so there is nothing to compare it with."
							+ withoutPool(unpooled, highestRateRps).replace("that rate", highestRateRps + " rps"),
					busiest(considered));
		}
		List<Cell> sustained = considered.stream().filter(Cell::sustained).toList();
		if (sustained.isEmpty()) {
			return noAnswer(topology, Verdict.SATURATED,
					"The grid cannot support a conclusion: every pool size saturated at every measured rate "
							+ "(errors, connection timeouts, a dead instance or an under-achieved rate). Measure "
							+ "lower rates, or look for the bottleneck outside the pool.",
					busiest(considered));
		}
		return decide(topology, considered, sustained, unpooled, poolSizes, refutedByRate);
	}

	/** The points the lab failed to measure, in a caveat; empty when there are none. */
	private static Optional<String> excluded(TopologyGrid grid) {
		if (grid.excluded().isEmpty()) {
			return Optional.empty();
		}
		long generatorBound = grid.excluded()
			.stream()
			.filter((point) -> Fate.of(point) == Fate.GENERATOR_BOUND)
			.count();
		return Optional.of(grid.excluded().size() + " point(s) left out because the lab failed to measure them"
				+ ((generatorBound > 0) ? " (" + generatorBound
						+ " generator-bound: JMeter fell behind its schedule, so the window measured the generator, not the service; no verdict)"
						: "")
				+ " (listed below).");
	}

	/**
	 * The caveats for cells that are shown but not considered (pool size unverified) and
	 * for considered cells whose instance died, which count as not sustaining their rate.
	 */
	private static void notConsidered(List<Cell> cells, List<Cell> considered, List<String> caveats) {
		if (considered.size() < cells.size()) {
			caveats.add((cells.size() - considered.size()) + " cell(s) did not prove their pool size (HikariCP's "
					+ "connections.max gauge disagreed or was missing), are shown as 'unverified' and were not "
					+ "considered: " + describe(cells.stream().filter((cell) -> !cell.considered()).toList()) + ".");
		}
		for (Cell cell : considered.stream().filter(Cell::died).toList()) {
			caveats.add("Pool " + cell.poolLabel() + " at " + cell.rateRps() + " rps: the instance "
					+ CellText.deathSummary(cell) + ". A result of the load, not missing data: it counts as not "
					+ "sustaining that rate.");
		}
	}

	/**
	 * The deciding rate and the verdict there: {@link IntervalVerdict}'s where every
	 * candidate carries its interval, else {@link MarginVerdict}'s.
	 */
	private static Recommendation decide(TopologyCase topology, List<Cell> considered, List<Cell> sustained,
			List<Cell> unpooled, int[] poolSizes, Map<Integer, Set<Integer>> refutedByRate) {
		// The deciding rate: the highest at which some pool can be the choice (it
		// sustained the rate in every repeat, no confirmation refuted it there, and its
		// p99 is clear of the objective or every larger pool sustained the rate too; see
		// Decision.eligible), at a rate where confirmations refuted fewer than two pools.
		// One lucky cell at a rate the topology otherwise failed must
		// not move the answer, while a larger pool failing past the knee of a U-shaped
		// curve must not hide a smaller pool that held; without such a rate, the highest
		// any cell sustained.
		OptionalInt eligibleRate = sustained.stream()
			.filter((cell) -> !RefutedRates.rateRefuted(refutedByRate, cell.rateRps()))
			.filter((cell) -> Decision.eligible(cell, atRate(considered, cell.rateRps()),
					refutedByRate.getOrDefault(cell.rateRps(), Set.of())))
			.mapToInt(Cell::rateRps)
			.max();
		// Without such a rate, the highest at which a pool whose latency is not
		// understated sustained every repeat, at a rate no two refutations ruled out:
		// the fallback never decides where the eligible rate may not.
		OptionalInt fallbackRate = sustained.stream()
			.filter((cell) -> !cell.understated() && !RefutedRates.rateRefuted(refutedByRate, cell.rateRps()))
			.mapToInt(Cell::rateRps)
			.max();
		String whyThisRate = eligibleRate.isPresent()
				? "the highest rate at which a pool size sustained every repeat with its p99 clear of the objective "
						+ "or with every larger pool sustaining it too"
				: "the highest rate any pool size sustained";
		if (eligibleRate.isEmpty() && fallbackRate.isEmpty()) {
			return noRate(topology, considered, sustained, refutedByRate);
		}
		int decidingRateRps = eligibleRate.orElse(fallbackRate.getAsInt());
		Set<Integer> refuted = refutedByRate.getOrDefault(decidingRateRps, Set.of());
		List<Cell> atRate = atRate(considered, decidingRateRps);
		List<String> caveats = topology.caveats();
		RefutedRates.above(refutedByRate, decidingRateRps).ifPresent(caveats::add);
		// A cell whose latency is understated (the generator fell behind) never votes, on
		// either verdict's path: its p99 is lower than a client on schedule saw.
		List<Cell> candidates = sustained.stream()
			.filter((cell) -> cell.rateRps() == decidingRateRps && !cell.understated())
			.sorted(Comparator.comparingInt(Cell::poolSize))
			.toList();

		int[] ratesRps = topology.grid().ratesRps();
		if (decidingRateRps == ratesRps[ratesRps.length - 1]) {
			caveats.add("Some pool size sustained every measured rate, so the ceiling was not found: above "
					+ decidingRateRps + " rps the pool size may matter more than it does here.");
		}
		DecidingRate at = new DecidingRate(topology, decidingRateRps, whyThisRate, atRate, unpooled, refuted);
		Optional<Decision> decision = Decision.of(candidates, atRate, candidates.get(0).p99ObjectiveMs(), refuted);
		// The decision's probability (how often it picks the choice when redone on p99s
		// drawn from the intervals) says how settled it is: no bare "provisional" beside
		// it.
		Recommendation recommendation = decision.isPresent() ? IntervalVerdict.decided(at, decision.get())
				: MarginVerdict.decide(at, eligibleFirst(candidates, atRate, refuted), poolSizes);
		return unlessRefuted(recommendation, refuted, decidingRateRps);
	}

	/**
	 * The candidates the margin may choose from: those that can be the choice at the rate
	 * ({@link Decision#eligible}, as the interval verdict requires); else those its
	 * confirmations did not refute; all of them when every one was refuted, which
	 * {@link #unlessRefuted} then says.
	 */
	private static List<Cell> eligibleFirst(List<Cell> candidates, List<Cell> atRate, Set<Integer> refuted) {
		List<Cell> eligible = candidates.stream().filter((cell) -> Decision.eligible(cell, atRate, refuted)).toList();
		if (!eligible.isEmpty()) {
			return eligible;
		}
		List<Cell> left = candidates.stream().filter((cell) -> !refuted.contains(cell.poolSize())).toList();
		return left.isEmpty() ? candidates : left;
	}

	/**
	 * No rate can decide: every sustained rate had two pools refuted by their
	 * confirmations, or only cells whose latency is understated sustained it.
	 */
	private static Recommendation noRate(TopologyCase topology, List<Cell> considered, List<Cell> sustained,
			Map<Integer, Set<Integer>> refutedByRate) {
		Optional<String> refuted = RefutedRates.noRate(refutedByRate);
		return refuted.isPresent() ? noAnswer(topology, Verdict.REFUTED, refuted.get(), busiest(sustained))
				: noAnswer(topology, Verdict.SATURATED,
						"The grid cannot support a conclusion: every cell that sustained a rate had its latency "
								+ "understated (the load generator fell behind its schedule), so no measured p99 can "
								+ "decide. Measure again with a generator that keeps up.",
						busiest(considered));
	}

	/**
	 * A choice its own confirmation refuted is never pasted: when the rule has no other
	 * pool left at the deciding rate (every one it could move to was refuted too), there
	 * is no answer, and the summary says what was refuted.
	 */
	private static Recommendation unlessRefuted(Recommendation recommendation, Set<Integer> refuted,
			int decidingRateRps) {
		if (recommendation.poolSize().isEmpty() || !refuted.contains(recommendation.poolSize().getAsInt())) {
			return recommendation;
		}
		String summary = recommendation.summary() + " But its confirmation refuted it: started as pasted, pool "
				+ refuted.stream().sorted().map(String::valueOf).collect(Collectors.joining(", pool "))
				+ " missed the objective or answered 503 under Poisson arrivals at " + decidingRateRps
				+ " rps, and no other pool at that rate can be the choice, so no maximum-pool-size is recommended. "
				+ "Measure lower rates, or again on a quiet machine.";
		return new Recommendation(recommendation.topology(), recommendation.poolSizeKey(), Verdict.REFUTED,
				OptionalInt.empty(), recommendation.decidingRateRps(), summary, recommendation.caveats(),
				recommendation.crossChecks(), recommendation.provisional(), "", recommendation.indistinguishable(),
				recommendation.unsettled(), recommendation.picks());
	}

	private static List<Cell> atRate(List<Cell> considered, int rateRps) {
		return considered.stream().filter((cell) -> cell.rateRps() == rateRps).toList();
	}

	/** One other pool size at the deciding rate, for the summary. */
	public static String fate(Cell cell) {
		if (cell.died()) {
			return "pool " + cell.poolLabel() + " " + CellText.deathSummary(cell);
		}
		return "pool " + cell.poolLabel() + " " + (cell.sustained()
				? "p99 " + Durations.ms(cell.latency().p99Ms()) + " ms" : "failed (" + CellText.shortfall(cell) + ")");
	}

	/**
	 * The sentence a refused connection calls for: a database at max_connections is the
	 * database's limit, not the pool's. Each vendor's refusal is quoted in its own words.
	 */
	private static Optional<String> tooManyClients(TopologyGrid grid, DatabaseFacts database) {
		List<Cell> refused = grid.cells().stream().filter((cell) -> cell.refused(Cell.TOO_MANY_CLIENTS) > 0).toList();
		if (refused.isEmpty()) {
			return Optional.empty();
		}
		String limit = database.budgetKnown() ? String.format(Locale.ROOT, "max_connections %d, %d reserved",
				database.maxConnections(), database.reservedConnections()) : "max_connections not read";
		return Optional.of(String.format(Locale.ROOT,
				"The database was at its connection limit (%s): %s refused "
						+ "new connections ('%s') at %s. There the pool could not reach its size, "
						+ "so those points measured the database's limit, not the pool's.",
				limit, database.vendor(), database.labVendor().tooManyConnectionsWords(),
				refused.stream()
					.map((cell) -> "pool " + cell.poolLabel() + " @ " + cell.rateRps() + " rps ("
							+ cell.refused(Cell.TOO_MANY_CLIENTS) + " refusals)")
					.collect(Collectors.joining(", "))));
	}

	/**
	 * What no pool did at the deciding rate, beside the pool sizes: the case for pooling
	 * in this grid's own numbers.
	 */
	public static String withoutPool(List<Cell> unpooled, int rateRps) {
		return unpooled.stream()
			.filter((cell) -> cell.rateRps() == rateRps)
			.findFirst()
			.map((cell) -> " Without a pool (a new connection per request) at that rate: "
					+ (cell.sustained() ? "p99 " + Durations.ms(cell.latency().p99Ms()) + " ms."
							: "failed (" + CellText.shortfall(cell) + ")."))
			.orElse("");
	}

	/**
	 * An answer that names no pool size: the grid cannot support one, and the summary
	 * says why.
	 */
	private static Recommendation noAnswer(TopologyCase topology, Verdict verdict, String summary,
			@Nullable Cell littleCell) {
		TopologyGrid grid = topology.grid();
		return new Recommendation(grid.name(), grid.poolSizeKey(), verdict, OptionalInt.empty(), OptionalInt.empty(),
				summary, List.copyOf(topology.caveats()), crossChecks(topology, littleCell), false, "", List.of(),
				List.of(), Map.of());
	}

	/**
	 * A pool size decided at the deciding rate, with the caveats the cross-checks raise
	 * against it (the database's budget, Little's law).
	 * @param littleCell the cell Little's law is applied to
	 * @param basis how the pool size was arrived at, in a line
	 */
	static Recommendation answer(DecidingRate at, Verdict verdict, int poolSize, String summary,
			@Nullable Cell littleCell, boolean provisional, String basis) {
		CrossChecks crossChecks = crossChecks(at.topology(), littleCell);
		List<String> caveats = at.caveats();
		if (!crossChecks.budgetKnown()) {
			caveats.add("The database's connection budget was not checked (no bench.database.url): "
					+ crossChecks.instances() + " instance(s) × pool " + poolSize
					+ ", plus every other client, must fit its max_connections.");
		}
		if (poolSize > crossChecks.fleetBudgetPerInstance()) {
			caveats.add("Pool " + poolSize + " × " + crossChecks.instances()
					+ " instance(s) exceeds the database's connection budget (" + crossChecks.fleetBudgetPerInstance()
					+ " per instance).");
		}
		if (Math.ceil(crossChecks.littleBusyPerInstance()) > poolSize) {
			caveats.add(String.format(Locale.ROOT,
					"Little's law puts %.1f connections busy per instance, more than the pool of %d: "
							+ "the usage figure and the latency disagree; check the telemetry.",
					crossChecks.littleBusyPerInstance(), poolSize));
		}
		TopologyGrid grid = at.topology().grid();
		return new Recommendation(grid.name(), grid.poolSizeKey(), verdict, OptionalInt.of(poolSize),
				OptionalInt.of(at.rateRps()), summary, List.copyOf(caveats), crossChecks, provisional, basis, List.of(),
				List.of(), Map.of());
	}

	static CrossChecks crossChecks(TopologyCase topology, @Nullable Cell littleCell) {
		TopologyGrid grid = topology.grid();
		Host host = topology.host();
		DatabaseFacts database = topology.database();
		int instances = Math.max(1, grid.instances());
		// The reactive twin measures no hold time: Little's law has nothing to work on.
		double holdMs = (littleCell != null && grid.limits().stack() == Stack.JDBC) ? littleCell.pool().usageMeanMs()
				: Double.NaN;
		double busyFleet = (littleCell != null) ? littleCell.requests().achievedRps() * holdMs / 1000 : Double.NaN;
		int poolsReachingTheDatabase = PgBouncerFacts.poolsAtTheDatabase(grid.behindPgBouncer(), instances);
		int budgetPerInstance = database.budgetKnown()
				? Math.max(0, database.maxConnections() - database.reservedConnections()) / poolsReachingTheDatabase
				: CrossChecks.BUDGET_UNKNOWN;
		int requestThreads = grid.limits().requestCap().orElse(CrossChecks.NO_THREAD_CAP);
		// Cm describes the team's app: the lab's service holds one connection at a time.
		int deadlockFloor = Fleet.deadlockFloor(requestThreads, grid.connectionsPerRequest());
		DatabaseHost databaseHost = DatabaseHost.of(database);
		// HikariCP's formula counts the database host's cores; this machine's say nothing
		// about another host's.
		OptionalInt hikariStartingPoolSize = databaseHost.sameHost()
				? OptionalInt.of(host.cpuCores() * 2 + EFFECTIVE_SPINDLE_COUNT) : OptionalInt.empty();
		return new CrossChecks((littleCell != null) ? littleCell.requests().achievedRps() : 0, holdMs, busyFleet,
				busyFleet / instances, host.cpuCores(), databaseHost.sameHost() ? null : databaseHost.hosts(),
				hikariStartingPoolSize, requestThreads, grid.connectionsPerRequest(), deadlockFloor, instances,
				database.maxConnections(), database.reservedConnections(), budgetPerInstance);
	}

	/** The cell that moved the most requests: where Little's law says the most. */
	public static @Nullable Cell busiest(List<Cell> cells) {
		return cells.stream().max(Comparator.comparingDouble((cell) -> cell.requests().achievedRps())).orElse(null);
	}

	private static String describe(List<Cell> cells) {
		return cells.stream()
			.map((cell) -> "pool " + cell.poolLabel() + " @ " + cell.rateRps() + " rps")
			.collect(Collectors.joining(", "));
	}

	/** E.g. {@code 1, 2 and 5}. */
	public static String pools(List<Cell> cells) {
		List<String> labels = cells.stream().map(Cell::poolLabel).toList();
		return (labels.size() == 1) ? labels.get(0)
				: String.join(", ", labels.subList(0, labels.size() - 1)) + " and " + labels.get(labels.size() - 1);
	}

}
