package org.poollab.bench.model;

import java.util.List;

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
		Optimum optimum = new LevenbergMarquardtOptimizer().optimize(new LeastSquaresBuilder().model(model)
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
		RealVector fitted = optimum.getPoint();
		return new Usl(fitted.getEntry(0), fitted.getEntry(1), fitted.getEntry(2));
	}

}
