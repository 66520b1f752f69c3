package org.poollab.bench.results;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import org.apache.commons.math3.stat.descriptive.rank.Median;

import org.poollab.bench.model.QueueModel;
import org.poollab.service.hold.HoldTime;

/**
 * Puts the queueing model beside each measured point: {@link QueueModel} (Erlang C with
 * the Allen–Cunneen correction) given the point's own measured hold and achieved rate,
 * not the asked ones. What no request waiting costs (the model's base p99) is the p99
 * measured at the same deployment and rate with the largest pool the sweep measured there
 * (its median over repeats), where no request waited; a point without such a base,
 * without a measured hold, without a pool or behind pgbouncer (whose pool the model does
 * not see) has no prediction.
 */
public final class Predictions {

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
		Optional<Integer> largest = atRate.stream().map(Point::poolSize).max(Comparator.naturalOrder());
		if (largest.isEmpty()) {
			return Optional.empty();
		}
		double[] baseP99s = atRate.stream()
			.filter((other) -> other.poolSize() == largest.get() && other.errorPercent() <= BASE_MAX_ERROR_PERCENT
					&& other.samples() > 0)
			.mapToDouble((other) -> other.latency().p99Ms())
			.toArray();
		if (baseP99s.length == 0) {
			return Optional.empty();
		}
		double baseP99Ms = new Median().evaluate(baseP99s);
		// Each request takes the pool as many times as it uses a connection, each use a
		// hold of its own: the pool's arrivals are the requests' times their uses.
		EmulatedHold asked = point.limits().hold();
		double usesPerRequest = (asked != null) ? asked.usesPerRequest() : 1;
		double perInstanceRps = usesPerRequest * point.achievedRps() / point.instances();
		double holdCv2 = HoldTime.cv2Of(holdMeanMs, (holdP99Ms != null) ? holdP99Ms : holdMeanMs);
		// Poisson arrivals dealt round robin: each instance gets every k-th arrival,
		// whose
		// gaps are Erlang-k (squared coefficient of variation 1/k); even arrivals stay
		// even.
		double arrivalCv2 = "random".equals(point.arrivals()) ? 1.0 / point.instances() : 0;
		QueueModel.Prediction predicted = new QueueModel(perInstanceRps, holdMeanMs, holdCv2, arrivalCv2, baseP99Ms)
			.predict(point.poolSize());
		boolean stable = predicted.stable();
		return Optional.of(new QueuePrediction(holdMeanMs, holdCv2, perInstanceRps, arrivalCv2, largest.get(),
				baseP99Ms, predicted.utilisation(), stable ? predicted.waitMeanMs() : null,
				stable ? predicted.waitP99Ms() : null, stable ? predicted.latencyP99Ms() : null));
	}

}
