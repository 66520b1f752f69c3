package org.poollab.bench.grid;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.poollab.bench.grid.ContentionRates.MultiRun;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.results.RequestThreads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The contention preset asks every box the same question: its rates are shares of the
 * database's CPU ceiling measured here, and three instances run only where the box
 * carries them.
 */
class ContentionRatesTests {

	@Test
	void theRatesAreSharesOfTheCeilingRoundedDown() {
		// 2 cores at exactly 5 ms a request: the rates the preset was designed with.
		assertThat(ContentionRates.of(400, 1)).containsExactly(140, 180);
		assertThat(ContentionRates.of(285.7, 1)).containsExactly(99, 128);
	}

	@Test
	void ratesSplitEvenlyOverRemoteEngines() {
		assertThat(ContentionRates.of(285.7, 3)).containsExactly(99, 126);
		assertThat(ContentionRates.of(285.7, 2)).containsExactly(98, 128);
	}

	@Test
	void aTinyCeilingStillGivesARate() {
		assertThat(ContentionRates.of(2, 1)).containsExactly(1);
	}

	@Test
	void aCeilingThatIsNotAPositiveNumberIsRefused() {
		for (double ceiling : new double[] { 0, -3, Double.NaN, Double.POSITIVE_INFINITY }) {
			assertThatIllegalArgumentException().isThrownBy(() -> ContentionRates.of(ceiling, 1))
				.withMessageContaining("positive number");
		}
	}

	@Test
	void thePlannedPointsTakeTheMeasuredRatesOneForOne() {
		List<Planned> planned = List.of(point(Topology.SINGLE, 1, 140), point(Topology.SINGLE, 64, 180),
				point(Topology.MULTI, 4, 180));
		assertThat(ContentionRates.replan(planned, List.of(140, 180), List.of(99, 128))).containsExactly(
				point(Topology.SINGLE, 1, 99), point(Topology.SINGLE, 64, 128), point(Topology.MULTI, 4, 128));
	}

	@Test
	void aCeilingTooLowForTwoRatesPlansEachPointOnce() {
		List<Planned> planned = List.of(point(Topology.SINGLE, 1, 140), point(Topology.SINGLE, 1, 180));
		assertThat(ContentionRates.replan(planned, List.of(140, 180), ContentionRates.of(2, 1)))
			.containsExactly(point(Topology.SINGLE, 1, 1));
	}

	@Test
	void threeInstancesRunWhereTheBoxCarriesTwiceTheHighestRate() {
		MultiRun runs = ContentionRates.multi(360, List.of(140, 180));
		assertThat(runs.runs()).isTrue();
		assertThat(runs.notRun()).isEmpty();
		List<Planned> planned = List.of(point(Topology.SINGLE, 1, 140), point(Topology.MULTI, 1, 140));
		assertThat(runs.keep(planned)).isEqualTo(planned);
	}

	@Test
	void elsewhereOneLineSaysWhyAndNoThreeInstancePointIsPlanned() {
		MultiRun notRun = ContentionRates.multi(300, List.of(140, 180));
		assertThat(notRun.runs()).isFalse();
		assertThat(notRun.notRun()).hasValue("three instances not run: this box carries 300 rps across three "
				+ "instances, the contention question needs 360 rps (its highest rate, 180 rps, is at most 50 % of "
				+ "what they carry)");
		assertThat(notRun.keep(
				List.of(point(Topology.SINGLE, 1, 140), point(Topology.MULTI, 1, 140), point(Topology.MULTI, 64, 180))))
			.containsExactly(point(Topology.SINGLE, 1, 140));
	}

	@Test
	void threeInstancesThatCarryNothingDoNotRun() {
		MultiRun notRun = ContentionRates.multi(null, List.of(99, 128));
		assertThat(notRun.runs()).isFalse();
		assertThat(notRun.notRun()).hasValueSatisfying((line) -> assertThat(line).startsWith(
				"three instances not run: this box carries not even the capacity probe's lowest step across three "
						+ "instances, the contention question needs 256 rps"));
	}

	private static Planned point(Topology topology, int poolSize, int rateRps) {
		return new Planned(topology, (topology == Topology.MULTI) ? 3 : 1, RequestThreads.TOMCAT_DEFAULT, poolSize,
				rateRps, 1);
	}

}
