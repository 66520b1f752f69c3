package org.poollab.service.hold;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleSupplier;

/**
 * A hold's distribution as a team's histogram measured it ({@code lab.hold.histogram}):
 * the share of holds at or below each bucket's upper bound, as Prometheus's cumulative
 * {@code _bucket{le=...}} counts give it. Holds are drawn by the inverse of that
 * cumulative distribution: a uniform draw picks its bucket, and the hold lies within the
 * bucket in proportion, linearly from the bucket's lower bound (0 for the first) to its
 * upper one, as Prometheus's {@code histogram_quantile} interpolates. Holds beyond the
 * last finite bound (the {@code +Inf} bucket, whose width nothing says) are drawn at that
 * bound, as {@code histogram_quantile} answers for them. Every draw is then scaled so
 * that the draws' mean is the measured mean ({@code _sum / _count}, exact where the
 * buckets only bound each hold): the scale is {@link #scale()}, near 1 for a fine
 * histogram.
 * <p>
 * Hand-rolled rather than commons-math3's {@code EmpiricalDistribution}, which fits
 * kernels to raw samples; here only the buckets exist. The table is built once; a draw is
 * a binary search over it.
 */
public final class HoldHistogram {

	/** What {@code lab.hold.histogram} accepts, for messages. */
	public static final String ALLOWED = "bucket upper bounds in milliseconds with the share of holds at or below each, "
			+ "rising, e.g. 1:0.2,5:0.9,20:1";

	private final double[] upperMs;

	private final double[] cumulative;

	private final double meanMs;

	private final double scale;

	/**
	 * @param upperMs the finite buckets' upper bounds, milliseconds, rising
	 * @param cumulative the share of holds at or below each bound, not falling, the last
	 * at most 1 (the rest lie beyond it)
	 * @param meanMs the measured mean the draws are scaled to
	 */
	public HoldHistogram(double[] upperMs, double[] cumulative, double meanMs) {
		if (upperMs.length == 0 || upperMs.length != cumulative.length) {
			throw new IllegalArgumentException("a histogram needs at least one bucket, each with a share");
		}
		for (int i = 0; i < upperMs.length; i++) {
			double lower = (i == 0) ? 0 : upperMs[i - 1];
			double below = (i == 0) ? 0 : cumulative[i - 1];
			if (!(upperMs[i] > lower) || !(cumulative[i] >= below) || cumulative[i] > 1 + 1e-9) {
				throw new IllegalArgumentException(
						"the buckets' bounds must rise and their shares must not fall nor pass 1");
			}
		}
		if (!(cumulative[cumulative.length - 1] > 0) || !(meanMs > 0)) {
			throw new IllegalArgumentException("a histogram needs holds in it and a mean above 0");
		}
		this.upperMs = upperMs.clone();
		this.cumulative = cumulative.clone();
		this.meanMs = meanMs;
		this.scale = meanMs / unscaledMeanMs();
	}

	/**
	 * From its written form, {@code upperMs:share} pairs joined by commas.
	 * @throws IllegalArgumentException when it is not one
	 */
	public static HoldHistogram parse(String written, double meanMs) {
		String[] pairs = written.split(",");
		double[] upper = new double[pairs.length];
		double[] cumulative = new double[pairs.length];
		for (int i = 0; i < pairs.length; i++) {
			String[] pair = pairs[i].trim().split(":");
			if (pair.length != 2) {
				throw new IllegalArgumentException("each bucket is upperMs:share");
			}
			try {
				upper[i] = Double.parseDouble(pair[0]);
				cumulative[i] = Double.parseDouble(pair[1]);
			}
			catch (NumberFormatException ex) {
				throw new IllegalArgumentException("each bucket is upperMs:share, two numbers");
			}
		}
		return new HoldHistogram(upper, cumulative, meanMs);
	}

