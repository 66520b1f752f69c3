package org.poollab.bench.load;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.poollab.bench.results.Capacity;

import static org.assertj.core.api.Assertions.assertThat;

class SlowMotionTests {

	@Test
	void theSmallestFactorThatKeepsTheGridAtHalfTheCapacity() {
		assertThat(SlowMotion.needed(800, 400)).hasValue(1);
		assertThat(SlowMotion.needed(799, 400)).hasValue(2);
		assertThat(SlowMotion.needed(400, 400)).hasValue(2);
		assertThat(SlowMotion.needed(200, 400)).hasValue(4);
		assertThat(SlowMotion.needed(100, 400)).hasValue(8);
		assertThat(SlowMotion.needed(99, 400)).isEmpty();
		assertThat(SlowMotion.needed(null, 400)).as("not even the lowest step held").isEmpty();
	}

	@Test
	void autoRunsSlowerWhereTheBoxNeedsIt() {
		SlowMotion.Choice choice = SlowMotion.choose(null, capacity(400), 400, null);
		assertThat(choice.runs()).isTrue();
		assertThat(choice.timeScale()).isEqualTo(2);
		assertThat(choice.why()).contains("this box carries 400 rps").contains("slow motion, k = 2");
		assertThat(SlowMotion.choose(null, capacity(800), 400, null).timeScale()).isEqualTo(1);
	}

	@Test
	void autoEndsTheTopologyWhenEvenTheLargestFactorIsNotEnough() {
		SlowMotion.Choice choice = SlowMotion.choose(null, capacity(null), 400, null);
		assertThat(choice.runs()).isFalse();
		assertThat(choice.why()).contains("did not carry even 100 rps").contains("not run");
	}

	@Test
	void aFixedOneForbidsSlowMotionAndSaysWhichFactorItWouldNeed() {
		SlowMotion.Choice choice = SlowMotion.choose(1, capacity(400), 400, null);
		assertThat(choice.runs()).isFalse();
		assertThat(choice.why()).contains("not run at bench.timeScale=1").contains("it would need bench.timeScale=2");
		assertThat(SlowMotion.choose(1, capacity(800), 400, null).runs()).isTrue();
	}

	@Test
	void aFixedFactorAtOrAboveTheNeededOneRunsAsGiven() {
		SlowMotion.Choice choice = SlowMotion.choose(4, capacity(400), 400, null);
		assertThat(choice.runs()).isTrue();
		assertThat(choice.timeScale()).isEqualTo(4);
	}

	@Test
	void aHoldThatCannotRunSlowerRunsAsAskedAndSaysSo() {
		SlowMotion.Choice choice = SlowMotion.choose(null, capacity(200), 400, "no emulated hold to stretch");
		assertThat(choice.runs()).isTrue();
		assertThat(choice.timeScale()).isEqualTo(1);
		assertThat(choice.why()).contains("runs as asked all the same (no emulated hold to stretch)");
	}

	private static Capacity capacity(Integer capacityRps) {
		return new Capacity("single", capacityRps, List.of(new Capacity.Step(100, 100, 1, 15.0, 18, 17,
				(capacityRps != null) ? "" : "hold 30.0 ms for 15.0 asked (more than 10 % off)")), 2, 1, "");
	}

}
