package org.poollab.bench.deciding;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.results.Interval;
import org.poollab.bench.results.LateStarts;
import org.poollab.bench.results.PgBouncerFacts;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.QueuePrediction;
import org.poollab.bench.results.SweepResults;
import org.poollab.service.system.Refusals;

/**
 * One grid cell (topology, pool size, rate) with its repeats folded together. Figures are
 * medians across the repeats that ran to the end of their window, so one noisy repeat
 * cannot move the verdict; errors and timeouts are summed instead, and one repeat whose
 * instance died is enough, because each says the pool size did not sustain its rate. When
 * every repeat died, the figures are those of the window up to the death. Kept whole: its
 * figures and its verdicts (sustained, died, verified, saturated) fold the same repeats,
 * and the verdicts are what the record is for.
 *
 * @param points the repeats, in the order they ran
 * @param p50Ms median p50 latency of successful requests
 * @param p95Ms median p95
 * @param p99Ms median p99
 * @param p999Ms median p99.9
 * @param maxMs median max
 * @param achievedRps median rate sent (the offered load JMeter really sent)
 * @param throughputRps median successful responses per second
 * @param samples requests of all repeats
 * @param errors failed requests of all repeats
 * @param acquireP99Ms median HikariCP acquire p99 (a histogram bucket's upper bound)
 * @param usageMeanMs median mean connection hold
 * @param peakPending median of the peak pending seen in 500 ms samples
 * @param peakActive median of the peak active seen in 500 ms samples
 * @param timeouts connection-acquire timeouts of all repeats
 * @param startLagP99Ms the worst repeat's late-start p99; -1 when no repeat knew it
 * @param loadGeneratorCpuCores median CPU of the load generator, in cores
 * @param p99SpreadMs highest minus lowest p99 of the repeats that ran to the end; 0 for
 * one
 * @param p99ObjectiveMs the sweep's p99 objective (0: none)
 * @param pgbouncer pgbouncer's figures, for the pgbouncer topology; null otherwise
 * @param serverP99Ms median of the slowest instance's own p99
 * ({@link Point#serverP99Ms()}, a bucket's upper bound), over the repeats that recorded
 * one; -1 when none did
 */
