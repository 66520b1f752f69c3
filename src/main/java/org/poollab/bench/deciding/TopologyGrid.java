package org.poollab.bench.deciding;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.IntStream;

import org.poollab.bench.results.Limits;
import org.poollab.bench.results.PgBouncerFacts;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.Stack;
import org.poollab.bench.results.SweepResults;

/**
 * The points of one topology arranged as the paper's grid: pool sizes down, rates across.
 * Points whose instance died and points whose pool size was not verified are cells like
 * the others (see {@link Fate}); points the lab failed to measure never enter a cell and
 * are kept apart so the report can list them. A sweep over Tomcat thread counts has one
 * grid per topology and thread count. Public for the console, which shows the same cells.
 *
 * @param topology the topology name
 * @param limits what each instance was limited to (CPUs, heap, Tomcat threads)
 * @param cells one cell per measured (pool size, rate), repeats folded together
 * @param excluded points the lab failed to measure ({@link Fate#NOT_MEASURED}) or whose
 * window measured the load generator ({@link Fate#GENERATOR_BOUND}) while the instances
 * showed no saturation; a generator-bound point whose instances did
 * ({@link Cell#serverSaturated}) is a failed repeat of its cell
 * @param vendorNamed whether {@link #name()} names the database: when the sweep ran on
 * more than one
 * @param connectionsPerRequest Cm, the connections one request of the team's app holds at
 * once ({@link SweepResults#connectionsPerRequest()})
 */
