package org.poollab.bench.results;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.poollab.bench.model.QueueModel;
import org.poollab.bench.model.ResponseTime;
import org.poollab.vendor.DatabaseVendor;
import org.poollab.service.hold.HoldTime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The model beside each point is given that point's measured hold and sent rate, and the
 * p50 and p99 of the pool with the lowest p99 at the same deployment and rate as its
 * base.
 */
class PredictionsTests {

	@Test
	void eachPointGetsTheModelOfItsOwnMeasuredHoldAndRate() {
		Point base = point(50, 600, 10.2, 10.9, 13.0);
		Point ten = point(10, 600, 10.1, 10.8, 14.0);
		Point five = point(5, 600, 10.1, 10.8, 2000.0);
		List<Point> withModels = Predictions.attached(List.of(base, ten, five));

		QueuePrediction atTen = withModels.get(1).model();
		assertThat(atTen).isNotNull();
		assertThat(atTen.basePoolSize()).isEqualTo(50);
		assertThat(atTen.baseP99Ms()).isEqualTo(13.0);
		assertThat(atTen.holdMeanMs()).isEqualTo(10.1);
		assertThat(atTen.arrivalCv2()).isEqualTo(1.0);
		assertThat(atTen.holdCv2()).isEqualTo(HoldTime.cv2Of(10.1, 10.8));
		QueueModel.Prediction expected = new QueueModel(600, 10.1, HoldTime.cv2Of(10.1, 10.8), 1, 13.0).predict(10);
		assertThat(atTen.utilisation()).isCloseTo(0.606, within(1e-9));
		assertThat(atTen.p99Ms()).isEqualTo(new ResponseTime(6.5, 13.0).p99Ms(expected))
			.isLessThan(expected.latencyP99Ms());

		QueuePrediction atFive = withModels.get(2).model();
		assertThat(atFive.utilisation()).isGreaterThan(1);
		assertThat(atFive.stable()).isFalse();
		assertThat(atFive.waitP99Ms()).isNull();
	}

	@Test
	void threeInstancesSplitTheRateAndPoissonArrivalsRoundRobin() {
		Point base = point(50, 600, 10, 11, 13).toBuilder().topology("multi").instances(3).build();
		Point two = point(2, 600, 10, 11, 900).toBuilder().topology("multi").instances(3).build();
		QueuePrediction model = Predictions.attached(List.of(base, two)).get(1).model();
		assertThat(model.arrivalsPerInstanceRps()).isEqualTo(200);
		assertThat(model.arrivalCv2()).isCloseTo(1.0 / 3, within(1e-12));
		assertThat(model.utilisation()).isCloseTo(1.0, within(1e-9));
		assertThat(model.stable()).isFalse();
	}

	/**
	 * A request that takes the pool 2.5 times offers it 2.5 holds: the model's arrivals
	 * are the rate times the uses.
	 */
	@Test
	void usesPerRequestMultiplyThePoolsArrivals() {
		Limits limits = new Limits(0, "512m", DatabaseVendor.POSTGRESQL, Stack.JDBC, RequestThreads.TOMCAT_DEFAULT)
			.withHold(new EmulatedHold(4, null, "database", "bench.holdTimeFrom").withUses(2.5));
		Point base = point(50, 400, 4, 5, 13).toBuilder().limits(limits).build();
		Point ten = point(10, 400, 4, 5, 20).toBuilder().limits(limits).build();
		QueuePrediction model = Predictions.attached(List.of(base, ten)).get(1).model();
		assertThat(model.arrivalsPerInstanceRps()).isEqualTo(1000);
		assertThat(model.utilisation()).isCloseTo(0.4, within(1e-9));
	}

	@Test
	void noModelWithoutAMeasuredHoldOrABaseAtThatRate() {
		Point unmeasured = point(5, 300, 10, 11, 12).toBuilder()
			.pool(new Pool(List.of(5), 1, 0, 0.1, 10, 0, 10, 1.0, null, null, null, null))
			.build();
		Point otherRate = point(50, 600, 10, 11, 12);
		Point failedBase = point(50, 300, 10, 11, 12).toBuilder().errors(500).build();
		assertThat(Predictions.attached(List.of(unmeasured, otherRate)).get(0).model()).isNull();
		Point failed = point(5, 300, 10, 11, 12).toBuilder().errors(500).build();
		assertThat(Predictions.attached(List.of(failed, failedBase)).get(0).model()).isNull();
	}

	@Test
	void aBalancerThatIsNotRoundRobinLeavesPoissonArrivalsPoisson() {
		Point base = point(50, 600, 10, 11, 13).toBuilder()
			.topology("multi")
			.instances(3)
			.loadBalancer("external")
			.build();
		Point two = point(2, 600, 10, 11, 900).toBuilder()
			.topology("multi")
			.instances(3)
			.loadBalancer("external")
			.build();
		assertThat(Predictions.attached(List.of(base, two)).get(1).model().arrivalCv2()).isEqualTo(1.0);
	}

	static Point point(int poolSize, int rateRps, double holdMeanMs, double holdP99Ms, double p99Ms) {
		return Point.builder()
			.topology("single")
			.poolSize(poolSize)
			.rateRps(rateRps)
			.arrivals("random")
			.durationSeconds(8)
			.achievedRps(rateRps)
			.samples(rateRps * 8L)
			.latency(new Latency(p99Ms / 2, p99Ms / 2, p99Ms, p99Ms, p99Ms, p99Ms, null, null))
			.pool(new Pool(List.of(poolSize), poolSize, 0, 0.1, holdMeanMs, 0, 16, 1.0, null, holdMeanMs, holdP99Ms,
					null))
			.build();
	}

}
