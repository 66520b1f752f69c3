package org.poollab.bench.report;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.deciding.Confirmed;
import org.poollab.bench.model.Fleet;
import org.poollab.bench.model.FleetPlan;
import org.poollab.bench.model.QueueModel;
import org.poollab.bench.results.Confirmation;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.SloSearch;
import org.poollab.bench.results.SweepResults;
import org.poollab.service.hold.HoldTime;

/**
 * Everything the report, the yml and the console say about an SLO search, derived once
 * from its results: the fleet's arithmetic on the measured database, the fleet plan, the
 * confirmation of the answer, and, when the user gave their own hold time, the same model
 * re-derived for their workload.
 *
 * @param results the run's results
 * @param search the search
 * @param fleet the database's limits and the surge
 * @param plan the fleet plan; empty when there is no model
 * @param theirs the queue model with the user's hold time; empty when none was given or
 * there is no model
 */
record SloAnswer(SweepResults results, SloSearch search, Fleet fleet, Optional<FleetPlan> plan,
		Optional<QueueModel> theirs) {

	static SloAnswer of(SweepResults results) {
		SloSearch search = Objects.requireNonNull(results.slo(), "results without an SLO search");
		SloSearch.Asked asked = search.asked();
		Fleet fleet = new Fleet(results.database().maxConnections(), results.database().reservedConnections(),
				asked.otherConnections(), asked.surge());
		Optional<QueueModel> toy = Optional.ofNullable(search.model()).map(SloSearch.Model::queue);
		double peak = (search.scaling() != null) ? search.scaling().peakConnections() : Double.POSITIVE_INFINITY;
		OptionalInt chosen = (search.chosenPool() != null) ? OptionalInt.of(search.chosenPool()) : OptionalInt.empty();
		Double theirMeanMs = asked.holdMeanMs();
		Optional<QueueModel> theirs = (theirMeanMs == null) ? Optional.empty()
				: toy.map((model) -> theirModel(model, theirMeanMs, asked.holdP99Ms()));
		// With their hold time, their workload is what the plan is for.
		Optional<FleetPlan> plan = theirs.or(() -> toy)
			.map((model) -> FleetPlan.of(fleet, model,
					new FleetPlan.Demand(asked.targetRps(), asked.maxReplicas(), asked.p99ObjectiveMs()), peak,
					search.lowestPool(), theirs.isPresent() ? OptionalInt.empty() : chosen));
		return new SloAnswer(results, search, fleet, plan, theirs);
	}

	/**
	 * Their workload in the toy's queue: their mean hold; its variability from their p99
	 * if given (the lognormal through that mean and p99, {@link HoldTime#cv2Of}, the one
	 * home of that derivation), else exponential (cv² = 1); their requests' latency
	 * without a queue at least their hold's p99 (exponential: mean × ln 100).
	 */
	static QueueModel theirModel(QueueModel toy, double meanMs, @Nullable Double p99Ms) {
		double cv2 = 1;
		double holdP99Ms = meanMs * Math.log(100);
		if (p99Ms != null) {
			holdP99Ms = p99Ms;
			cv2 = HoldTime.cv2Of(meanMs, p99Ms);
		}
		// The toy's base p50 goes with its base p99; where their hold's p99 sets the
		// base,
		// its p50 is not known and the p99 is the base p99 plus the wait's.
		boolean toysBase = toy.baseP99Ms() >= holdP99Ms;
		return new QueueModel(toy.arrivalsPerSecond(), meanMs, cv2, toy.arrivalCv2(),
				toysBase ? toy.baseP99Ms() : holdP99Ms, toysBase ? toy.baseP50Ms() : null);
	}

	/**
	 * The confirmation of the answer, if one ran: the last (an earlier one refuted the
	 * answer before it, and is a step of the path).
	 */
	Optional<Confirmation> confirmation() {
		List<Confirmation> runs = this.results.confirmations();
		return runs.isEmpty() ? Optional.empty() : Optional.of(runs.get(runs.size() - 1));
	}

	/**
	 * What the confirmation showed, by the one judge of a confirmation window
	 * ({@link Confirmed#verdict}).
	 */
	Optional<Confirmed.Verdict> confirmed() {
		return confirmation().map((run) -> Confirmed.verdict(run, this.search.asked().p99ObjectiveMs()));
	}

	/** The slowest successful request in any window that met the objective. */
	OptionalDouble slowestMetMs() {
		return this.search.path()
			.stream()
			.filter(SloSearch.Probe::meets)
			.flatMap((probe) -> probe.repeats().stream())
			.mapToDouble((Point point) -> point.latency().maxMs())
			.max();
	}

	/**
	 * Their pool: the model's smallest for their hold at the rate a replica carries,
	 * never below the deadlock floor; empty without their hold time or when no pool
	 * within the budget's share meets the objective.
	 */
	OptionalInt theirPool() {
		if (this.theirs.isEmpty()) {
			return OptionalInt.empty();
		}
		int share = this.fleet.budgetShare(this.search.asked().replicas());
		OptionalInt smallest = this.theirs.get().smallestPoolMeeting(this.search.asked().p99ObjectiveMs(), share);
		return smallest.isPresent() ? OptionalInt.of(Math.max(this.search.lowestPool(), smallest.getAsInt()))
				: OptionalInt.empty();
	}

}
