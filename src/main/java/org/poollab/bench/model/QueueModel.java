package org.poollab.bench.model;

import java.util.Arrays;
import java.util.OptionalInt;

import org.jspecify.annotations.Nullable;

/**
 * One instance's pool as a G/G/c queue: requests arrive at {@code arrivalsPerSecond},
 * each holds a connection for {@code holdMeanMs} on average, and a request that finds
 * every connection busy waits. It predicts, for any pool size, the acquire wait and the
 * p99 a client sees, so the lab can say what happens between and beyond the pool sizes it
 * measured, and seed its search.
 *
 * @param arrivalsPerSecond requests per second reaching this instance
 * @param holdMeanMs mean connection hold per request, milliseconds
 * @param holdCv2 squared coefficient of variation of the hold (1: exponential)
 * @param arrivalCv2 squared coefficient of variation of the gaps between arrivals (1:
 * Poisson, 0: evenly spaced)
 * @param baseP99Ms the p99 a client sees when no request waits for a connection (measured
 * with a pool large enough that none did)
 * @param baseP50Ms the p50 there: with it the p99 a client sees is {@link ResponseTime}'s
 * (the p99 of the sum of a request's own time and its wait); null where it is not known
 * (results written before it was recorded, a queue built without it), where the p99 is
 * the base p99 plus the wait's p99, an upper estimate
 */
public record QueueModel(double arrivalsPerSecond, double holdMeanMs, double holdCv2, double arrivalCv2,
		double baseP99Ms, @Nullable Double baseP50Ms) {

	/** The quantile predicted and compared with the objective. */
	public static final double P99 = 0.99;

	public QueueModel {
		if (!(arrivalsPerSecond > 0) || !(holdMeanMs > 0) || !(holdCv2 >= 0) || !(arrivalCv2 >= 0) || !(baseP99Ms >= 0)
				|| (baseP50Ms != null && !(baseP50Ms >= 0))) {
			throw new IllegalArgumentException(
					"a queue needs a positive rate and hold and non-negative variabilities and base p99 and p50, not %s"
						.formatted(Arrays.asList(arrivalsPerSecond, holdMeanMs, holdCv2, arrivalCv2, baseP99Ms,
								baseP50Ms)));
		}
	}

	/**
	 * A queue whose base p50 is not known: its p99 is the base p99 plus the wait's p99.
	 */
	public QueueModel(double arrivalsPerSecond, double holdMeanMs, double holdCv2, double arrivalCv2,
			double baseP99Ms) {
		this(arrivalsPerSecond, holdMeanMs, holdCv2, arrivalCv2, baseP99Ms, null);
	}

	/**
	 * What the model predicts at one pool size.
	 *
	 * @param poolSize connections
	 * @param utilisation the share of the pool's connections busy on average, λ × hold /
	 * c (at or above 1 the queue grows without bound)
	 * @param probabilityOfWaiting the share of requests that wait for a connection
	 * @param waitMeanMs mean acquire wait
	 * @param waitP99Ms p99 of the acquire wait
	 * @param latencyP99Ms the p99 a client sees: {@link ResponseTime}'s p99 of the sum of
	 * a request's own time and its wait when the base p50 is known, else the base p99
	 * plus the wait's p99, an upper estimate (the p99 of a sum is at most the sum of the
	 * p99s when both rise together, as they do when the pool is the bottleneck)
	 */
	public record Prediction(int poolSize, double utilisation, double probabilityOfWaiting, double waitMeanMs,
			double waitP99Ms, double latencyP99Ms) {

		public boolean stable() {
			return this.utilisation < 1;
		}

	}

	/** Connections busy on average (Little's law): λ × hold. */
	public double busyConnections() {
		return this.arrivalsPerSecond * this.holdMeanMs / 1000;
	}

	public Prediction predict(int poolSize) {
		double holdSeconds = this.holdMeanMs / 1000;
		double offered = busyConnections();
		double waitMeanMs = 1000
				* ErlangC.meanWaitSeconds(poolSize, this.arrivalsPerSecond, holdSeconds, this.arrivalCv2, this.holdCv2);
		double waitP99Ms = 1000 * ErlangC.waitQuantileSeconds(poolSize, this.arrivalsPerSecond, holdSeconds,
				this.arrivalCv2, this.holdCv2, P99);
		Prediction waiting = new Prediction(poolSize, offered / poolSize,
				ErlangC.probabilityOfWaiting(poolSize, offered), waitMeanMs, waitP99Ms, this.baseP99Ms + waitP99Ms);
		if (this.baseP50Ms == null || !waiting.stable()) {
			return waiting;
		}
		return new Prediction(poolSize, waiting.utilisation(), waiting.probabilityOfWaiting(), waitMeanMs, waitP99Ms,
				new ResponseTime(this.baseP50Ms, this.baseP99Ms).p99Ms(waiting));
	}

	/**
	 * The model's smallest pool: the first size from 1 whose predicted p99 meets the
	 * objective.
	 * @param largestPoolSize where to stop looking
	 * @return empty when none up to {@code largestPoolSize} does
	 */
	public OptionalInt smallestPoolMeeting(double p99ObjectiveMs, int largestPoolSize) {
		for (int pool = 1; pool <= largestPoolSize; pool++) {
			if (predict(pool).latencyP99Ms() <= p99ObjectiveMs) {
				return OptionalInt.of(pool);
			}
		}
		return OptionalInt.empty();
	}

	/**
	 * The squared coefficient of variation of the gaps between one instance's arrivals.
	 * Dealt in turn (round robin), each instance gets every k-th arrival: Poisson gaps
	 * become Erlang-k (1/k) and even gaps stay even (0). Split at random (a balancer that
	 * is not round robin), Poisson arrivals stay Poisson (1) and even ones arrive after a
	 * geometric number of gaps (1 − 1/k).
	 * @param poisson whether the generator sent Poisson arrivals (else evenly spaced)
	 * @param instances instances sharing the arrivals
	 * @param roundRobin whether the balancer deals them in turn
	 */
	public static double arrivalCv2PerInstance(boolean poisson, int instances, boolean roundRobin) {
		int k = Math.max(1, instances);
		if (roundRobin) {
			return poisson ? 1.0 / k : 0;
		}
		return poisson ? 1 : 1 - 1.0 / k;
	}

	/**
	 * The same queue with another hold time: what a user's own transactions would need at
	 * this rate ({@code bench.holdTime}).
	 */
	public QueueModel withHold(double meanMs, double cv2) {
		return new QueueModel(this.arrivalsPerSecond, meanMs, cv2, this.arrivalCv2, this.baseP99Ms, this.baseP50Ms);
	}

	/** The same queue at another rate (another number of replicas sharing the peak). */
	public QueueModel withArrivals(double perSecond) {
		return new QueueModel(perSecond, this.holdMeanMs, this.holdCv2, this.arrivalCv2, this.baseP99Ms,
				this.baseP50Ms);
	}

}
