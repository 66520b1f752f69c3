package org.poollab.bench.telemetry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.poollab.bench.results.EngineLoad;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Remote engines' requests told apart by their threads' names, each engine judged against
 * its own even schedule.
 */
class LoadWindowTests {

	private static final String ON_TIME = "127.0.0.4:1099";

	private static final String LATE = "127.0.0.5:1099";

	@Test
	void eachEngineSendsItsShareAndIsJudgedAgainstItsOwnSchedule() {
		LoadWindow.Engines engines = LoadWindow.engines(samples(), List.of(ON_TIME, LATE), 1_000, 3_000, 10, 0);

		assertThat(engines.loads()).containsExactly(new EngineLoad(ON_TIME, 10, 0), new EngineLoad(LATE, 10, 40));
		assertThat(engines.startLagP99Ms()).as("the p99 over both engines' 40 requests, 2 of them 40 ms late")
			.isEqualTo(40);
	}

	@Test
	void randomArrivalsLeaveTheLagUnknownButCountEachEnginesRequests() {
		LoadWindow.Engines engines = LoadWindow.engines(samples(), List.of(ON_TIME, LATE), 1_000, 3_000, 0, 0);

		assertThat(engines.loads()).containsExactly(new EngineLoad(ON_TIME, 10, -1), new EngineLoad(LATE, 10, -1));
		assertThat(engines.startLagP99Ms()).isEqualTo(-1);
	}

	/**
	 * 10 requests per second from each engine for 3 s, the second engine's offset by 50
	 * ms (engines start on schedules of their own), with its 6th, 16th and 26th request
	 * 40 ms late.
	 */
	private static List<LoadWindow.Sample> samples() {
		List<LoadWindow.Sample> samples = new ArrayList<>();
		for (int k = 0; k < 30; k++) {
			samples.add(new LoadWindow.Sample(k * 100L, 2, "200", true, ON_TIME + "-Open model 1-" + (k + 1)));
			long late = (k % 10 == 5) ? 40 : 0;
			samples.add(new LoadWindow.Sample(50 + k * 100L + late, 2, "200", true, LATE + "-Open model 1-" + (k + 1)));
		}
		samples.sort(Comparator.comparingLong(LoadWindow.Sample::startMs));
		return samples;
	}

}
