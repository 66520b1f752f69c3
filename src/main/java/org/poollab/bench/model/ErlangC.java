package org.poollab.bench.model;

/**
 * The M/M/c queue's probability of waiting (Erlang C) and, with the Allen–Cunneen
 * correction, a G/G/c queue's waiting time: a pool of {@code c} connections is {@code c}
 * servers, a request's connection hold is its service time, and the acquire wait is the
 * queue's wait. Written here because neither commons-math3 nor Hipparchus has queueing
 * formulas; it is the textbook recursion, checked against published values in
 * ErlangCTests.
 */
public final class ErlangC {

	private ErlangC() {
	}

	/**
	 * The probability that an arrival finds every server busy and waits, C(c, a).
	 * Computed through Erlang B's recursion B(k) = a B(k−1) / (k + a B(k−1)), then C = c
	 * B / (c − a (1 − B)): no factorial or power overflows for large pools.
	 * @param servers c, at least 1
	 * @param offeredErlangs a = arrival rate × mean service time, at least 0
	 * @return the probability, 1 when the queue is unstable (a ≥ c)
	 */
	public static double probabilityOfWaiting(int servers, double offeredErlangs) {
		if (servers < 1 || offeredErlangs < 0 || Double.isNaN(offeredErlangs)) {
			throw new IllegalArgumentException(
					"servers must be at least 1 and the offered load at least 0, not %d and %s".formatted(servers,
							offeredErlangs));
		}
		if (offeredErlangs >= servers) {
			return 1;
		}
		double blocking = 1;
		for (int k = 1; k <= servers; k++) {
			blocking = offeredErlangs * blocking / (k + offeredErlangs * blocking);
		}
		return servers * blocking / (servers - offeredErlangs * (1 - blocking));
	}

	/**
	 * The Allen–Cunneen factor (ca² + cs²) / 2 by which a G/G/c queue's wait differs from
	 * the M/M/c queue's (1 for Poisson arrivals and exponential service).
	 * @param arrivalCv2 squared coefficient of variation of the gaps between arrivals
	 * @param serviceCv2 squared coefficient of variation of the service (hold) time
	 */
	public static double allenCunneen(double arrivalCv2, double serviceCv2) {
		return (arrivalCv2 + serviceCv2) / 2;
	}

	/**
	 * The mean wait for a server: C(c, a) / (c μ − λ), times the Allen–Cunneen factor.
	 * @return seconds; infinite when the queue is unstable
	 */
	public static double meanWaitSeconds(int servers, double arrivalsPerSecond, double serviceSeconds,
			double arrivalCv2, double serviceCv2) {
		double offered = arrivalsPerSecond * serviceSeconds;
		if (offered >= servers) {
			return Double.POSITIVE_INFINITY;
		}
		double drainPerSecond = servers / serviceSeconds - arrivalsPerSecond;
		return probabilityOfWaiting(servers, offered) / drainPerSecond * allenCunneen(arrivalCv2, serviceCv2);
	}

	/**
	 * A quantile of the wait. In M/M/c the wait is 0 with probability 1 − C and
	 * exponential with rate c μ − λ otherwise, so P(W > t) = C e^−(cμ−λ)t and the
	 * q-quantile is ln(C / (1 − q)) / (c μ − λ), or 0 when C ≤ 1 − q. For G/G/c the
	 * exponential part is stretched by the Allen–Cunneen factor, the usual approximation
	 * that keeps the mean right.
	 * @param quantile e.g. 0.99
	 * @return seconds; infinite when the queue is unstable
	 */
	public static double waitQuantileSeconds(int servers, double arrivalsPerSecond, double serviceSeconds,
			double arrivalCv2, double serviceCv2, double quantile) {
		double offered = arrivalsPerSecond * serviceSeconds;
		if (offered >= servers) {
			return Double.POSITIVE_INFINITY;
		}
		double waiting = probabilityOfWaiting(servers, offered);
		double tail = 1 - quantile;
		if (waiting <= tail) {
			return 0;
		}
		double drainPerSecond = servers / serviceSeconds - arrivalsPerSecond;
		return Math.log(waiting / tail) / drainPerSecond * allenCunneen(arrivalCv2, serviceCv2);
	}

}
