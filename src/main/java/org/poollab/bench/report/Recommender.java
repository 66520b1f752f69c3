package org.poollab.bench.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

import org.poollab.bench.model.Fleet;
import org.poollab.bench.report.Recommendation.CrossChecks;
import org.poollab.bench.report.Recommendation.Verdict;
import org.poollab.bench.results.Database;
import org.poollab.bench.results.Host;
import org.poollab.bench.results.PgBouncer;

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
	 * Tn in HikariCP's deadlock formula when the sweep did not set Tomcat's threads:
	 * Tomcat's default {@code server.tomcat.threads.max}. It drops out while a request
	 * holds one connection.
	 */
	static final int DEFAULT_REQUEST_THREADS = Fleet.TOMCAT_DEFAULT_THREADS;

	/**
	 * Without a knee, the smallest pool worth naming: with one connection every request
	 * queues behind the slowest one in flight.
	 */
	static final int NO_KNEE_MIN_POOL_SIZE = 2;

	/** Headroom over the connections Little's law finds busy on average. */
	static final int NO_KNEE_LITTLE_FACTOR = 2;

	/** How the size is derived when the grid shows no knee. */
	static final String NO_KNEE_RULE = "the smallest measured pool size that sustained the rate and is at least "
			+ NO_KNEE_MIN_POOL_SIZE + " (with one connection every request queues behind the slowest), at least "
			+ "ceil(" + NO_KNEE_LITTLE_FACTOR + " \u00d7 the connections Little's law finds busy per instance) "
			+ "(room for bursts) and at least the deadlock floor, capped by the fleet budget.";

	private Recommender() {
	}

	static double marginMs(double bestP99Ms) {
		return Math.max(P99_MARGIN_SHARE * bestP99Ms, P99_MARGIN_FLOOR_MS);
	}

	static Recommendation recommend(Grid grid, Host host, Database database) {
		return recommend(grid, host, database, Map.of());
	}

	/**
	 * The rule, where some pool sizes were refuted by the confirmation run (started with
	 * the recommended block as pasted, they did not hold the objective under Poisson
	 * arrivals): they cannot be the choice, and the next pool of the indistinguishable
	 * set is.
	 * @param refutedByRate pool sizes whose confirmation failed, by the rate it ran at
	 */
	static Recommendation recommend(Grid grid, Host host, Database database, Map<Integer, Set<Integer>> refutedByRate) {
		List<String> caveats = new ArrayList<>();
		if (!grid.excluded().isEmpty()) {
			long generatorBound = grid.excluded()
				.stream()
				.filter((point) -> Fate.of(point) == Fate.GENERATOR_BOUND)
				.count();
			caveats.add(grid.excluded().size() + " point(s) left out because the lab failed to measure them"
					+ ((generatorBound > 0) ? " (" + generatorBound
							+ " generator-bound: JMeter fell behind its schedule, so the window measured the generator, not the service; no verdict)"
							: "")
					+ " (listed below).");
		}
		// No pool ("none") is the baseline the pool sizes are compared with, never a
		// candidate: there is no maximum-pool-size to paste for it.
		List<Cell> cells = grid.cells().stream().filter(Cell::pooled).toList();
		List<Cell> unpooled = grid.cells().stream().filter((cell) -> !cell.pooled()).toList();
		tooManyClients(grid, database).ifPresent(caveats::add);
		if (cells.isEmpty()) {
			return answer(grid, Verdict.NO_DATA, OptionalInt.empty(),
					"The grid cannot support a conclusion for " + grid.name() + ": no point of this topology "
							+ (unpooled.isEmpty() ? "was measured."
									: "with a pool was measured (only 'none' was measured)."),
					caveats, null, host, database);
		}
		List<Cell> considered = cells.stream().filter(Cell::considered).toList();
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
		if (considered.isEmpty()) {
			return answer(grid, Verdict.UNVERIFIED, OptionalInt.empty(),
					"The grid cannot support a conclusion: no point proved that its pool had the size it claims, "
							+ "so no measurement can be attributed to a pool size.",
					caveats, busiest(cells), host, database);
		}
		int[] poolSizes = Cell.distinct(considered, Cell::poolSize);
		if (poolSizes.length == 1) {
			int highestRateRps = considered.stream().mapToInt(Cell::rateRps).max().getAsInt();
			return answer(grid, Verdict.SINGLE_POOL_SIZE, OptionalInt.empty(),
					"The grid cannot support a conclusion about pool size: only pool size " + poolSizes[0]
							+ " was measured, so there is nothing to compare it with."
							+ withoutPool(unpooled, highestRateRps).replace("that rate", highestRateRps + " rps"),
					caveats, busiest(considered), host, database);
		}
		List<Cell> sustained = considered.stream().filter(Cell::sustained).toList();
		if (sustained.isEmpty()) {
			return answer(grid, Verdict.SATURATED, OptionalInt.empty(),
					"The grid cannot support a conclusion: every pool size saturated at every measured rate "
							+ "(errors, connection timeouts, a dead instance or an under-achieved rate). Measure "
							+ "lower rates, or look for the bottleneck outside the pool.",
					caveats, busiest(considered), host, database);
		}
		// The deciding rate: the highest at which some pool can be the choice (it
		// sustained
		// the rate in every repeat, so did every larger pool, and no confirmation refuted
		// it there). One lucky cell at a rate the topology otherwise failed must not move
		// the answer; without such a rate, the highest any cell sustained.
		OptionalInt eligibleRate = sustained.stream()
			.filter((cell) -> Decision.eligible(cell, atRate(considered, cell.rateRps()),
					refutedByRate.getOrDefault(cell.rateRps(), Set.of())))
			.mapToInt(Cell::rateRps)
			.max();
		String whyThisRate = eligibleRate.isPresent()
				? "the highest rate at which a pool size sustained every repeat, as did every larger pool"
				: "the highest rate any pool size sustained";
		int decidingRateRps = eligibleRate.orElse(sustained.stream().mapToInt(Cell::rateRps).max().getAsInt());
		Set<Integer> refuted = refutedByRate.getOrDefault(decidingRateRps, Set.of());
		List<Cell> atRate = atRate(considered, decidingRateRps);
		refutedAbove(refutedByRate, decidingRateRps).ifPresent(caveats::add);
		List<Cell> candidates = sustained.stream()
			.filter((cell) -> cell.rateRps() == decidingRateRps)
			.sorted(Comparator.comparingInt(Cell::poolSize))
			.toList();
		Cell best = candidates.stream().min(Comparator.comparingDouble(Cell::p99Ms)).get();
		Margin margin = Margin.of(best, candidates);
		Cell chosen = candidates.stream()
			.filter((cell) -> cell.p99Ms() <= best.p99Ms() + margin.ms())
			.findFirst()
			.get();
		double worstP99Ms = candidates.stream().mapToDouble(Cell::p99Ms).max().getAsDouble();
		boolean flat = candidates.size() == atRate.size() && candidates.size() > 1
				&& worstP99Ms - best.p99Ms() <= margin.ms();
		boolean provisional = candidates.stream().anyMatch((cell) -> cell.repeats().size() < 2);

		if (decidingRateRps == grid.ratesRps()[grid.ratesRps().length - 1]) {
			caveats.add("Some pool size sustained every measured rate, so the ceiling was not found: above "
					+ decidingRateRps + " rps the pool size may matter more than it does here.");
		}
		Optional<Decision> decision = Decision.of(candidates, atRate, candidates.get(0).p99ObjectiveMs(), refuted);
		if (decision.isPresent()) {
			// The decision's probability (how often it picks the choice when redone on
			// p99s drawn from the intervals) says how settled it is: no bare
			// "provisional" beside it.
			return decided(grid, decision.get(), atRate, decidingRateRps, whyThisRate, unpooled, caveats, host,
					database, refuted);
		}
		String summary;
		Recommendation recommendation;
		if (flat) {
			Cell busiest = busiest(candidates);
			CrossChecks checks = crossChecks(grid, busiest, host, database);
			NoKnee noKnee = NoKnee.of(candidates, checks);
			String spread = (worstP99Ms == best.p99Ms()) ? "a p99 of " + ms(best.p99Ms()) + " ms at every size"
					: "p99 between " + ms(best.p99Ms()) + " and " + ms(worstP99Ms) + " ms";
			summary = String.format(Locale.ROOT,
					"No knee was found: pool sizes %s are equal within noise at %d rps, with %s, within the %s ms "
							+ "margin%s. Pool size %d is derived, not measured: %s",
					pools(candidates), decidingRateRps, spread, ms(margin.ms()), margin.why(), noKnee.poolSize(),
					noKnee.why());
			caveats.addAll(noKnee.caveats());
			summary += withoutPool(unpooled, decidingRateRps) + (provisional ? " " + Recommendation.PROVISIONAL : "");
			String basis = "NOT a measured knee: pool sizes " + pools(candidates) + " equal within noise at "
					+ decidingRateRps + " rps; derived: " + noKnee.why();
			recommendation = answer(grid, Verdict.FLAT, OptionalInt.of(noKnee.poolSize()), summary, caveats, busiest,
					host, database, provisional, basis);
		}
		else {
			summary = String.format(Locale.ROOT, "At %d rps, %s, ", decidingRateRps, whyThisRate)
					+ chosenBecause(chosen, best, candidates, margin);
			List<Cell> smaller = atRate.stream().filter((cell) -> cell.poolSize() < chosen.poolSize()).toList();
			if (!smaller.isEmpty()) {
				summary += " Smaller pools at that rate: "
						+ smaller.stream().map(Recommender::fate).collect(Collectors.joining("; ")) + ".";
			}
			List<Cell> larger = atRate.stream().filter((cell) -> cell.poolSize() > chosen.poolSize()).toList();
			if (!larger.isEmpty()) {
				summary += " Larger: " + larger.stream().map(Recommender::fate).collect(Collectors.joining("; ")) + ".";
			}
			int largestPool = poolSizes[poolSizes.length - 1];
			if (chosen.poolSize() == largestPool) {
				caveats.add("The chosen pool is the largest measured: p99 may still fall above pool " + largestPool
						+ "; extend the grid upwards to find the knee.");
			}
			summary += withoutPool(unpooled, decidingRateRps) + (provisional ? " " + Recommendation.PROVISIONAL : "");
			String basis = "measured: the smallest pool within the p99 margin (" + ms(margin.ms()) + " ms) of the "
					+ "best at " + decidingRateRps + " rps, the highest rate sustained";
			recommendation = answer(grid, Verdict.CHOSEN, OptionalInt.of(chosen.poolSize()), summary, caveats, chosen,
					host, database, provisional, basis);
		}
		return recommendation.withDecidingRate(decidingRateRps);
	}

	private static List<Cell> atRate(List<Cell> considered, int rateRps) {
		return considered.stream().filter((cell) -> cell.rateRps() == rateRps).toList();
	}

	/** Confirmation runs that refuted pools above the deciding rate, in a sentence. */
	private static Optional<String> refutedAbove(Map<Integer, Set<Integer>> refutedByRate, int decidingRateRps) {
		List<String> above = refutedByRate.entrySet()
			.stream()
			.filter((entry) -> entry.getKey() > decidingRateRps)
			.map((entry) -> "pool "
					+ entry.getValue().stream().sorted().map(String::valueOf).collect(Collectors.joining(", pool "))
					+ " at " + entry.getKey() + " rps")
			.toList();
		return above.isEmpty() ? Optional.empty()
				: Optional.of("Refuted by confirmation runs (started as pasted, Poisson arrivals): "
						+ String.join("; ", above) + ", so the answer is decided at " + decidingRateRps + " rps.");
	}

	/** Below this, the decision is called unsettled and more repeats are advised. */
	static final double SETTLED_PROBABILITY = 0.8;

	/** The verdict from intervals: the indistinguishable set and the choice in it. */
	private static Recommendation decided(Grid grid, Decision decision, List<Cell> atRate, int decidingRateRps,
			String whyThisRate, List<Cell> unpooled, List<String> caveats, Host host, Database database,
			Set<Integer> refuted) {
		Cell chosen = decision.chosen();
		Cell best = decision.best();
		double objectiveMs = best.p99ObjectiveMs();
		String bestFigure = "pool " + best.poolLabel() + ", p99 " + ms(best.p99Ms())
				+ best.p99Interval().map(Tables::interval).orElse("") + " ms";
		String set;
		if (decision.indistinguishable().size() == 1) {
			set = "pool " + best.poolLabel() + " has the best p99 (" + ms(best.p99Ms())
					+ best.p99Interval().map(Tables::interval).orElse("")
					+ " ms), told apart from every other pool by its 95 % interval";
		}
		else {
			set = "pools " + pools(decision.indistinguishable()) + " are indistinguishable from the best (" + bestFigure
					+ "): the 95 % interval of each difference includes 0"
					+ ((objectiveMs > 0) ? String.format(Locale.ROOT,
							", or the difference is within %s ms (%.0f %% of the %s ms objective)",
							ms(Decision.OBJECTIVE_SHARE * objectiveMs), 100 * Decision.OBJECTIVE_SHARE, ms(objectiveMs))
							: "");
		}
		String summary = String.format(Locale.ROOT, "At %d rps, %s, %s. ", decidingRateRps, whyThisRate, set)
				+ ((decision.indistinguishable().size() == 1) ? "The choice is pool " + chosen.poolLabel() + "."
						: "The choice is pool " + chosen.poolLabel() + ", the smallest of them that sustained the rate "
								+ "in every repeat and whose larger pools sustained it too.")
				+ " Redone on p99s drawn from each pool's interval, the decision picks " + decision.describePicks()
				+ ".";
		if (!refuted.isEmpty()) {
			summary += " Refuted by its confirmation run (started as pasted, Poisson arrivals at the deciding rate): "
					+ "pool " + refuted.stream().sorted().map(String::valueOf).collect(Collectors.joining(", pool "))
					+ ", so it cannot be the choice.";
		}
		List<Cell> others = atRate.stream().filter((cell) -> !decision.candidates().contains(cell)).toList();
		List<Cell> understated = others.stream().filter(Cell::sustained).toList();
		List<Cell> failed = others.stream().filter((cell) -> !cell.sustained()).toList();
		if (!failed.isEmpty()) {
			summary += " Did not sustain it: "
					+ failed.stream().map(Recommender::fate).collect(Collectors.joining("; ")) + ".";
		}
		if (!understated.isEmpty()) {
			summary += " Left out: " + understated.stream()
				.map((cell) -> "pool " + cell.poolLabel() + ", " + CellText.latencyCaveat(cell).orElse("understated"))
				.collect(Collectors.joining("; ")) + ".";
		}
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
		summary += withoutPool(unpooled, decidingRateRps);
		String basis = String.format(Locale.ROOT,
				"measured: the smallest of the pools indistinguishable from the best at %d rps (%s) that sustained "
						+ "it; picked in %.0f %% of redrawn decisions",
				decidingRateRps, pools(decision.indistinguishable()), 100 * decision.probability());
		return answer(grid, Verdict.CHOSEN, OptionalInt.of(chosen.poolSize()), summary, caveats, chosen, host, database,
				false, basis)
			.withDecidingRate(decidingRateRps)
			.withDecision(decision.indistinguishable().stream().map(Cell::poolSize).toList(), decision.picks());
	}

	/** Why the chosen pool, without comparing it with itself. */
	private static String chosenBecause(Cell chosen, Cell best, List<Cell> candidates, Margin margin) {
		if (candidates.size() == 1) {
			return "pool " + chosen.poolLabel() + " is the only pool size that sustained it (p99 " + ms(chosen.p99Ms())
					+ " ms).";
		}
		if (chosen == best) {
			boolean tied = candidates.stream().anyMatch((cell) -> cell != chosen && cell.p99Ms() == chosen.p99Ms());
			return "pool " + chosen.poolLabel()
					+ (tied ? " is the smallest with the best p99 (" : " has the best p99 (") + ms(chosen.p99Ms())
					+ " ms)" + margin.why() + ".";
		}
		return "pool " + chosen.poolLabel() + " is the smallest whose p99 (" + ms(chosen.p99Ms()) + " ms) is within "
				+ ms(margin.ms()) + " ms" + margin.why() + " of the best (" + ms(best.p99Ms()) + " ms at pool "
				+ best.poolLabel() + ").";
	}

	/** One other pool size at the deciding rate, for the summary. */
	private static String fate(Cell cell) {
		if (cell.died()) {
			return "pool " + cell.poolLabel() + " " + CellText.deathSummary(cell);
		}
		return "pool " + cell.poolLabel() + " "
				+ (cell.sustained() ? "p99 " + ms(cell.p99Ms()) + " ms" : "failed (" + CellText.shortfall(cell) + ")");
	}

	/**
	 * The sentence a refused connection calls for: PostgreSQL at max_connections is the
	 * database's limit, not the pool's.
	 */
	private static Optional<String> tooManyClients(Grid grid, Database database) {
		List<Cell> refused = grid.cells().stream().filter((cell) -> cell.refused(Cell.TOO_MANY_CLIENTS) > 0).toList();
		if (refused.isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(String.format(Locale.ROOT,
				"The database was at its connection limit (max_connections %d, %d reserved): PostgreSQL refused "
						+ "new connections ('too many clients') at %s. There the pool could not reach its size, "
						+ "so those points measured the database's limit, not the pool's.",
				database.maxConnections(), database.reservedConnections(),
				refused.stream()
					.map((cell) -> "pool " + cell.poolLabel() + " @ " + cell.rateRps() + " rps ("
							+ cell.refused(Cell.TOO_MANY_CLIENTS) + " refusals)")
					.collect(Collectors.joining(", "))));
	}

	/**
	 * What no pool did at the deciding rate, beside the pool sizes: the case for pooling
	 * in this grid's own numbers.
	 */
	private static String withoutPool(List<Cell> unpooled, int rateRps) {
		return unpooled.stream()
			.filter((cell) -> cell.rateRps() == rateRps)
			.findFirst()
			.map((cell) -> " Without a pool (a new connection per request) at that rate: " + (cell.sustained()
					? "p99 " + ms(cell.p99Ms()) + " ms." : "failed (" + CellText.shortfall(cell) + ")."))
			.orElse("");
	}

	private static Recommendation answer(Grid grid, Verdict verdict, OptionalInt poolSize, String summary,
			List<String> caveats, Cell littleCell, Host host, Database database) {
		return answer(grid, verdict, poolSize, summary, caveats, littleCell, host, database, false, "");
	}

	private static Recommendation answer(Grid grid, Verdict verdict, OptionalInt poolSize, String summary,
			List<String> caveats, Cell littleCell, Host host, Database database, boolean provisional, String basis) {
		CrossChecks crossChecks = crossChecks(grid, littleCell, host, database);
		if (poolSize.isPresent() && poolSize.getAsInt() > crossChecks.fleetBudgetPerInstance()) {
			caveats.add("Pool " + poolSize.getAsInt() + " × " + crossChecks.instances()
					+ " instance(s) exceeds the database's connection budget (" + crossChecks.fleetBudgetPerInstance()
					+ " per instance).");
		}
		if (poolSize.isPresent() && Math.ceil(crossChecks.littleBusyPerInstance()) > poolSize.getAsInt()) {
			caveats.add(String.format(Locale.ROOT,
					"Little's law puts %.1f connections busy per instance, more than the pool of %d: "
							+ "the usage figure and the latency disagree; check the telemetry.",
					crossChecks.littleBusyPerInstance(), poolSize.getAsInt()));
		}
		return new Recommendation(grid.name(), verdict, poolSize, OptionalInt.empty(), summary, List.copyOf(caveats),
				crossChecks, provisional, basis);
	}

	static CrossChecks crossChecks(Grid grid, Cell littleCell, Host host, Database database) {
		int instances = Math.max(1, grid.instances());
		double busyFleet = (littleCell != null) ? littleCell.achievedRps() * littleCell.usageMeanMs() / 1000
				: Double.NaN;
		int poolsReachingTheDatabase = PgBouncer.poolsAtTheDatabase(grid.behindPgBouncer(), instances);
		int budgetPerInstance = Math.max(0, database.maxConnections() - database.reservedConnections())
				/ poolsReachingTheDatabase;
		int requestThreads = (grid.limits().tomcatThreads() > 0) ? grid.limits().tomcatThreads()
				: DEFAULT_REQUEST_THREADS;
		int deadlockFloor = Fleet.deadlockFloor(requestThreads, CONNECTIONS_PER_REQUEST);
		DatabaseHost databaseHost = DatabaseHost.of(database);
		// HikariCP's formula counts the database host's cores; this machine's say nothing
		// about another host's.
		OptionalInt hikariStartingPoolSize = databaseHost.sameHost()
				? OptionalInt.of(host.cpuCores() * 2 + EFFECTIVE_SPINDLE_COUNT) : OptionalInt.empty();
		return new CrossChecks((littleCell != null) ? littleCell.achievedRps() : 0,
				(littleCell != null) ? littleCell.usageMeanMs() : Double.NaN, busyFleet, busyFleet / instances,
				host.cpuCores(), databaseHost.sameHost() ? null : databaseHost.hosts(), hikariStartingPoolSize,
				requestThreads, deadlockFloor, instances, database.maxConnections(), database.reservedConnections(),
				budgetPerInstance);
	}

	/** The cell that moved the most requests: where Little's law says the most. */
	private static Cell busiest(List<Cell> cells) {
		return cells.stream().max(Comparator.comparingDouble(Cell::achievedRps)).orElse(null);
	}

	private static String describe(List<Cell> cells) {
		return cells.stream()
			.map((cell) -> "pool " + cell.poolLabel() + " @ " + cell.rateRps() + " rps")
			.collect(Collectors.joining(", "));
	}

	/** E.g. {@code 1, 2 and 5}. */
	private static String pools(List<Cell> cells) {
		List<String> labels = cells.stream().map(Cell::poolLabel).toList();
		return (labels.size() == 1) ? labels.get(0)
				: String.join(", ", labels.subList(0, labels.size() - 1)) + " and " + labels.get(labels.size() - 1);
	}

	/**
	 * A figure in milliseconds as the report prints it: whole numbers as they are, one
	 * decimal from 1 ms up, and below 1 ms two significant digits, so 0.01 and 0.0030 do
	 * not collapse into 0.0.
	 */
	static String ms(double valueMs) {
		if (valueMs == Math.rint(valueMs)) {
			return String.valueOf((long) valueMs);
		}
		if (Math.abs(valueMs) >= 1) {
			return String.format(Locale.ROOT, "%.1f", valueMs);
		}
		return new BigDecimal(valueMs).round(new MathContext(2)).stripTrailingZeros().toPlainString();
	}

	/**
	 * How far from the best p99 still counts as as good: the fixed margin, or with
	 * repeats the widest spread between repeats at the deciding rate when that is wider,
	 * since the repeats show the noise is at least that large.
	 *
	 * @param ms the margin
	 * @param why empty for the fixed margin; else what widened it, for the summary
	 */
	record Margin(double ms, String why) {

		static Margin of(Cell best, List<Cell> candidates) {
			double fixedMs = marginMs(best.p99Ms());
			Cell noisiest = candidates.stream().max(Comparator.comparingDouble(Cell::p99SpreadMs)).get();
			if (noisiest.p99SpreadMs() <= fixedMs) {
				return new Margin(fixedMs, "");
			}
			double[] p99s = noisiest.points()
				.stream()
				.filter((point) -> Fate.of(point) != Fate.DIED)
				.mapToDouble((point) -> point.latency().p99Ms())
				.sorted()
				.toArray();
			return new Margin(noisiest.p99SpreadMs(),
					String.format(Locale.ROOT,
							" (the noise margin is the widest spread between repeats at this rate, pool %s's "
									+ "p99 %s to %s ms, wider than the fixed %s ms)",
							noisiest.poolLabel(), Recommender.ms(p99s[0]), Recommender.ms(p99s[p99s.length - 1]),
							Recommender.ms(fixedMs)));
		}

	}

	/**
	 * The size named when the grid shows no knee, by {@link #NO_KNEE_RULE}.
	 *
	 * @param poolSize the size
	 * @param why the rule applied to this grid's figures
	 * @param caveats where the rule had to bend
	 */
	record NoKnee(int poolSize, String why, List<String> caveats) {

		static NoKnee of(List<Cell> candidates, CrossChecks checks) {
			boolean littleKnown = !Double.isNaN(checks.littleBusyPerInstance());
			int littleFloor = littleKnown
					? (int) Math.ceil(NO_KNEE_LITTLE_FACTOR * checks.littleBusyPerInstance() - 1e-9) : 0;
			int floor = Math.max(NO_KNEE_MIN_POOL_SIZE, Math.max(checks.deadlockFloor(), littleFloor));
			List<String> caveats = new ArrayList<>();
			Cell pick = candidates.stream().filter((cell) -> cell.poolSize() >= floor).findFirst().orElse(null);
			if (pick == null) {
				pick = candidates.get(candidates.size() - 1);
				caveats.add("Every pool size measured is below the no-knee floor of " + floor
						+ "; the largest measured is named. Measure larger pools.");
			}
			int poolSize = Math.min(pick.poolSize(), checks.fleetBudgetPerInstance());
			if (poolSize < pick.poolSize()) {
				caveats.add("The fleet budget (" + checks.fleetBudgetPerInstance() + " per instance) caps the "
						+ "derived pool size below pool " + pick.poolSize() + ", which was measured.");
			}
			String why = String.format(Locale.ROOT,
					"the smallest of them that is at least %d, at least twice the %s connections Little's law finds "
							+ "busy per instance (rounded up: %s) and at least the deadlock floor (%d), within the "
							+ "fleet budget (%d per instance).",
					NO_KNEE_MIN_POOL_SIZE,
					littleKnown ? String.format(Locale.ROOT, "%.2f", checks.littleBusyPerInstance()) : "(unknown)",
					littleKnown ? String.valueOf(littleFloor) : "none", checks.deadlockFloor(),
					checks.fleetBudgetPerInstance());
			return new NoKnee(poolSize, why, caveats);
		}

	}

}