	/**
	 * From cumulative bucket counts (Prometheus's {@code le} bounds in seconds, the
	 * {@code +Inf} one included), the buckets that add nothing at the top dropped.
	 * @param countsByUpperSeconds cumulative counts by upper bound, rising
	 * @param meanMs the measured mean
	 */
	public static HoldHistogram ofCounts(java.util.NavigableMap<Double, Double> countsByUpperSeconds, double meanMs) {
		double total = countsByUpperSeconds.lastEntry().getValue();
		List<double[]> rows = new ArrayList<>();
		for (var bucket : countsByUpperSeconds.entrySet()) {
			if (Double.isInfinite(bucket.getKey())) {
				continue;
			}
			rows.add(new double[] { bucket.getKey() * 1000, Math.min(1, bucket.getValue() / total) });
		}
		// Keep the table short: the first bucket that reaches everything ends it.
		int last = rows.size() - 1;
		while (last > 0 && rows.get(last - 1)[1] >= rows.get(last)[1]) {
			last--;
		}
		int first = 0;
		while (first < last && rows.get(first)[1] <= 0 && rows.get(first + 1)[1] <= 0) {
			first++;
		}
		// Empty buckets at the bottom are kept as one: the first non-empty one's lower
		// bound stays where the histogram put it.
		List<double[]> kept = rows.subList(first, last + 1);
		if (kept.isEmpty()) {
			throw new IllegalArgumentException("a histogram needs a finite bucket");
		}
		double[] upper = new double[kept.size()];
		double[] cumulative = new double[kept.size()];
		for (int i = 0; i < kept.size(); i++) {
			upper[i] = kept.get(i)[0];
			cumulative[i] = kept.get(i)[1];
		}
		return new HoldHistogram(upper, cumulative, meanMs);
	}

	/**
	 * The same distribution with every hold {@code factor} times as long: each bucket's
	 * bound and the mean stretched, the shares as they were (slow motion).
	 */
	public HoldHistogram scaled(double factor) {
		if (!(factor > 0)) {
			throw new IllegalArgumentException("a histogram is stretched by a factor above 0, not " + factor);
		}
		double[] upper = new double[this.upperMs.length];
		for (int i = 0; i < upper.length; i++) {
			upper[i] = this.upperMs[i] * factor;
		}
		return new HoldHistogram(upper, this.cumulative, this.meanMs * factor);
	}

	/** As {@code lab.hold.histogram} writes it: {@link #parse(String, double)}'s form. */
	public String written() {
		StringBuilder written = new StringBuilder();
		for (int i = 0; i < this.upperMs.length; i++) {
			if (i > 0) {
				written.append(',');
			}
			written.append(number(this.upperMs[i])).append(':').append(number(this.cumulative[i]));
		}
		return written.toString();
	}

	private static String number(double value) {
		String text = String.format(Locale.ROOT, "%.6g", value);
		return text.contains("e") ? text : text.replaceAll("\\.?0+$", "");
	}

	/** The measured mean the draws are scaled to, milliseconds. */
	public double meanMs() {
		return this.meanMs;
	}

	/**
	 * The factor every interpolated hold is multiplied by so that their mean is
	 * {@link #meanMs()}.
	 */
	public double scale() {
		return this.scale;
	}

	/** The hold at cumulative share {@code p}, scaled, milliseconds. */
	public double quantileMs(double p) {
		return this.scale * unscaledQuantileMs(p);
	}

	/** The longest hold drawn: the highest bucket with holds in it, scaled. */
	public double maxMs() {
		return this.scale * this.upperMs[this.upperMs.length - 1];
	}

	/**
	 * Draws holds, milliseconds, from stratified uniform numbers seeded with {@code seed}
	 * ({@link StratifiedUniform}: every 100 draws hold each percentile once): one seed,
	 * one sequence. Safe for concurrent requests (draws are serialized).
	 */
	public DoubleSupplier sampler(long seed) {
		StratifiedUniform uniform = new StratifiedUniform(seed);
		return () -> quantileMs(uniform.getAsDouble());
	}

	private double unscaledQuantileMs(double p) {
		int last = this.cumulative.length - 1;
		if (p >= this.cumulative[last]) {
			return this.upperMs[last];
		}
		// The first bucket whose cumulative share passes p: p lies within it.
		int index = Arrays.binarySearch(this.cumulative, p);
		index = (index >= 0) ? index : -index - 1;
		while (index < last && this.cumulative[index] <= p) {
			index++;
		}
		double lower = (index == 0) ? 0 : this.upperMs[index - 1];
		double below = (index == 0) ? 0 : this.cumulative[index - 1];
		double share = this.cumulative[index] - below;
		return lower + (this.upperMs[index] - lower) * ((share > 0) ? (p - below) / share : 0);
	}

	/**
	 * The interpolated draws' mean: each bucket's middle, the +Inf share at the last
	 * bound.
	 */
	private double unscaledMeanMs() {
		double mean = 0;
		double below = 0;
		double lower = 0;
		for (int i = 0; i < this.upperMs.length; i++) {
			mean += (this.cumulative[i] - below) * (lower + this.upperMs[i]) / 2;
			below = this.cumulative[i];
			lower = this.upperMs[i];
		}
		return mean + (1 - below) * lower;
	}

}