public record TopologyGrid(String topology, Limits limits, List<Cell> cells, List<Point> excluded, boolean vendorNamed,
		int connectionsPerRequest) {

	public TopologyGrid(String topology, Limits limits, List<Cell> cells, List<Point> excluded) {
		this(topology, limits, cells, excluded, false, SweepResults.ONE_CONNECTION_PER_REQUEST);
	}

	/**
	 * One grid per topology and limits, in the order they first ran.
	 * @param results a sweep's results
	 * @return the grids
	 */
	public static List<TopologyGrid> of(SweepResults results) {
		Map<List<Object>, List<Point>> byDeployment = results.points()
			.stream()
			.collect(Collectors.groupingBy((point) -> List.<Object>of(point.topology(), point.limits()),
					LinkedHashMap::new, Collectors.toList()));
		List<TopologyGrid> grids = new ArrayList<>();
		byDeployment.forEach((key, points) -> {
			TopologyGrid grid = of(points.get(0).topology(), points.get(0).limits(), points, results.p99ObjectiveMs());
			grids.add(new TopologyGrid(grid.topology(), grid.limits(), grid.cells(), grid.excluded(),
					results.severalDatabases(), results.connectionsPerRequest()));
		});
		return grids;
	}

	public static TopologyGrid of(String topology, Limits limits, List<Point> points, double p99ObjectiveMs) {
		// A generator-bound point whose instances saw saturation is a failure, not a gap.
		Predicate<Point> excluded = (point) -> Fate.of(point).excluded()
				&& !(Fate.of(point) == Fate.GENERATOR_BOUND && Cell.serverSaturated(point, p99ObjectiveMs));
		Map<List<Integer>, List<Point>> byCell = points.stream()
			.filter(excluded.negate())
			.collect(Collectors.groupingBy((point) -> List.of(point.poolSize(), point.rateRps()), LinkedHashMap::new,
					Collectors.toList()));
		List<Cell> cells = byCell.values()
			.stream()
			.map((repeats) -> Cell.of(repeats, p99ObjectiveMs))
			.sorted(Cell.byPoolThenRate())
			.toList();
		return new TopologyGrid(topology, limits, cells, points.stream().filter(excluded).toList());
	}

	/**
	 * The cells that decide an answer: the chosen pool size and its smaller neighbour
	 * (the next smaller size measured), at the deciding rate.
	 * @return empty when the recommendation names no pool size or no deciding rate
	 */
	public List<Cell> deciding(Recommendation recommendation) {
		if (recommendation.poolSize().isEmpty() || recommendation.decidingRateRps().isEmpty()) {
			return List.of();
		}
		int chosen = recommendation.poolSize().getAsInt();
		int rate = recommendation.decidingRateRps().getAsInt();
		List<Cell> atRate = this.cells.stream().filter((cell) -> cell.rateRps() == rate).toList();
		OptionalInt smaller = atRate.stream().mapToInt(Cell::poolSize).filter((pool) -> pool < chosen).max();
		return atRate.stream()
			.filter((cell) -> cell.poolSize() == chosen
					|| (smaller.isPresent() && cell.poolSize() == smaller.getAsInt()))
			.toList();
	}

	/**
	 * The topology, with the database, the stack and the request threads when the sweep
	 * varied them, e.g. {@code single}, {@code single (MariaDB)}, {@code single (R2DBC)},
	 * {@code single (20 Tomcat threads)} or {@code single (virtual threads)}.
	 */
	public String name() {
		List<String> parts = new ArrayList<>();
		if (this.vendorNamed) {
			parts.add(this.limits.vendor().product());
		}
		if (this.limits.stack() != Stack.JDBC) {
			parts.add(this.limits.stack().name());
		}
		String threads = this.limits.threads().describe();
		if (!threads.isEmpty()) {
			parts.add(threads);
		}
		return this.topology + (parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")");
	}

	/**
	 * What the answer sizes: {@code pgbouncer default_pool_size} behind pgbouncer, else
	 * the stack's pool-size key ({@code maximum-pool-size}, {@code max-size}).
	 */
	public String poolSizeKey() {
		return behindPgBouncer() ? "pgbouncer default_pool_size" : this.limits.stack().poolSizeKey();
	}

	/**
	 * {@link #name()} for element ids and file names, e.g. {@code single-tomcat20} or
	 * {@code single-virtual}.
	 */
	public String key() {
		return this.topology + this.limits.labelSuffix();
	}

	/**
	 * The rows: every pool size tried, including one the lab failed to measure, so the
	 * tables show the gap instead of hiding it.
	 */
	public int[] poolSizes() {
		return IntStream
			.concat(this.cells.stream().mapToInt(Cell::poolSize), this.excluded.stream().mapToInt(Point::poolSize))
			.distinct()
			.sorted()
			.toArray();
	}

	/** The columns: every rate tried. */
	public int[] ratesRps() {
		return IntStream
			.concat(this.cells.stream().mapToInt(Cell::rateRps), this.excluded.stream().mapToInt(Point::rateRps))
			.distinct()
			.sorted()
			.toArray();
	}

	public Optional<Cell> cell(int poolSize, int rateRps) {
		return this.cells.stream()
			.filter((cell) -> cell.poolSize() == poolSize && cell.rateRps() == rateRps)
			.findFirst();
	}

	/** The points the lab failed to measure at this pool size and rate. */
	public List<Point> excludedAt(int poolSize, int rateRps) {
		return this.excluded.stream()
			.filter((point) -> point.poolSize() == poolSize && point.rateRps() == rateRps)
			.toList();
	}

	/**
	 * Whether the swept pool was pgbouncer's (the pgbouncer topology), read from every
	 * point, kept or excluded: a grid whose points were all excluded (generator-bound,
	 * say) is still pgbouncer's, and its answer is still pgbouncer's pool.
	 */
	public boolean behindPgBouncer() {
		return pgbouncerClientPoolSize().isPresent();
	}

	/**
	 * Each instance's own pool to pgbouncer, as measured.
	 * @return empty when pgbouncer was not in the way
	 */
	public OptionalInt pgbouncerClientPoolSize() {
		OptionalInt kept = this.cells.stream()
			.map(Cell::pgbouncer)
			.filter(Objects::nonNull)
			.mapToInt(Cell.PgBouncerFigures::clientPoolSize)
			.findFirst();
		return kept.isPresent() ? kept
				: this.excluded.stream()
					.map(Point::pgbouncer)
					.filter(Objects::nonNull)
					.mapToInt(PgBouncerFacts::clientPoolSize)
					.findFirst();
	}

	public boolean hasRepeats() {
		return this.cells.stream().anyMatch((cell) -> cell.repeats().size() > 1);
	}

	/**
	 * The slow motion's k its points ran at, the largest should they differ; 1 for none
	 * (their figures are in the team's time either way).
	 */
	public int timeScale() {
		return Stream.concat(this.cells.stream().flatMap((cell) -> cell.points().stream()), this.excluded.stream())
			.mapToInt(Point::timeScale)
			.max()
			.orElse(1);
	}

	/** Instances behind the load balancer; the same for every point of a topology. */
	public int instances() {
		return this.cells.isEmpty() ? (this.excluded.isEmpty() ? 1 : this.excluded.get(0).instances())
				: this.cells.get(0).instances();
	}

}
