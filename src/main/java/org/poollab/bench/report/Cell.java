package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;

import org.poollab.bench.SweepResults.Point;

/**
 * One grid cell (topology, pool size, rate) with its repeats folded together. Figures are
 * medians across repeats, so one noisy repeat cannot move the verdict; errors and
 * timeouts are summed instead, because a single failing repeat is enough to say the cell
 * did not sustain its rate.
 */
record Cell(String topology, int instances, String loadBalancer, int poolSize, int rateRps, List<Integer> repeats,
		double p50Ms, double p95Ms, double p99Ms, double p999Ms, double maxMs, double achievedRps, long samples,
		long errors, double acquireP99Ms, double usageMeanMs, int peakPending, int peakActive, long timeouts,
		boolean verified, double p99ObjectiveMs, PgBouncerFigures pgbouncer) {

	/**
	 * pgbouncer's figures of a pgbouncer-topology cell (medians across repeats).
	 *
	 * @param clientPoolSize every instance's HikariCP pool size
	 * @param peakServerActive most connections to PostgreSQL busy at once
	 * @param peakClientsWaiting most clients waiting for a server connection at once
	 * @param maxWaitMs longest wait pgbouncer reported
	 */
	record PgBouncerFigures(int clientPoolSize, int peakServerActive, int peakClientsWaiting, double maxWaitMs) {
	}

	/** Highest error share that still counts as sustained. */
	static final double MAX_ERROR_PERCENT = 0.1;

	/** Lowest share of the target rate that still counts as sustained. */
	static final double MIN_ACHIEVED_SHARE = 0.95;

	static Cell of(List<Point> repeats, double p99ObjectiveMs) {
		Point first = repeats.get(0);
		List<Integer> repeatNumbers = repeats.stream().map(Point::repeat).sorted().toList();
		long samples = repeats.stream().mapToLong(Point::samples).sum();
		long errors = repeats.stream().mapToLong(Point::errors).sum();
		long timeouts = repeats.stream().mapToLong((point) -> point.pool().timeouts()).sum();
		boolean verified = repeats.stream().allMatch(Point::verified);
		return new Cell(first.topology(), first.instances(), first.loadBalancer(), first.poolSize(), first.rateRps(),
				repeatNumbers, median(repeats, (point) -> point.latency().p50Ms()),
				median(repeats, (point) -> point.latency().p95Ms()),
				median(repeats, (point) -> point.latency().p99Ms()),
				median(repeats, (point) -> point.latency().p999Ms()),
				median(repeats, (point) -> point.latency().maxMs()), median(repeats, Point::achievedRps), samples,
				errors, median(repeats, (point) -> point.pool().acquireP99Ms()),
				median(repeats, (point) -> point.pool().usageMeanMs()),
				(int) Math.round(median(repeats, (point) -> point.pool().peakPending())),
				(int) Math.round(median(repeats, (point) -> point.pool().peakActive())), timeouts, verified,
				p99ObjectiveMs, pgbouncer(repeats));
	}

	private static PgBouncerFigures pgbouncer(List<Point> repeats) {
		if (repeats.stream().anyMatch((point) -> point.pgbouncer() == null)) {
			return null;
		}
		return new PgBouncerFigures(repeats.get(0).pgbouncer().clientPoolSize(),
				(int) Math.round(median(repeats, (point) -> point.pgbouncer().peakServerActive())),
				(int) Math.round(median(repeats, (point) -> point.pgbouncer().peakClientsWaiting())),
				median(repeats, (point) -> point.pgbouncer().maxWaitMs()));
	}

	/** {@code none} for no pool, else the pool size. */
	String poolLabel() {
		return org.poollab.bench.SweepResults.poolLabel(this.poolSize);
	}

	boolean pooled() {
		return this.poolSize != org.poollab.bench.SweepResults.NO_POOL;
	}

	private static double median(List<Point> points, ToDoubleFunction<Point> metric) {
		double[] values = points.stream().mapToDouble(metric).sorted().toArray();
		int middle = values.length / 2;
		return (values.length % 2 == 1) ? values[middle] : (values[middle - 1] + values[middle]) / 2;
	}

	double errorPercent() {
		return (this.samples != 0) ? 100.0 * this.errors / this.samples : 0;
	}

	boolean achievedTheRate() {
		return this.achievedRps >= MIN_ACHIEVED_SHARE * this.rateRps;
	}

	/**
	 * A rate carried with a p99 in the seconds is saturation, whatever the error count.
	 */
	boolean metTheObjective() {
		return this.p99ObjectiveMs <= 0 || this.p99Ms <= this.p99ObjectiveMs;
	}

	/**
	 * Whether this cell carried its rate cleanly: few enough errors, the rate achieved
	 * within the p99 objective, no request gave up waiting for a connection, and the pool
	 * proved it had the size the cell claims.
	 */
	boolean sustained() {
		return this.verified && this.timeouts == 0 && errorPercent() <= MAX_ERROR_PERCENT && achievedTheRate()
				&& metTheObjective();
	}

	/** Why the cell did not sustain its rate, for the tables; empty when it did. */
	String shortfall() {
		List<String> reasons = new ArrayList<>();
		if (!this.verified) {
			reasons.add("pool not verified");
		}
		if (this.timeouts > 0) {
			reasons.add(this.timeouts + " pool timeouts");
		}
		if (errorPercent() > MAX_ERROR_PERCENT) {
			reasons.add(String.format(Locale.ROOT, "%.2f %% errors", errorPercent()));
		}
		if (!metTheObjective()) {
			reasons.add(String.format(Locale.ROOT, "p99 %.0f ms above the %.0f ms objective", this.p99Ms,
					this.p99ObjectiveMs));
		}
		if (!achievedTheRate()) {
			reasons.add(String.format(Locale.ROOT, "achieved %.0f of %d rps", this.achievedRps, this.rateRps));
		}
		return String.join(", ", reasons);
	}

	static Comparator<Cell> byPoolThenRate() {
		return Comparator.comparingInt(Cell::poolSize).thenComparingInt(Cell::rateRps);
	}

	static int[] distinct(List<Cell> cells, ToIntFunction<Cell> key) {
		return Arrays.stream(cells.stream().mapToInt(key).toArray()).distinct().sorted().toArray();
	}

}
