package org.poollab.bench.model;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

import org.jspecify.annotations.Nullable;

/**
 * The fleet planner: for every fleet size from one replica to the autoscaler's ceiling,
 * the rate each replica carries at the peak with one replica down, the pool range per
 * replica [the queue model's smallest pool that meets the objective at that rate, the
 * smaller of the budget's share and N* / replicas], and whether the range is empty;
 * beside it how many replicas the chosen pool allows and whether an external pooler is
 * the better answer (more connections at the fleet's largest size than the database's
 * peak concurrency N*).
 *
 * @param rows one per fleet size
 * @param maxReplicasAtChosen the most replicas the chosen pool allows with the surge, or
 * null when no pool was chosen
 * @param deadlockFloor the smallest pool that cannot deadlock
 * @param adviseExternalPooler whether the fleet's largest size at its smallest pools
 * holds more connections than N*
 */
public record FleetPlan(List<Row> rows, @Nullable Integer maxReplicasAtChosen, int deadlockFloor,
		boolean adviseExternalPooler) {

	/**
	 * One fleet size.
	 *
	 * @param replicas replicas running
	 * @param ratePerReplicaRps each replica's rate at the peak with one down
	 * @param modelMinimum the model's smallest pool meeting the objective at that rate
	 * (never below the deadlock floor), null when no pool up to the budget's share does
	 * @param budgetShare the budget per replica, surge included
	 * @param peakShare N* / replicas rounded down, null when the database showed no peak
	 * @param highest the range's top: the smaller of the budget share and the peak share
	 */
	public record Row(int replicas, double ratePerReplicaRps, @Nullable Integer modelMinimum, int budgetShare,
			@Nullable Integer peakShare, int highest) {

		/** Whether some pool size is both large enough and within the limits. */
		public boolean feasible() {
			return this.modelMinimum != null && this.modelMinimum <= this.highest;
		}

	}

	/**
	 * What the fleet is planned for.
	 *
	 * @param targetRps the fleet's peak
	 * @param maxReplicas the autoscaler's ceiling: the largest fleet size planned
	 * @param p99ObjectiveMs the objective every size's pool must meet
	 */
	public record Demand(int targetRps, int maxReplicas, double p99ObjectiveMs) {

	}

	/**
	 * @param fleet the database's limits and the surge
	 * @param model one instance's queue (its rate is replaced per fleet size)
	 * @param demand the peak, the ceiling and the objective
	 * @param peakConnections N*, infinite when the database showed no peak
	 * @param deadlockFloor Tn × (Cm − 1) + 1
	 * @param chosenPool the searched pool, if any
	 */
	public static FleetPlan of(Fleet fleet, QueueModel model, Demand demand, double peakConnections, int deadlockFloor,
			OptionalInt chosenPool) {
		List<Row> rows = new ArrayList<>();
		for (int replicas = 1; replicas <= demand.maxReplicas(); replicas++) {
			double rate = Fleet.ratePerReplica(demand.targetRps(), replicas);
			int share = fleet.budgetShare(replicas);
			Integer peakShare = Double.isInfinite(peakConnections) ? null
					: (int) Math.floor(peakConnections / replicas);
			int highest = (peakShare != null) ? Math.min(share, peakShare) : share;
			OptionalInt minimum = model.withArrivals(rate)
				.smallestPoolMeeting(demand.p99ObjectiveMs(), Math.max(1, share));
			Integer modelMinimum = minimum.isPresent() ? Math.max(deadlockFloor, minimum.getAsInt()) : null;
			rows.add(new Row(replicas, rate, modelMinimum, share, peakShare, highest));
		}
		Row largest = rows.get(rows.size() - 1);
		boolean pooler = !Double.isInfinite(peakConnections) && largest.modelMinimum() != null
				&& (long) demand.maxReplicas() * largest.modelMinimum() > peakConnections;
		return new FleetPlan(List.copyOf(rows),
				chosenPool.isPresent() ? fleet.maxReplicas(chosenPool.getAsInt()) : null, deadlockFloor, pooler);
	}

}
