package org.poollab.bench.deciding;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.results.Interval;
import org.poollab.bench.results.LateStarts;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.QueuePrediction;
import org.poollab.bench.results.SweepResults;
import org.poollab.service.system.Refusals;

/**
 * One grid cell (topology, pool size, rate) with its repeats folded together, and the
 * verdicts on it. Its figures are grouped as a {@link Point}'s are: latency, requests,
 * pool, generator and pgbouncer, each folded across the repeats as {@link CellFold} says
 * (medians of the repeats that ran to the end, counts summed). The verdicts (sustained,
 * died, verified, saturated) read them here, in one place; one repeat whose instance died
 * is enough to fail the cell, because each says the pool size did not sustain its rate.
 *
 * @param points the repeats, in the order they ran
 * @param p99ObjectiveMs the sweep's p99 objective (0: none)
 * @param latency successful requests' latency
 * @param requests how many requests were sent, succeeded and failed
 * @param pool what the instances' HikariCP pools reported
 * @param generator how the load generator kept up
 * @param pgbouncer pgbouncer's figures, for the pgbouncer topology; null otherwise
 */
public record Cell(List<Point> points, double p99ObjectiveMs, Latency latency, Requests requests, Pool pool,
		Generator generator, @Nullable PgBouncerFigures pgbouncer) {

	/**
	 * Successful requests' latency across the repeats, and how sure it is.
	 *
	 * @param p50Ms median p50
	 * @param p95Ms median p95
	 * @param p99Ms median p99
	 * @param p999Ms median p99.9
	 * @param maxMs median max
	 * @param p99SpreadMs highest minus lowest p99 of the repeats that ran to the end; 0
	 * for one, and when none did
	 * @param serverP99Ms median of the slowest instance's own p99
	 * ({@link Point#serverP99Ms()}, a bucket's upper bound), over the repeats that
	 * recorded one; -1 when none did
	 * @param p50Interval the p50's 95 % interval: the window's own (a block bootstrap of
	 * its samples) for one repeat, the envelope of the repeats' for several; empty when a
	 * repeat that ran to the end recorded none
	 * @param p99Interval the p99's, likewise
	 * @param p99StandardErrorMs the standard error of the p99, for the decision: more
	 * repeats narrow it, where the envelope of {@code p99Interval} only widens; empty
	 * when a repeat that ran to the end recorded no interval
	 */
	public record Latency(double p50Ms, double p95Ms, double p99Ms, double p999Ms, double maxMs, double p99SpreadMs,
			double serverP99Ms, Optional<Interval> p50Interval, Optional<Interval> p99Interval,
			OptionalDouble p99StandardErrorMs) {

	}

	/**
	 * The requests of the repeats' windows.
	 *
	 * @param achievedRps median rate sent (the offered load JMeter really sent)
	 * @param throughputRps median successful responses per second
	 * @param samples requests of all repeats
	 * @param errors failed requests of all repeats
	 */
	public record Requests(double achievedRps, double throughputRps, long samples, long errors) {

		/** Failed requests as a share of all, in percent; 0 when none were sent. */
		public double errorPercent() {
			return (this.samples != 0) ? 100.0 * this.errors / this.samples : 0;
		}

	}

	/**
	 * What the instances' HikariCP pools reported.
	 *
	 * @param acquireP99Ms median acquire p99 (a histogram bucket's upper bound)
	 * @param usageMeanMs median mean connection hold ({@code hikaricp.connections.usage})
	 * @param peakPending median of the peak pending seen in 500 ms samples
	 * @param peakActive median of the peak active seen in 500 ms samples
	 * @param timeouts connection-acquire timeouts of all repeats
	 * @param holdMeanMs the mean connection hold the instances timed themselves: the
	 * median over the repeats that timed one
	 * @param holdP99Ms that hold's p99: the median over the repeats that timed one
	 */
	public record Pool(double acquireP99Ms, double usageMeanMs, int peakPending, int peakActive, long timeouts,
			OptionalDouble holdMeanMs, OptionalDouble holdP99Ms) {

	}

	/**
	 * How the load generator kept up.
	 *
	 * @param startLagP99Ms the worst repeat's late-start p99; -1 when no repeat knew it
	 * @param cpuCores median CPU of the load generator, in cores
	 */
	public record Generator(double startLagP99Ms, double cpuCores) {

	}

	/**
	 * pgbouncer's figures of a pgbouncer-topology cell (medians across repeats).
	 *
	 * @param clientPoolSize every instance's HikariCP pool size
	 * @param peakServerActive most connections to PostgreSQL busy at once
	 * @param peakClientsWaiting most clients waiting for a server connection at once
	 * @param maxWaitMs longest wait pgbouncer reported
	 */
	public record PgBouncerFigures(int clientPoolSize, int peakServerActive, int peakClientsWaiting, double maxWaitMs) {

	}

	/** Highest error share that still counts as sustained. */
	public static final double MAX_ERROR_PERCENT = 0.1;

	/** Lowest share of the target rate that still counts as sustained. */
	public static final double MIN_ACHIEVED_SHARE = 0.95;

	/**
	 * More than this share of the target rate sent in the window means the generator had
	 * fallen behind before it and was catching up: requests went out late, and their
	 * latency does not include the wait.
	 */
	public static final double CATCH_UP_SHARE = 1.05;

	/** The instances' 503 reason when PostgreSQL refused a new connection. */
	public static final String TOO_MANY_CLIENTS = Refusals.Reason.TOO_MANY_CLIENTS.tag();

	/** A two-sided 95 % interval is this many standard errors wide on each side. */
	public static final double Z95 = 1.959964;

	/**
	 * The cell of some repeats.
	 * @param repeats the repeats, in the order they ran
	 * @param p99ObjectiveMs the sweep's p99 objective (0: none)
	 * @return the cell
	 */
	public static Cell of(List<Point> repeats, double p99ObjectiveMs) {
		CellFold fold = new CellFold(repeats);
		return new Cell(List.copyOf(repeats), p99ObjectiveMs, fold.latency(), fold.requests(), fold.pool(),
				fold.generator(), fold.pgbouncer());
	}

	private Point first() {
		return this.points.get(0);
	}

	public String topology() {
		return first().topology();
	}

	public int instances() {
		return first().instances();
	}

	public String loadBalancer() {
		return first().loadBalancer();
	}

	public int poolSize() {
		return first().poolSize();
	}

	public int rateRps() {
		return first().rateRps();
	}

	/** The repeat numbers, in order. */
	public List<Integer> repeats() {
		return this.points.stream().map(Point::repeat).sorted().toList();
	}

	/** {@code none} for no pool, else the pool size. */
	public String poolLabel() {
		return SweepResults.poolLabel(poolSize());
	}

	public boolean pooled() {
		return poolSize() != SweepResults.NO_POOL;
	}

	/**
	 * Whether this cell carried its rate cleanly, each condition a reason
	 * {@link CellText#shortfall} names when it fails: no instance died, the pool proved
	 * it had the size the cell claims, no request gave up waiting for a connection, few
	 * enough errors, the rate achieved, the p99 within its objective, and no repeat whose
	 * generator fell behind while the instances saw saturation.
	 */
	public boolean sustained() {
		return !died() && verified() && this.pool.timeouts() == 0 && this.requests.errorPercent() <= MAX_ERROR_PERCENT
				&& achievedTheRate() && metTheObjective() && saturatedBehindGenerator().isEmpty();
	}

	/**
	 * An instance died in at least one repeat: the pool size did not sustain the rate.
	 */
	public boolean died() {
		return !deaths().isEmpty();
	}

	/** The repeats whose instance died during the point. */
	public List<Point> deaths() {
		return this.points.stream().filter((point) -> Fate.of(point) == Fate.DIED).toList();
	}

	/** Every repeat proved its pool size (see {@link Point#verified()}). */
	public boolean verified() {
		return this.points.stream().allMatch(Point::verified);
	}

	/**
	 * Whether the cell takes part in the decision: a death is a result even when the dead
	 * instance could no longer prove its pool size (the pool had been resized and checked
	 * before the load began); otherwise only a verified pool size counts.
	 */
	public boolean considered() {
		return died() || verified();
	}

	/**
	 * What the paper-shaped tables show instead of this cell's figures, when they are not
	 * the pool size's: {@code died} or {@code unverified}; empty when the figures stand.
	 */
	public Optional<String> instead() {
		if (died()) {
			return Optional.of("died");
		}
		return verified() ? Optional.empty() : Optional.of("unverified");
	}

	/**
	 * The rate was sent: at least {@link #MIN_ACHIEVED_SHARE} of the target, or less by
	 * as much as random arrivals scatter a window's count
	 * ({@link Point#arrivalScatter()}).
	 */
	public boolean achievedTheRate() {
		double scatter = this.points.stream().mapToDouble(Point::arrivalScatter).max().orElse(0);
		return this.requests.achievedRps() >= Math.min(MIN_ACHIEVED_SHARE, 1 - scatter) * rateRps();
	}

	/**
	 * A rate carried with a p99 in the seconds is saturation, whatever the error count.
	 */
	public boolean metTheObjective() {
		return this.p99ObjectiveMs <= 0 || this.latency.p99Ms() <= this.p99ObjectiveMs;
	}

	/**
	 * Repeats whose generator fell behind while the instances saw saturation
	 * ({@link #serverSaturated}): they enter a cell only as failures.
	 */
	public List<Point> saturatedBehindGenerator() {
		return this.points.stream().filter((point) -> Fate.of(point) == Fate.GENERATOR_BOUND).toList();
	}

	/**
	 * The instances' own evidence that a point saturated the service, which a late
	 * generator does not distort: their p99 above the objective, requests they refused,
	 * or requests that timed out waiting for a connection. A generator that falls behind
	 * a saturated service (its open model starts a thread per waiting request) hides the
	 * wait from its own figures, but not from these: so a generator-bound point with this
	 * evidence is a failure of its pool at its rate, and one without it has no verdict.
	 * @param point a point, or a confirmation's window
	 * @param objectiveMs the p99 objective (0: none)
	 */
	public static boolean serverSaturated(Point point, double objectiveMs) {
		long refusedByInstances = point.refusals().values().stream().mapToLong(Long::longValue).sum();
		return (objectiveMs > 0 && point.serverP99Ms() > objectiveMs) || refusedByInstances > 0
				|| point.pool().timeouts() > 0;
	}

	/**
	 * Whether the cell's latency is understated: the load generator sent late (late
	 * starts past {@link LateStarts#LIMIT_MS}) or caught up (more than 105 % of the
	 * target sent). {@link CellText#latencyCaveat} says which, in words.
	 */
	public boolean understated() {
		return LateStarts.late(this.generator.startLagP99Ms()) || caughtUp();
	}

	/** More than 105 % of the target sent: the generator was catching up. */
	public boolean caughtUp() {
		return this.requests.achievedRps() > CATCH_UP_SHARE * rateRps();
	}

	/** Refusals (503s) by reason the instances counted, all repeats together. */
	public Map<String, Long> refusals() {
		Map<String, Long> refused = new TreeMap<>();
		this.points
			.forEach((point) -> point.refusals().forEach((reason, count) -> refused.merge(reason, count, Long::sum)));
		refused.values().removeIf((count) -> count == 0);
		return refused;
	}

	public long refused(String reason) {
		return refusals().getOrDefault(reason, 0L);
	}

	/**
	 * Failed requests by cause, all repeats together, as JMeter saw them.
	 * @see Point#failureCauses()
	 */
	public Map<String, Long> failureCauses() {
		Map<String, Long> causes = new TreeMap<>();
		this.points
			.forEach((point) -> point.failureCauses().forEach((cause, count) -> causes.merge(cause, count, Long::sum)));
		return causes;
	}

	/**
	 * The queueing model's prediction beside this cell: the first repeat's with one (the
	 * repeats of a cell share its rate and pool; their holds differ by noise).
	 */
	public Optional<QueuePrediction> model() {
		return this.points.stream().map(Point::model).filter(Objects::nonNull).findFirst();
	}

	/**
	 * A figure of the points: the median over the repeats that have it (null where not).
	 */
	public OptionalDouble medianOf(Function<Point, Double> figure) {
		return CellFold.medianOf(this.points, figure);
	}

	public static Comparator<Cell> byPoolThenRate() {
		return Comparator.comparingInt(Cell::poolSize).thenComparingInt(Cell::rateRps);
	}

}
