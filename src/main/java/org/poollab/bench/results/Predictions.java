package org.poollab.bench.results;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

import org.apache.commons.math3.stat.descriptive.rank.Median;

import org.poollab.bench.model.QueueModel;
import org.poollab.bench.model.ResponseTime;
import org.poollab.service.hold.HoldTime;

/**
 * Puts the queueing model beside each measured point: {@link QueueModel} (Erlang C with
 * the Allen–Cunneen correction) given the point's own measured hold and achieved rate,
 * not the asked ones, and {@link ResponseTime} for the p99 of what a request costs
 * without waiting plus the wait. What no request waiting costs (the model's base) is
 * measured at the same deployment and rate with the pool whose p99 was lowest there (its
 * median over repeats): the largest pool is no base past the knee, where more connections
 * made every statement slower. A point without such a base, without a measured hold,
 * without a pool or behind pgbouncer (whose pool the model does not see) has no
 * prediction.
 */
public final class Predictions {

	/**
	 * The balancers that deal requests in turn: nginx's default upstream, the plan's own
	 * spreading, and a single instance's direct line. Any other (an external one) is
	 * taken as a random split.
	 */
	private static final Set<String> ROUND_ROBIN = Set.of("nginx", "client-round-robin", Point.NO_LOAD_BALANCER);

	/** A base point with more failed requests than this did not run without waiting. */
	private static final double BASE_MAX_ERROR_PERCENT = 0.1;

	private Predictions() {
	}

	/** The points, each with {@link Point#model()} from the points measured so far. */
	static List<Point> attached(List<Point> points) {
		return points.stream().map((point) -> point.withModel(predict(point, points).orElse(null))).toList();
	}

	static Optional<QueuePrediction> predict(Point point, List<Point> points) {
		Double holdMeanMs = point.pool().holdMeanMs();
		Double holdP99Ms = point.pool().holdP99Ms();
		if (point.poolSize() == SweepResults.NO_POOL || point.pgbouncer() != null || holdMeanMs == null
				|| !(holdMeanMs > 0) || !(point.achievedRps() > 0)) {
			return Optional.empty();
		}
		List<Point> atRate = points.stream()
			.filter((other) -> other.deployment().equals(point.deployment()) && other.rateRps() == point.rateRps()
					&& other.arrivals().equals(point.arrivals()) && other.poolSize() != SweepResults.NO_POOL
					&& other.ok())
			.toList();
		Map<Integer, List<Point>> basePools = atRate.stream()
			.filter((other) -> other.errorPercent() <= BASE_MAX_ERROR_PERCENT && other.samples() > 0)
			.collect(Collectors.groupingBy(Point::poolSize));
		Optional<Map.Entry<Integer, List<Point>>> base = basePools.entrySet()
			.stream()
			.min(Comparator
				.comparingDouble((Map.Entry<Integer, List<Point>> pool) -> median(pool.getValue(),
						(other) -> other.latency().p99Ms()))
				.thenComparing(Map.Entry::getKey));
		if (base.isEmpty()) {
			return Optional.empty();
		}
		double baseP99Ms = median(base.get().getValue(), (other) -> other.latency().p99Ms());
		double baseP50Ms = median(base.get().getValue(), (other) -> other.latency().p50Ms());
		// Each request takes the pool as many times as it uses a connection, each use a
		// hold of its own: the pool's arrivals are the requests' times their uses.
		EmulatedHold asked = point.limits().hold();
		double usesPerRequest = (asked != null) ? asked.usesPerRequest() : 1;
		double perInstanceRps = usesPerRequest * point.achievedRps() / point.instances();
		double holdCv2 = HoldTime.cv2Of(holdMeanMs, (holdP99Ms != null) ? holdP99Ms : holdMeanMs);
		double arrivalCv2 = QueueModel.arrivalCv2PerInstance("random".equals(point.arrivals()), point.instances(),
				ROUND_ROBIN.contains(point.loadBalancer()));
		QueueModel queue = new QueueModel(perInstanceRps, holdMeanMs, holdCv2, arrivalCv2, baseP99Ms);
		QueueModel.Prediction predicted = queue.predict(point.poolSize());
		boolean stable = predicted.stable();
		return Optional.of(new QueuePrediction(holdMeanMs, holdCv2, perInstanceRps, arrivalCv2, base.get().getKey(),
				baseP99Ms, predicted.utilisation(), stable ? predicted.waitMeanMs() : null,
				stable ? predicted.waitP99Ms() : null,
				stable ? new ResponseTime(baseP50Ms, baseP99Ms).p99Ms(predicted) : null));
	}

	private static double median(List<Point> points, ToDoubleFunction<Point> figure) {
		return new Median().evaluate(points.stream().mapToDouble(figure).toArray());
	}

}
