package org.poollab.bench.results;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What the queueing model (Erlang C with the Allen–Cunneen correction) predicts for a
 * point from what was measured there: its instances' measured hold and rate, beside the
 * p99 the point measured. Figures of a queue that grows without bound (utilisation at or
 * above 1) are null: the model predicts no steady state there.
 *
 * @param holdMeanMs the measured mean hold the model was given
 * @param holdCv2 the hold's squared coefficient of variation, of the lognormal through
 * the measured mean and p99
 * @param arrivalsPerInstanceRps the achieved rate over the instances (round robin), times
 * the connection uses per request ({@link EmulatedHold#usesPerRequest()}): the pool's
 * arrivals
 * @param arrivalCv2 the gaps' squared coefficient of variation at one instance: 0 for
 * even arrivals, 1/instances for Poisson arrivals dealt round robin (every k-th gap of a
 * Poisson stream is Erlang-k)
 * @param basePoolSize the pool whose measured p99 stands for "no request waits": the
 * largest measured at this deployment and rate
 * @param baseP99Ms that p99
 * @param utilisation λ × hold / pool
 * @param waitMeanMs the predicted mean acquire wait
 * @param waitP99Ms the predicted p99 of the acquire wait
 * @param p99Ms the predicted p99 a client sees: of the sum of a request's own time and
 * its wait (the model's ResponseTime)
 */
public record QueuePrediction(double holdMeanMs, double holdCv2, double arrivalsPerInstanceRps, double arrivalCv2,
		int basePoolSize, double baseP99Ms, double utilisation, @Nullable Double waitMeanMs, @Nullable Double waitP99Ms,
		@Nullable Double p99Ms) {

	/** Whether the model has a steady state here. */
	public boolean stable() {
		return this.p99Ms != null;
	}

	/**
	 * The predicted p99 where the model has a steady state; asked only of a stable one.
	 */
	public double stableP99Ms() {
		return Objects.requireNonNull(this.p99Ms, "no steady state, no p99");
	}

}
