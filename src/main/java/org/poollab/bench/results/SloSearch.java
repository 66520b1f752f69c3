package org.poollab.bench.results;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.model.Fleet;
import org.poollab.bench.model.QueueModel;
import org.poollab.bench.model.Usl;

/**
 * An SLO search ({@code bench.targetRps}): the question asked, the path the search took
 * through pool sizes with what each measured, its answer or why there is none, the queue
 * model that seeded it and the database's scalability. The confirmation run of the answer
 * is the results' confirmation.
 *
 * @param asked the question
 * @param rateRps the rate one instance was measured at: the peak over the replicas with
 * one down
 * @param lowestPool the smallest pool the search could answer (the deadlock floor)
 * @param highestPool the largest it could (the budget's share per replica, at most
 * {@code Question.LARGEST_SEARCHED_POOL})
 * @param path every pool size measured, in order
 * @param chosenPool the smallest pool that met the objective, null when none could
 * @param exact whether every smaller pool is known to fail (false when the probe budget
 * ran out first)
 * @param conclusion the answer or the reason there is none, in a sentence
 * @param model the queue model of one instance at this rate, null when it could not be
 * fitted
 * @param scaling the database's own scaling, null when it was not measured
 */
public record SloSearch(Asked asked, int rateRps, int lowestPool, int highestPool, List<Probe> path,
		@Nullable Integer chosenPool, boolean exact, String conclusion, @Nullable Model model,
		@Nullable Scaling scaling) {

	/**
	 * The question as the user asked it.
	 *
	 * @param surge extra replicas during a rolling deploy
	 * @param holdMeanMs their own hold time, if given
	 * @param holdP99Ms its p99, if given
	 */
	public record Asked(int targetRps, int replicas, int maxReplicas, Fleet.Surge surge, int otherConnections,
			int connectionsPerRequest, double p99ObjectiveMs, @Nullable Double holdMeanMs, @Nullable Double holdP99Ms) {
	}

	/**
	 * One pool size measured.
	 *
	 * @param poolSize the size
	 * @param meets whether it met the objective: every repeat sustained the rate and the
	 * p99's upper 95 % bound is within the objective
	 * @param p99Ms the median repeat's p99
	 * @param p99Interval the envelope of the repeats' 95 % intervals, if recorded
	 * @param verdict why it met the objective or not, in words
	 * @param repeats the windows measured
	 */
	public record Probe(int poolSize, boolean meets, double p99Ms, @Nullable Interval p99Interval, String verdict,
			List<Point> repeats) {
	}

	/**
	 * The queue model and where its hold time came from.
	 *
	 * @param queue the model at the measured rate
	 * @param holdSource where the hold time was measured
	 */
	public record Model(QueueModel queue, String holdSource) {
	}

	/**
	 * The database driven alone with the service's statement.
	 *
	 * @param samples transactions per second at each concurrency
	 * @param usl the Universal Scalability Law fitted through them
	 * @param holdMeanMs mean transaction time at one connection
	 * @param holdCv2 its squared coefficient of variation
	 */
	public record Scaling(List<Usl.Sample> samples, Usl usl, double holdMeanMs, double holdCv2) {

		/** How long each concurrency is counted. */
		public static final Duration WINDOW = Duration.ofSeconds(3);

		/**
		 * N* where the measurement backs it ({@link Usl#measuredPeak}), the figure the
		 * report and the fleet planner use.
		 * @return infinite when no contention was measured
		 */
		public double peakConnections() {
			double[] seconds = new double[this.samples.size()];
			Arrays.fill(seconds, WINDOW.toMillis() / 1000.0);
			return Usl.measuredPeak(this.samples, seconds);
		}

	}

}
