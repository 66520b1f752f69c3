package org.poollab.bench.deciding;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.jspecify.annotations.Nullable;

import org.poollab.bench.results.Interval;
import org.poollab.bench.results.PgBouncerFacts;
import org.poollab.bench.results.Point;

/**
 * How a cell's repeats fold into its figures. Figures are medians across the repeats that
 * ran to the end of their window, so one noisy repeat cannot move a verdict; when every
 * repeat died, the window up to the death is all there is, and the figures are those.
 * Counts (requests, errors, timeouts) are summed over every repeat, the late-start p99 is
 * the worst repeat's, and a 95 % interval is the envelope of the repeats' own.
 */
final class CellFold {

	private final List<Point> repeats;

	/** The repeats that ran to the end of their window. */
	private final List<Point> completed;

	/** The repeats the medians are taken over. */
	private final List<Point> figures;

	CellFold(List<Point> repeats) {
		this.repeats = repeats;
		this.completed = repeats.stream().filter((point) -> Fate.of(point) != Fate.DIED).toList();
		this.figures = this.completed.isEmpty() ? repeats : this.completed;
	}

	Cell.Latency latency() {
		double[] p99s = this.completed.stream().mapToDouble((point) -> point.latency().p99Ms()).toArray();
		double spreadMs = (p99s.length > 0)
				? Arrays.stream(p99s).max().getAsDouble() - Arrays.stream(p99s).min().getAsDouble() : 0;
		List<Point> serverRecorded = this.figures.stream().filter((point) -> point.serverP99Ms() >= 0).toList();
		return new Cell.Latency(median(this.figures, (point) -> point.latency().p50Ms()),
				median(this.figures, (point) -> point.latency().p95Ms()),
				median(this.figures, (point) -> point.latency().p99Ms()),
				median(this.figures, (point) -> point.latency().p999Ms()),
				median(this.figures, (point) -> point.latency().maxMs()), spreadMs,
				serverRecorded.isEmpty() ? -1 : median(serverRecorded, Point::serverP99Ms),
				envelope((point) -> point.latency().p50Interval()), envelope((point) -> point.latency().p99Interval()),
				p99StandardErrorMs());
	}

	Cell.Requests requests() {
		return new Cell.Requests(median(this.figures, Point::achievedRps), median(this.figures, Point::throughputRps),
				this.repeats.stream().mapToLong(Point::samples).sum(),
				this.repeats.stream().mapToLong(Point::errors).sum());
	}

	Cell.Pool pool() {
		return new Cell.Pool(median(this.figures, (point) -> point.pool().acquireP99Ms()),
				median(this.figures, (point) -> point.pool().usageMeanMs()),
				(int) Math.round(median(this.figures, (point) -> point.pool().peakPending())),
				(int) Math.round(median(this.figures, (point) -> point.pool().peakActive())),
				this.repeats.stream().mapToLong((point) -> point.pool().timeouts()).sum(),
				medianOf(this.repeats, (point) -> point.pool().holdMeanMs()),
				medianOf(this.repeats, (point) -> point.pool().holdP99Ms()));
	}

	Cell.Generator generator() {
		return new Cell.Generator(this.repeats.stream().mapToDouble(Point::startLagP99Ms).max().orElse(-1),
				median(this.figures, Point::loadGeneratorCpuCores));
	}

	/** pgbouncer's figures when every repeat has pgbouncer's facts; null otherwise. */
	Cell.@Nullable PgBouncerFigures pgbouncer() {
		List<PgBouncerFacts> facts = this.figures.stream().map(Point::pgbouncer).filter(Objects::nonNull).toList();
		return (facts.size() < this.figures.size()) ? null
				: new Cell.PgBouncerFigures(facts.get(0).clientPoolSize(),
						(int) Math.round(median(facts, PgBouncerFacts::peakServerActive)),
						(int) Math.round(median(facts, PgBouncerFacts::peakClientsWaiting)),
						median(facts, PgBouncerFacts::maxWaitMs));
	}

	/**
	 * From the lowest repeat's lower bound to the highest repeat's upper bound, which
	 * holds every repeat's plausible values and so is wider than an interval of their
	 * median would be: a conservative choice, not a pooled estimate. Empty when a repeat
	 * that ran to the end recorded none, or none ran to the end.
	 */
	private Optional<Interval> envelope(Function<Point, @Nullable Interval> interval) {
		List<@Nullable Interval> intervals = this.completed.stream().map(interval).toList();
		if (intervals.isEmpty() || intervals.contains(null)) {
			return Optional.empty();
		}
		List<Interval> recorded = intervals.stream().map(Objects::requireNonNull).toList();
		return Optional.of(new Interval(recorded.stream().mapToDouble(Interval::lowMs).min().getAsDouble(),
				recorded.stream().mapToDouble(Interval::highMs).max().getAsDouble()));
	}

	/**
	 * One repeat: its window's interval as if normal (width / 3.92). Several: the error
	 * of their mean, each repeat an estimate with its own sampling error and the repeats
	 * scattered by drift as well, so the larger of the mean sampling variance and the
	 * variance between the repeats' p99s, divided by their number (a random-effects
	 * estimate in its simplest form, written out because it is three lines).
	 */
	private OptionalDouble p99StandardErrorMs() {
		if (this.completed.isEmpty()
				|| this.completed.stream().anyMatch((point) -> point.latency().p99Interval() == null)) {
			return OptionalDouble.empty();
		}
		double sampling = this.completed.stream().mapToDouble((point) -> {
			Interval interval = Objects.requireNonNull(point.latency().p99Interval());
			double error = (interval.highMs() - interval.lowMs()) / (2 * Cell.Z95);
			return error * error;
		}).average().getAsDouble();
		int k = this.completed.size();
		double between = 0;
		if (k > 1) {
			double mean = this.completed.stream()
				.mapToDouble((point) -> point.latency().p99Ms())
				.average()
				.getAsDouble();
			between = this.completed.stream()
				.mapToDouble((point) -> (point.latency().p99Ms() - mean) * (point.latency().p99Ms() - mean))
				.sum() / (k - 1);
		}
		return OptionalDouble.of(Math.sqrt(Math.max(sampling, between) / k));
	}

	private static <T> double median(List<T> points, ToDoubleFunction<T> metric) {
		double[] values = points.stream().mapToDouble(metric).sorted().toArray();
		int middle = values.length / 2;
		return (values.length % 2 == 1) ? values[middle] : (values[middle - 1] + values[middle]) / 2;
	}

	/** The median over the points that have the figure (null where not). */
	static OptionalDouble medianOf(List<Point> points, Function<Point, @Nullable Double> figure) {
		double[] values = points.stream()
			.map(figure)
			.filter(Objects::nonNull)
			.mapToDouble(Double::doubleValue)
			.toArray();
		return (values.length == 0) ? OptionalDouble.empty() : OptionalDouble.of(new Median().evaluate(values));
	}

}