public record Cell(List<Point> points, double p50Ms, double p95Ms, double p99Ms, double p999Ms, double maxMs,
		double achievedRps, double throughputRps, long samples, long errors, double acquireP99Ms, double usageMeanMs,
		int peakPending, int peakActive, long timeouts, double startLagP99Ms, double loadGeneratorCpuCores,
		double p99SpreadMs, double p99ObjectiveMs, @Nullable PgBouncerFigures pgbouncer, double serverP99Ms) {

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

	public static Cell of(List<Point> repeats, double p99ObjectiveMs) {
		List<Point> completed = repeats.stream().filter((point) -> Fate.of(point) != Fate.DIED).toList();
		// When every repeat died, the window before the death is all there is.
		List<Point> figures = completed.isEmpty() ? repeats : completed;
		double[] p99s = figures.stream().mapToDouble((point) -> point.latency().p99Ms()).toArray();
		double spreadMs = completed.isEmpty() ? 0
				: Arrays.stream(p99s).max().getAsDouble() - Arrays.stream(p99s).min().getAsDouble();
		return new Cell(List.copyOf(repeats), median(figures, (point) -> point.latency().p50Ms()),
				median(figures, (point) -> point.latency().p95Ms()),
				median(figures, (point) -> point.latency().p99Ms()),
				median(figures, (point) -> point.latency().p999Ms()),
				median(figures, (point) -> point.latency().maxMs()), median(figures, Point::achievedRps),
				median(figures, Point::throughputRps), repeats.stream().mapToLong(Point::samples).sum(),
				repeats.stream().mapToLong(Point::errors).sum(),
				median(figures, (point) -> point.pool().acquireP99Ms()),
				median(figures, (point) -> point.pool().usageMeanMs()),
				(int) Math.round(median(figures, (point) -> point.pool().peakPending())),
				(int) Math.round(median(figures, (point) -> point.pool().peakActive())),
				repeats.stream().mapToLong((point) -> point.pool().timeouts()).sum(),
				repeats.stream().mapToDouble(Point::startLagP99Ms).max().orElse(-1),
				median(figures, Point::loadGeneratorCpuCores), spreadMs, p99ObjectiveMs, pgbouncer(figures),
				serverP99Ms(figures));
	}

	/**
	 * The p99's 95 % interval: the window's own (a block bootstrap of its samples) for
	 * one repeat; for several, from the lowest repeat's lower bound to the highest
	 * repeat's upper bound, which holds every repeat's plausible values and so is wider
	 * than an interval of their median would be: a conservative choice, not a pooled
	 * estimate.
	 * @return empty when no repeat that ran to the end recorded one
	 */
	public Optional<Interval> p99Interval() {
		return envelope((point) -> point.latency().p99Interval());
	}

	/**
	 * The standard error of the cell's p99, for the decision. One repeat: its window's
	 * interval as if normal (width / 3.92). Several: the error of their mean, each repeat
	 * an estimate with its own sampling error and the repeats scattered by drift as well,
	 * so the larger of the mean sampling variance and the variance between the repeats'
	 * p99s, divided by their number (a random-effects estimate in its simplest form,
	 * written out because it is three lines). More repeats narrow it, where the envelope
	 * of {@link #p99Interval()} only widens.
	 * @return empty when a repeat that ran to the end recorded no interval
	 */
	public OptionalDouble p99StandardErrorMs() {
		List<Point> completed = this.points.stream().filter((point) -> Fate.of(point) != Fate.DIED).toList();
		if (completed.isEmpty() || completed.stream().anyMatch((point) -> point.latency().p99Interval() == null)) {
			return OptionalDouble.empty();
		}
		double sampling = completed.stream().mapToDouble((point) -> {
			Interval interval = Objects.requireNonNull(point.latency().p99Interval());
			double error = (interval.highMs() - interval.lowMs()) / (2 * Z95);
			return error * error;
		}).average().getAsDouble();
		int k = completed.size();
		double between = 0;
		if (k > 1) {
			double mean = completed.stream().mapToDouble((point) -> point.latency().p99Ms()).average().getAsDouble();
			between = completed.stream()
				.mapToDouble((point) -> (point.latency().p99Ms() - mean) * (point.latency().p99Ms() - mean))
				.sum() / (k - 1);
		}
		return OptionalDouble.of(Math.sqrt(Math.max(sampling, between) / k));
	}

	/**
	 * The p50's 95 % interval, as {@link #p99Interval()}.
	 * @return empty when no repeat that ran to the end recorded one
	 */
	public Optional<Interval> p50Interval() {
		return envelope((point) -> point.latency().p50Interval());
	}

	private Optional<Interval> envelope(Function<Point, Interval> interval) {
		List<Interval> intervals = this.points.stream()
			.filter((point) -> Fate.of(point) != Fate.DIED)
			.map(interval)
			.toList();
		if (intervals.isEmpty() || intervals.contains(null)) {
			return Optional.empty();
		}
		return Optional.of(new Interval(intervals.stream().mapToDouble(Interval::lowMs).min().getAsDouble(),
				intervals.stream().mapToDouble(Interval::highMs).max().getAsDouble()));
	}

	private static double serverP99Ms(List<Point> repeats) {
		List<Point> recorded = repeats.stream().filter((point) -> point.serverP99Ms() >= 0).toList();
		return recorded.isEmpty() ? -1 : median(recorded, Point::serverP99Ms);
	}

	private static @Nullable PgBouncerFigures pgbouncer(List<Point> repeats) {
		List<PgBouncerFacts> facts = repeats.stream().map(Point::pgbouncer).filter(Objects::nonNull).toList();
		return (facts.size() < repeats.size()) ? null
				: new PgBouncerFigures(facts.get(0).clientPoolSize(),
						(int) Math.round(median(facts, PgBouncerFacts::peakServerActive)),
						(int) Math.round(median(facts, PgBouncerFacts::peakClientsWaiting)),
						median(facts, PgBouncerFacts::maxWaitMs));
	}

	private static <T> double median(List<T> points, ToDoubleFunction<T> metric) {
		double[] values = points.stream().mapToDouble(metric).sorted().toArray();
		int middle = values.length / 2;
		return (values.length % 2 == 1) ? values[middle] : (values[middle - 1] + values[middle]) / 2;
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

	/** Every repeat proved its pool size (see {@link Point#verified()}). */
	public boolean verified() {
		return this.points.stream().allMatch(Point::verified);
	}

	/** The repeats whose instance died during the point. */
	public List<Point> deaths() {
		return this.points.stream().filter((point) -> Fate.of(point) == Fate.DIED).toList();
	}

	/**
	 * An instance died in at least one repeat: the pool size did not sustain the rate.
	 */
	public boolean died() {
		return !deaths().isEmpty();
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

	public double errorPercent() {
		return (this.samples != 0) ? 100.0 * this.errors / this.samples : 0;
	}

	public boolean achievedTheRate() {
		double scatter = this.points.stream().mapToDouble(Point::arrivalScatter).max().orElse(0);
		return this.achievedRps >= Math.min(MIN_ACHIEVED_SHARE, 1 - scatter) * rateRps();
	}

	/**
	 * Whether the cell's latency is understated: the load generator sent late (late
	 * starts past {@link LateStarts#LIMIT_MS}) or caught up (more than 105 % of the
	 * target sent). {@link CellText#latencyCaveat} says which, in words.
	 */
	public boolean understated() {
		return LateStarts.late(this.startLagP99Ms) || caughtUp();
	}

	/** More than 105 % of the target sent: the generator was catching up. */
	public boolean caughtUp() {
		return this.achievedRps > CATCH_UP_SHARE * rateRps();
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
	 * Repeats whose generator fell behind while the instances saw saturation
	 * ({@link #serverSaturated}): they enter a cell only as failures.
	 */
	public List<Point> saturatedBehindGenerator() {
		return this.points.stream().filter((point) -> Fate.of(point) == Fate.GENERATOR_BOUND).toList();
	}

	/**
	 * A rate carried with a p99 in the seconds is saturation, whatever the error count.
	 */
	public boolean metTheObjective() {
		return this.p99ObjectiveMs <= 0 || this.p99Ms <= this.p99ObjectiveMs;
	}

	/**
	 * Whether this cell carried its rate cleanly: no instance died, few enough errors,
	 * the rate achieved within the p99 objective, no request gave up waiting for a
	 * connection, and the pool proved it had the size the cell claims.
	 */
	public boolean sustained() {
		return !died() && verified() && this.timeouts == 0 && errorPercent() <= MAX_ERROR_PERCENT && achievedTheRate()
				&& metTheObjective() && saturatedBehindGenerator().isEmpty();
	}

	/**
	 * The measured mean connection hold: the median over the repeats that timed one.
	 */
	public OptionalDouble holdMeanMs() {
		return medianOf((point) -> point.pool().holdMeanMs());
	}

	/** The measured hold's p99: the median over the repeats that timed one. */
	public OptionalDouble holdP99Ms() {
		return medianOf((point) -> point.pool().holdP99Ms());
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
		double[] values = this.points.stream()
			.map(figure)
			.filter(Objects::nonNull)
			.mapToDouble(Double::doubleValue)
			.toArray();
		return (values.length == 0) ? OptionalDouble.empty()
				: OptionalDouble.of(new org.apache.commons.math3.stat.descriptive.rank.Median().evaluate(values));
	}

	public static Comparator<Cell> byPoolThenRate() {
		return Comparator.comparingInt(Cell::poolSize).thenComparingInt(Cell::rateRps);
	}

}
