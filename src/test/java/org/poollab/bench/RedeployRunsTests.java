package org.poollab.bench;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.load.LoadRun;
import org.poollab.bench.results.RequestThreads;

import static org.assertj.core.api.Assertions.assertThat;

class RedeployRunsTests {

	private static Planned planned(int poolSize) {
		return new Planned(Topology.SINGLE, 1, RequestThreads.TOMCAT_DEFAULT, poolSize, 10, 1);
	}

	@Test
	void aDeploymentResizedLiveRunsItsPointsInOneSchedule() throws Exception {
		List<String> runIds = new ArrayList<>();

		RedeployRuns.measure(List.of(planned(4), planned(2)), "single-run1", false, (points, id) -> {
			runIds.add(id + " " + points.stream().map(Planned::poolSize).toList());
			return new LoadRun.Result(List.of(), List.of());
		});

		assertThat(runIds).containsExactly("single-run1 [4, 2]");
	}

	@Test
	void aRedeployedDeploymentRunsEachPoolSizeOnItsOwnInTheirOrder() throws Exception {
		List<String> runIds = new ArrayList<>();

		RedeployRuns.measure(List.of(planned(4), planned(2)), "single-run1", true, (points, id) -> {
			runIds.add(id + " " + points.stream().map(Planned::poolSize).toList());
			return new LoadRun.Result(List.of(), List.of());
		});

		assertThat(runIds).containsExactly("single-run1-pool4 [4]", "single-run1-pool2 [2]");
	}

	@Test
	void aRunThatStoppedEarlyLeavesItsOwnAndTheLaterSizesOver() throws Exception {
		List<Planned> points = List.of(planned(8), planned(4), planned(2));

		LoadRun.Result result = RedeployRuns.measure(points, "run", true,
				(run, id) -> new LoadRun.Result(List.of(), run.get(0).poolSize() == 4 ? run : List.of()));

		assertThat(result.leftover()).extracting(Planned::poolSize).containsExactly(4, 2);
	}

}
