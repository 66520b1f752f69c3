package org.poollab.bench.model;

import org.apache.commons.math3.analysis.UnivariateFunction;
import org.apache.commons.math3.analysis.integration.IterativeLegendreGaussIntegrator;
import org.apache.commons.math3.analysis.solvers.BrentSolver;
import org.apache.commons.math3.distribution.LogNormalDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.exception.MathIllegalStateException;

/**
 * A response time's quantile as the sum of what a request costs when it does not wait (B,
 * lognormal through the p50 and p99 measured where no request waited) and the acquire
 * wait (W: 0 with probability 1 − C, else exponential with the mean Erlang C and the
 * Allen–Cunneen correction give, the same approximation {@link ErlangC} makes). The p99
 * of B + W lies between B's p99 and B's p99 plus W's p99: adding the two p99s overstates
 * it (ResponseTimeTests compares both with the exact M/M/c response time). P(B + W &gt;
 * t) = P(B &gt; t) + C ∫₀ᵗ f_B(b) e^{−(t − b)/m} db is integrated and solved with
 * commons-math3 (Legendre–Gauss, Brent); only that formula is written here. The integral
 * runs only where both factors matter (B's density above its 1e−12 quantiles, the wait's
 * factor above e^−50), so a narrow B or a short wait is no spike the integrator cannot
 * resolve; should commons-math3 still give up, the p99 is the sum of the two p99s (the
 * cruder estimate this replaces), rather than no report.
 *
 * @param baseP50Ms B's median
 * @param baseP99Ms B's p99
 */
public record ResponseTime(double baseP50Ms, double baseP99Ms) {

	private static final double Z99 = new NormalDistribution().inverseCumulativeProbability(QueueModel.P99);

	private static final int MOST_EVALUATIONS = 100_000;

	/** B's mass beyond this quantile on either side is left out of the integral. */
	private static final double TAIL_IGNORED = 1e-12;

	/** Waits longer than this many mean waits are left out (e^−50). */
	private static final double WAIT_MEANS_IGNORED = 50;

	/**
	 * The response time's p99 at one pool size.
	 * @param wait the queue's prediction there (its probability of waiting and mean wait)
	 * @return milliseconds; infinite when the queue is unstable
	 */
	public double p99Ms(QueueModel.Prediction wait) {
		if (!wait.stable()) {
			return Double.POSITIVE_INFINITY;
		}
		double waiting = wait.probabilityOfWaiting();
		if (!(waiting > 0) || !(wait.waitMeanMs() > 0)) {
			return this.baseP99Ms;
		}
		// The wait of a request that waits: exponential with this mean.
		double waitedMeanMs = wait.waitMeanMs() / waiting;
		if (!(this.baseP50Ms > 0) || this.baseP50Ms >= this.baseP99Ms) {
			// No spread to fit: B is the constant p99, and the sum's quantile is exact.
			return this.baseP99Ms + wait.waitP99Ms();
		}
		double shape = Math.log(this.baseP99Ms / this.baseP50Ms) / Z99;
		LogNormalDistribution base = new LogNormalDistribution(Math.log(this.baseP50Ms), shape);
		double tail = 1 - QueueModel.P99;
		UnivariateFunction exceeds = (t) -> survival(base, waiting, waitedMeanMs, t) - tail;
		double high = this.baseP99Ms + wait.waitP99Ms() + waitedMeanMs;
		try {
			while (exceeds.value(high) > 0) {
				high *= 2;
			}
			return new BrentSolver(1e-6).solve(MOST_EVALUATIONS, exceeds, this.baseP99Ms, high);
		}
		catch (MathIllegalStateException ex) {
			return this.baseP99Ms + wait.waitP99Ms();
		}
	}

	private static double survival(LogNormalDistribution base, double waiting, double waitedMeanMs, double t) {
		if (t <= 0) {
			return 1;
		}
		double low = base.inverseCumulativeProbability(TAIL_IGNORED);
		if (t <= low) {
			return 1 - base.cumulativeProbability(t) + waiting * base.cumulativeProbability(t);
		}
		// Below t − 50 means the wait's factor is under e^−50; above B's 1 − 1e−12
		// quantile
		// its density is: neither adds to a 1 % tail.
		double from = Math.max(low, t - WAIT_MEANS_IGNORED * waitedMeanMs);
		double to = Math.min(t, base.inverseCumulativeProbability(1 - TAIL_IGNORED));
		if (from >= to) {
			return 1 - base.cumulativeProbability(t);
		}
		UnivariateFunction integrand = (b) -> base.density(b) * Math.exp(-(t - b) / waitedMeanMs);
		double waitedPast = new IterativeLegendreGaussIntegrator(16, 1e-7, 1e-12).integrate(MOST_EVALUATIONS, integrand,
				from, to);
		return 1 - base.cumulativeProbability(t) + waiting * waitedPast;
	}

}
