package org.poollab.bench.report;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.poollab.bench.deciding.TopologyGrid;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.RequestThreads;

import static org.assertj.core.api.Assertions.assertThat;

class HoldModelTableTests {

	@Test
	void theLabsOwnInstancesAreSaidToTimeEveryHoldThemselves() {
		TopologyGrid grid = new TopologyGrid("single", Limits.DEFAULTS, List.of(), List.of());

		assertThat(HoldModelTable.measuredBy(grid)).contains("nanosecond clock (lab.connection.hold)")
			.doesNotContain("hikaricp_connections_usage_seconds");
	}

	@Test
	void instancesTheLabDidNotStartMayHaveOnlyHikariCpsUsageTimer() {
		TopologyGrid grid = new TopologyGrid("single", new Limits(0, Limits.AS_DEPLOYED, RequestThreads.TOMCAT_DEFAULT),
				List.of(), List.of());

		assertThat(HoldModelTable.measuredBy(grid)).contains("on instances the lab did not start",
				"else the app's own hikaricp_connections_usage_seconds", "whole milliseconds");
	}

}
