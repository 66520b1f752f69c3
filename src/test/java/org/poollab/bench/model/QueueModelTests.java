package org.poollab.bench.model;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

class QueueModelTests {

	// 750 requests/s holding 4 ms each: 3 connections busy on average.
	private final QueueModel model = new QueueModel(750, 4, 1, 1, 5);

	@Test
	void busyConnectionsAreLittlesLaw() {
		assertThat(this.model.busyConnections()).isCloseTo(3.0, within(1e-12));
	}

	@Test
	void aPoolAtOrBelowTheBusyConnectionsIsUnstable() {
		assertThat(this.model.predict(3).stable()).isFalse();
		assertThat(this.model.predict(3).latencyP99Ms()).isInfinite();
		assertThat(this.model.predict(4).stable()).isTrue();
	}

	@Test
	void predictedP99FallsWithThePoolToTheBase() {
		double previous = Double.POSITIVE_INFINITY;
		for (int pool = 4; pool <= 20; pool++) {
			double p99 = this.model.predict(pool).latencyP99Ms();
			assertThat(p99).isLessThanOrEqualTo(previous).isGreaterThanOrEqualTo(5);
			previous = p99;
		}
		assertThat(this.model.predict(20).latencyP99Ms()).isEqualTo(5);
	}

	@Test
	void smallestPoolIsTheFirstWhosePredictionMeetsTheObjective() {
		int smallest = this.model.smallestPoolMeeting(20, 100).getAsInt();
		assertThat(this.model.predict(smallest).latencyP99Ms()).isLessThanOrEqualTo(20);
		assertThat(this.model.predict(smallest - 1).latencyP99Ms()).isGreaterThan(20);
		assertThat(this.model.smallestPoolMeeting(4.9, 100)).isEmpty();
	}

	@Test
	void aLongerHoldNeedsALargerPool() {
		int toy = this.model.smallestPoolMeeting(50, 500).getAsInt();
		int theirs = this.model.withHold(40, 1).smallestPoolMeeting(50, 500).getAsInt();
		// 750/s x 40 ms = 30 busy connections: more than 30 are needed.
		assertThat(theirs).isGreaterThan(30).isGreaterThan(toy);
	}

	@Test
	void refusesANonsenseQueue() {
		assertThatIllegalArgumentException().isThrownBy(() -> new QueueModel(0, 4, 1, 1, 5));
		assertThatIllegalArgumentException().isThrownBy(() -> new QueueModel(10, Double.NaN, 1, 1, 5));
	}

	@Test
	void withItsBaseP50TheQueuePredictsTheResponseTimesP99() {
		QueueModel withP50 = new QueueModel(750, 4, 1, 1, 5, 2.0);
		for (int pool = 4; pool <= 8; pool++) {
			QueueModel.Prediction added = this.model.predict(pool);
			QueueModel.Prediction summed = withP50.predict(pool);
			assertThat(summed.latencyP99Ms()).as("pool %d", pool)
				.isEqualTo(new ResponseTime(2.0, 5).p99Ms(added))
				.isLessThan(added.latencyP99Ms());
			assertThat(summed.waitP99Ms()).isEqualTo(added.waitP99Ms());
		}
		assertThat(withP50.predict(3).latencyP99Ms()).isInfinite();
		assertThat(withP50.withArrivals(500).baseP50Ms()).isEqualTo(2.0);
		assertThat(withP50.withHold(3, 1).baseP50Ms()).isEqualTo(2.0);
		assertThatIllegalArgumentException().isThrownBy(() -> new QueueModel(10, 4, 1, 1, 5, -1.0));
	}

	@Test
	void aQueueWrittenWithoutItsBaseP50ReadsAsOneThatAddsTheP99s() {
		JsonMapper json = JsonMapper.builder().build();
		QueueModel older = json.readValue(
				"{\"arrivalsPerSecond\":750,\"holdMeanMs\":4,\"holdCv2\":1,\"arrivalCv2\":1,\"baseP99Ms\":5}",
				QueueModel.class);
		assertThat(older).isEqualTo(this.model);
		assertThat(older.baseP50Ms()).isNull();
		assertThat(older.predict(5).latencyP99Ms()).isEqualTo(5 + older.predict(5).waitP99Ms());

		QueueModel withP50 = new QueueModel(750, 4, 1, 1, 5, 2.0);
		assertThat(json.readValue(json.writeValueAsString(withP50), QueueModel.class)).isEqualTo(withP50);
	}

}
