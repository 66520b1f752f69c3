package org.poollab.bench.load;

import java.util.Optional;

import org.poollab.bench.results.EngineLoad;
import org.poollab.bench.results.LateStarts;
import org.poollab.bench.results.Point;
import org.poollab.bench.text.Durations;

/**
 * Whether a window measured the service or the load generator. A generator that falls
 * behind its schedule sends late and in bursts: the wait before a late send is in no
 * latency figure, and the burst queues in the service's pool, so every figure of the
 * window (client latency, acquire time, pending) is the generator's doing. Such a point
 * is {@code generator-bound}: re-measured, and if it stays so, shown as such and left out
 * of every verdict, never counted as "not sustained".
 */
public final class GeneratorCheck {

	/** Outcome prefix of a point the generator could not hold. */
	static final String GENERATOR_BOUND = "generator-bound";

	/** How far the rate sent may be from the rate asked, as a fraction. */
	static final double RATE_TOLERANCE = 0.03;

	private GeneratorCheck() {
	}

	/**
	 * Judged in the lab's units, before the point is mapped to the team's time
	 * ({@link TeamTime}): the rate sent against the lab's rate, the team's ÷ k.
	 * @param point a window as the lab measured it, its {@code timeScale} set
	 * @return {@code generator-bound: ...} with the figures that show it, or empty when
	 * the generator held its schedule
	 */
	static Optional<String> verdict(Point point) {
		boolean late = LateStarts.late(point.startLagP99Ms());
		double askedRps = (double) point.rateRps() / point.timeScale();
		double offBy = Math.abs(point.achievedRps() - askedRps) / askedRps;
		boolean offRate = offBy > rateTolerance(point);
		if (!late && !offRate) {
			return Optional.empty();
		}
		StringBuilder why = new StringBuilder(GENERATOR_BOUND + ": JMeter ");
		if (late) {
			why.append("sent late (late starts p99 %.0f ms, limit %.0f ms)".formatted(point.startLagP99Ms(),
					LateStarts.LIMIT_MS));
		}
		if (offRate) {
			why.append(late ? " and " : "")
				.append("sent %.0f rps for %s (off by %.1f %%, limit %.1f %%)".formatted(point.achievedRps(),
						Durations.ms(askedRps), 100 * offBy, 100 * rateTolerance(point)));
			if (point.slowed()) {
				why.append(" in slow motion (k = ").append(point.timeScale()).append(')');
			}
		}
		if (!point.engines().isEmpty()) {
			why.append(" (remote engines: ").append(EngineLoad.describe(point.engines())).append(')');
		}
		return Optional.of(why.append("; its window measured the generator, not the service").toString());
	}

	/**
	 * Even arrivals send exactly the rate; random (Poisson) arrivals scatter the count of
	 * a window by its square root, so their tolerance is three standard deviations when
	 * that is wider.
	 */
	public static double rateTolerance(Point point) {
		return Math.max(RATE_TOLERANCE, point.arrivalScatter());
	}

	public static boolean generatorBound(Point point) {
		return point.outcome().startsWith(GENERATOR_BOUND);
	}

}
