package org.poollab.service.hold;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Optional;
import java.util.function.DoubleSupplier;

import org.apache.commons.math3.distribution.LogNormalDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.jspecify.annotations.Nullable;

/**
 * A connection hold to emulate: a mean alone (every request holds exactly that long), or
 * a mean and a p99, drawn per request from the lognormal distribution with that mean and
 * that 99th percentile. Lognormal because holds are positive and right-skewed, and two
 * numbers a team reads off {@code hikaricp_connections_usage_seconds} fix it: with z =
 * Φ⁻¹(0.99), mean = e^(μ + σ²/2) and p99 = e^(μ + zσ), so σ = z − √(z² − 2 ln(p99/mean))
 * (the root that tends to 0 as p99 nears the mean) and μ = ln(mean) − σ²/2. A real σ
 * needs p99/mean ≤ e^(z²/2) ≈ 14.97.
 *
 * @param meanMs the mean hold, milliseconds
 * @param p99Ms the 99th percentile, milliseconds; {@code null} for a constant hold
 */
public record HoldTime(double meanMs, @Nullable Double p99Ms) {

	/** Φ⁻¹(0.99), from commons-math3. */
	static final double Z99 = new NormalDistribution().inverseCumulativeProbability(0.99);

	/** The largest p99/mean a lognormal reaches: e^(z²/2). */
	public static final double MAX_P99_TO_MEAN = Math.exp(Z99 * Z99 / 2);

	/**
	 * The shortest mean hold: a thread's wait resolves tens of microseconds; pg_sleep
	 * wakes on whole milliseconds, so the services keep only its mean
	 * ({@link HoldPadding}).
	 */
	public static final Duration SHORTEST = Duration.ofNanos(100_000);

	/** The longest mean or p99: beyond any connection-timeout the lab runs with. */
	public static final Duration LONGEST = Duration.ofSeconds(60);

	/** What a hold setting accepts, for messages. */
	public static final String ALLOWED = "a mean from 0.1ms to 60s, or a mean and a p99 at least as long and at most "
			+ "14.9 times the mean, e.g. 10ms or 10ms,40ms";

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
			if (p99Ms / meanMs > MAX_P99_TO_MEAN) {
				return Optional.of("the p99 must be at most 14.9 times the mean (no lognormal has a wider one)");
			}
		}
		return Optional.empty();
	}

	/** Every request holds the mean. */
	public boolean constant() {
		return this.p99Ms == null || this.p99Ms.doubleValue() == this.meanMs;
	}

	/** σ of the lognormal, 0 for a constant hold. */
	public double sigma() {
		return (constant() || this.p99Ms == null) ? 0 : sigma(this.meanMs, this.p99Ms);
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
	 * Draws holds, milliseconds, from a generator seeded with {@code seed}: two samplers
	 * with one seed draw one sequence. Safe for concurrent requests (draws are
	 * serialized; which request gets which draw then depends on their order).
	 */
	public DoubleSupplier sampler(long seed) {
		if (constant()) {
			double mean = this.meanMs;
			return () -> mean;
		}
		double s = sigma();
		LogNormalDistribution lognormal = new LogNormalDistribution(new Well19937c(seed),
				Math.log(this.meanMs) - s * s / 2, s, LogNormalDistribution.DEFAULT_INVERSE_ABSOLUTE_ACCURACY);
		return () -> {
			synchronized (lognormal) {
				return lognormal.sample();
			}
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
