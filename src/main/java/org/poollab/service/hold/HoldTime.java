package org.poollab.service.hold;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Optional;
import java.util.function.DoubleSupplier;

import org.apache.commons.math3.distribution.LogNormalDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.jspecify.annotations.Nullable;

/**
 * A connection hold to emulate: a mean alone (every request holds exactly that long), or
 * a mean and a p99, drawn per request from the lognormal distribution with that mean and
 * that 99th percentile. Lognormal because holds are positive and right-skewed, and two
 * numbers a team reads off {@code hikaricp_connections_usage_seconds} fix it: with z =
 * Φ⁻¹(0.99), mean = e^(μ + σ²/2) and p99 = e^(μ + zσ), so σ = z − √(z² − 2 ln(p99/mean))
 * (the root that tends to 0 as p99 nears the mean) and μ = ln(mean) − σ²/2. A real σ
 * needs p99/mean ≤ e^(z²/2) ≈ 14.97.
 * <p>
 * A wider p99, common in real services (a rare slow query, a lock, a cold cache), is a
 * two-part mixture instead: 2 % of holds are slow, drawn evenly from 0.8 to 1.2 times the
 * p99 (so the p99 falls in the middle of them), the other 98 % from a lognormal body with
 * σ = 1 and whatever mean is left: (mean − 0.02 p99) / 0.98. It gives the mean exactly
 * and the p99 within half a percent, and puts almost no hold beyond 1.2 times the p99,
 * where two numbers say nothing (the body's own tail: about 1 in 60,000 at 20 times the
 * mean). A body needs a mean, so the p99 can be at most {@link #MAX_MIXTURE_P99_TO_MEAN}
 * times the mean (no positive hold has one beyond 100: at least 1 % of holds reach it). A
 * measured histogram ({@link HoldHistogram}) says the shape itself and needs neither.
 *
 * @param meanMs the mean hold, milliseconds
 * @param p99Ms the 99th percentile, milliseconds; {@code null} for a constant hold
 */
public record HoldTime(double meanMs, @Nullable Double p99Ms) {

	/** Φ⁻¹(0.99), from commons-math3. */
	static final double Z99 = new NormalDistribution().inverseCumulativeProbability(0.99);

	/** The largest p99/mean a lognormal reaches: e^(z²/2). */
	public static final double MAX_P99_TO_MEAN = Math.exp(Z99 * Z99 / 2);

	/** The largest p99/mean of the mixture: its body keeps a tenth of the mean. */
	public static final double MAX_MIXTURE_P99_TO_MEAN = 45;

	/** The mixture's share of slow holds. */
	static final double SLOW_SHARE = 0.02;

	/** The mixture's slow holds lie from this much below the p99 to this much above. */
	static final double SLOW_SPREAD = 0.2;

	/** The mixture body's σ: a moderate skew, its own p99 6.2 times its mean. */
	static final double BODY_SIGMA = 1;

	/**
	 * The shortest mean hold: a thread's wait resolves tens of microseconds; pg_sleep
	 * wakes on whole milliseconds, so the JDBC service waits the last of every hold on
	 * the thread ({@link HoldPadding#databaseSleepNanos(long)}).
	 */
	public static final Duration SHORTEST = Duration.ofNanos(100_000);

	/** The longest mean or p99: beyond any connection-timeout the lab runs with. */
	public static final Duration LONGEST = Duration.ofSeconds(60);

	/** What a hold setting accepts, for messages. */
	public static final String ALLOWED = "a mean from 0.1ms to 60s, or a mean and a p99 at least as long and at most "
			+ "45 times the mean, e.g. 10ms or 10ms,40ms";

	public HoldTime {
		problem(meanMs, p99Ms).ifPresent((why) -> {
			throw new IllegalArgumentException(why);
		});
	}

	public static HoldTime of(Duration mean, @Nullable Duration p99) {
		return new HoldTime(millis(mean), (p99 != null) ? millis(p99) : null);
	}

	/**
	 * What is wrong with a hold, in words, or empty when it is allowed.
	 */
	public static Optional<String> problem(double meanMs, @Nullable Double p99Ms) {
		if (!(meanMs >= millis(SHORTEST)) || meanMs > millis(LONGEST)) {
			return Optional.of("the mean hold must be from 0.1ms to 60s");
		}
		if (p99Ms != null) {
			if (!(p99Ms >= meanMs)) {
				return Optional.of("the p99 must be at least the mean");
			}
			if (p99Ms > millis(LONGEST)) {
				return Optional.of("the p99 must be at most 60s");
			}
			if (p99Ms / meanMs > MAX_MIXTURE_P99_TO_MEAN) {
				return Optional.of("the p99 must be at most 45 times the mean (beyond it nearly every hold would be"
						+ " near 0: at least 1 % of holds reach the p99, so it is never beyond 100 times the mean)");
			}
		}
		return Optional.empty();
	}

