package org.poollab.bench.model;

import java.util.List;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer.Optimum;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.util.Pair;

/**
 * Neil Gunther's Universal Scalability Law for the database: throughput at N concurrent
 * active connections X(N) = λ N / (1 + α (N − 1) + β N (N − 1)), α the share of work that
 * serialises (contention), β the cost of keeping N workers coherent (crosstalk). Beyond
 * N* = √((1 − α) / β) more connections make the database slower, so N* is the fleet-wide
 * number of active connections worth having. Fitted by commons-math3's
 * Levenberg–Marquardt least squares.
 *
 * @param lambda throughput of one connection, per second
 * @param alpha contention, 0 to 1
 * @param beta coherency, at least 0
 */
public record Usl(double lambda, double alpha, double beta) {

	/**
	 * One measurement: throughput at a number of concurrent connections.
	 *
	 * @param connections N
	 * @param perSecond X(N)
	 */
	public record Sample(int connections, double perSecond) {
	}

	public double throughput(double connections) {
		return this.lambda * connections
				/ (1 + this.alpha * (connections - 1) + this.beta * connections * (connections - 1));
	}

	/**
	 * N*, the concurrency of the highest throughput.
	 * @return infinite when β is 0 (no retrograde region was measured)
	 */
	public double peakConnections() {
		return (this.beta > 0) ? Math.sqrt((1 - this.alpha) / this.beta) : Double.POSITIVE_INFINITY;
	}

	/**
	 * The least-squares fit through the samples, α and β held at 0 or above (a negative
	 * one has no meaning and only appears from noise).
	 * @param samples at least three distinct concurrencies
	 */
	public static Usl fit(List<Sample> samples) {
		RealVector fitted = optimum(samples).getPoint();
		return new Usl(fitted.getEntry(0), fitted.getEntry(1), fitted.getEntry(2));
	}

	/**
	 * N* where the measurement backs it, the one home of that judgement (the grid's
	 * contention table, the SLO search and the fleet planner all read it): the fit's β
	 * has a 95 % interval (least squares' covariance scaled by the residual variance,
	 * Student's t with n − 3 degrees of freedom, so four concurrencies or more) that
	 * excludes 0, α is below 1, and some concurrency above the best one delivered
	 * measurably less, by more than the 95 % interval of the difference of two Poisson
	 * counts, 1.96 √(x₁/T₁ + x₂/T₂). Otherwise no contention was measured: on a plateau a
	 * fit through noise finds a finite N* nearly every time.
	 * @param samples the measured throughputs
	 * @param seconds how long each sample counted, in the same order
	 * @return N*, infinite when no contention was measured
	 */
	public static double measuredPeak(List<Sample> samples, double[] seconds) {
		if (samples.stream().mapToInt(Sample::connections).distinct().count() < 4
				|| !throughputFell(samples, seconds)) {
			return Double.POSITIVE_INFINITY;
		}
		Optimum optimum;
		try {
			optimum = optimum(samples);
		}
		catch (RuntimeException ex) {
			// No convergence: no fit, so no N*.
			return Double.POSITIVE_INFINITY;
		}
		RealVector point = optimum.getPoint();
		int freedom = samples.size() - 3;
		double residualVariance = optimum.getCost() * optimum.getCost() / freedom;
		double betaError = Math.sqrt(residualVariance * optimum.getCovariances(1e-14).getEntry(2, 2));
		double betaLow = point.getEntry(2) - new TDistribution(freedom).inverseCumulativeProbability(0.975) * betaError;
		Usl fit = new Usl(point.getEntry(0), point.getEntry(1), point.getEntry(2));
		return (betaLow > 0 && fit.alpha() < 1) ? fit.peakConnections() : Double.POSITIVE_INFINITY;
	}

	/**
	 * Whether a concurrency above the one with the best throughput delivered measurably
	 * less (see {@link #measuredPeak}; two lines, so no library).
	 */
	public static boolean throughputFell(List<Sample> samples, double[] seconds) {
		int best = 0;
		for (int i = 1; i < samples.size(); i++) {
			if (samples.get(i).perSecond() > samples.get(best).perSecond()) {
				best = i;
			}
		}
		Sample top = samples.get(best);
		for (int i = 0; i < samples.size(); i++) {
			Sample other = samples.get(i);
			if (other.connections() > top.connections() && top.perSecond() - other.perSecond() > 1.96
					* Math.sqrt(top.perSecond() / seconds[best] + other.perSecond() / seconds[i])) {
				return true;
			}
		}
		return false;
	}

	private static Optimum optimum(List<Sample> samples) {
		if (samples.stream().mapToInt(Sample::connections).distinct().count() < 3) {
			throw new IllegalArgumentException("fitting three parameters needs at least three concurrencies, not "
					+ samples.stream().map(Sample::connections).toList());
		}
		double[] n = samples.stream().mapToDouble(Sample::connections).toArray();
		double[] x = samples.stream().mapToDouble(Sample::perSecond).toArray();
		double firstGuess = samples.stream()
			.mapToDouble((sample) -> sample.perSecond() / sample.connections())
			.max()
			.orElseThrow();
		MultivariateJacobianFunction model = (point) -> {
			double lambda = point.getEntry(0);
			double alpha = point.getEntry(1);
			double beta = point.getEntry(2);
			RealVector value = new ArrayRealVector(n.length);
			Array2DRowRealMatrix jacobian = new Array2DRowRealMatrix(n.length, 3);
			for (int i = 0; i < n.length; i++) {
				double d = 1 + alpha * (n[i] - 1) + beta * n[i] * (n[i] - 1);
				value.setEntry(i, lambda * n[i] / d);
				jacobian.setEntry(i, 0, n[i] / d);
				jacobian.setEntry(i, 1, -lambda * n[i] * (n[i] - 1) / (d * d));
				jacobian.setEntry(i, 2, -lambda * n[i] * n[i] * (n[i] - 1) / (d * d));
			}
			return new Pair<>(value, jacobian);
		};
		return new LevenbergMarquardtOptimizer().optimize(new LeastSquaresBuilder().model(model)
			.target(x)
			.start(new double[] { firstGuess, 0.01, 0.0001 })
			.parameterValidator((point) -> {
				RealVector valid = point.copy();
				valid.setEntry(1, Math.min(1, Math.max(0, point.getEntry(1))));
				valid.setEntry(2, Math.max(0, point.getEntry(2)));
				return valid;
			})
			.maxEvaluations(10_000)
			.maxIterations(10_000)
			.build());
	}

}
