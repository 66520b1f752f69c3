package org.poollab.bench.deploy;

import org.junit.jupiter.api.Test;

import org.poollab.bench.results.EmulatedHold;
import org.poollab.service.hold.HoldHistogram;
import org.poollab.service.hold.HoldPlace;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What each instance is told to emulate: a hold read from a histogram goes as the
 * histogram itself (its p99 is said by it), with the uses per request, seeded with the
 * instance's port.
 */
class HoldArgumentsTests {

	@Test
	void aMeasuredHistogramAndItsUsesGoToTheInstance() {
		HoldHistogram histogram = new HoldHistogram(new double[] { 2, 50 }, new double[] { 0.5, 1 }, 10);
		EmulatedHold hold = EmulatedHold.of(histogram, 2.5, HoldPlace.DATABASE, "bench.holdTimeFrom");
		assertThat(InstanceStart.holdArguments(hold, 18081)).containsExactly("--lab.hold.mean=10000us",
				"--lab.hold.place=database", "--lab.hold.seed=18081", "--lab.hold.histogram=2:0.5,50:1",
				"--lab.hold.uses=2.5");
	}

	@Test
	void aHandGivenHoldGoesAsItsMeanAndP99AndOneUse() {
		EmulatedHold hold = new EmulatedHold(10, 200.0, "application", "bench.holdTime");
		assertThat(InstanceStart.holdArguments(hold, 18082)).containsExactly("--lab.hold.mean=10000us",
				"--lab.hold.place=application", "--lab.hold.seed=18082", "--lab.hold.p99=200000us");
	}

}