	/** Every request holds the mean. */
	public boolean constant() {
		return this.p99Ms == null || this.p99Ms.doubleValue() == this.meanMs;
	}

	/**
	 * Whether the p99 is beyond every lognormal's, so that holds are drawn from the
	 * two-part mixture.
	 */
	public boolean mixture() {
		return this.p99Ms != null && this.p99Ms / this.meanMs > MAX_P99_TO_MEAN;
	}

	/**
	 * σ of the lognormal, 0 for a constant hold; the widest lognormal's for a mixture.
	 */
	public double sigma() {
		return (constant() || this.p99Ms == null) ? 0
				: sigma(this.meanMs, Math.min(this.p99Ms, this.meanMs * MAX_P99_TO_MEAN));
	}

	/**
	 * The squared coefficient of variation, e^σ² − 1: 0 for a constant hold, what the
	 * queueing model's Allen–Cunneen factor takes.
	 */
	public double cv2() {
		return Math.expm1(sigma() * sigma());
	}

	/**
	 * The squared coefficient of variation of the lognormal through a measured mean and
	 * p99: 0 when the p99 is not above the mean, and at a p99 beyond
	 * {@link #MAX_P99_TO_MEAN} times the mean, the widest lognormal's.
	 */
	public static double cv2Of(double meanMs, double p99Ms) {
		if (!(meanMs > 0) || !(p99Ms > meanMs)) {
			return 0;
		}
		double s = sigma(meanMs, Math.min(p99Ms, meanMs * MAX_P99_TO_MEAN));
		return Math.expm1(s * s);
	}

	private static double sigma(double meanMs, double p99Ms) {
		double ratio = Math.log(p99Ms / meanMs);
		return Z99 - Math.sqrt(Math.max(0, Z99 * Z99 - 2 * ratio));
	}

	/**
	 * Draws holds, milliseconds, by the inverse distribution from stratified uniform
	 * numbers seeded with {@code seed} ({@link StratifiedUniform}: every 100 draws hold
	 * each percentile once): two samplers with one seed draw one sequence. Safe for
	 * concurrent requests (draws are serialized; which request gets which draw then
	 * depends on their order).
	 */
	public DoubleSupplier sampler(long seed) {
		if (constant()) {
			double mean = this.meanMs;
			return () -> mean;
		}
		StratifiedUniform uniform = new StratifiedUniform(seed);
		if (mixture()) {
			return mixtureSampler(uniform);
		}
		double s = sigma();
		LogNormalDistribution lognormal = new LogNormalDistribution(Math.log(this.meanMs) - s * s / 2, s,
				LogNormalDistribution.DEFAULT_INVERSE_ABSOLUTE_ACCURACY);
		return () -> lognormal.inverseCumulativeProbability(uniform.getAsDouble());
	}

	/**
	 * The mixture by its inverse distribution: the lowest {@link #SLOW_SHARE} of the
	 * uniform numbers are the slow holds, spread evenly over their range, the rest the
	 * body's quantiles.
	 */
	private DoubleSupplier mixtureSampler(StratifiedUniform uniform) {
		double p99 = (this.p99Ms != null) ? this.p99Ms : this.meanMs;
		double bodyMeanMs = (this.meanMs - SLOW_SHARE * p99) / (1 - SLOW_SHARE);
		LogNormalDistribution body = new LogNormalDistribution(Math.log(bodyMeanMs) - BODY_SIGMA * BODY_SIGMA / 2,
				BODY_SIGMA, LogNormalDistribution.DEFAULT_INVERSE_ABSOLUTE_ACCURACY);
		return () -> {
			double u = uniform.getAsDouble();
			return (u < SLOW_SHARE) ? p99 * (1 - SLOW_SPREAD + 2 * SLOW_SPREAD * u / SLOW_SHARE)
					: body.inverseCumulativeProbability((u - SLOW_SHARE) / (1 - SLOW_SHARE));
		};
	}

	/**
	 * As settings write it: {@code 10ms} or {@code 10ms,40ms}; a hold read from metrics
	 * to a hundredth of a millisecond ({@code 14.89ms}).
	 */
	public String describe() {
		return format(this.meanMs) + ((this.p99Ms != null) ? "," + format(this.p99Ms) : "");
	}

	private static String format(double ms) {
		return BigDecimal.valueOf(ms).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString() + "ms";
	}

	private static double millis(Duration duration) {
		return duration.toNanos() / 1e6;
	}

}
