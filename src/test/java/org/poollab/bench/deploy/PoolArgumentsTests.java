package org.poollab.bench.deploy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.results.SweepResults;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What each instance is told about its pool: {@code none} is no pool on either stack, a
 * swept size is the stack's own pool-size key with the resize endpoint on, and a pasted
 * block goes as the file alone.
 */
class PoolArgumentsTests {

	@Test
	void noPoolOnTheReactiveTwinTurnsR2dbcPoolOff() {
		assertThat(InstanceStart.poolArguments(SweepResults.NO_POOL, null, true, TimeScale.NONE))
			.containsExactly("--spring.r2dbc.pool.enabled=false");
	}

	@Test
	void noPoolOnTheJdbcServiceOpensAConnectionPerRequest() {
		assertThat(InstanceStart.poolArguments(SweepResults.NO_POOL, null, false, TimeScale.NONE))
			.containsExactly("--spring.datasource.type=org.springframework.jdbc.datasource.SimpleDriverDataSource");
	}

	@Test
	void aSweptSizeGoesAsEachStacksOwnKeyWithTheResizeEndpointOn() {
		assertThat(InstanceStart.poolArguments(4, null, true, TimeScale.NONE))
			.containsExactly("--spring.r2dbc.pool.max-size=4", "--lab.pool-resize.enabled=true");
		assertThat(InstanceStart.poolArguments(4, null, false, TimeScale.NONE))
			.containsExactly("--spring.datasource.hikari.maximum-pool-size=4", "--lab.pool-resize.enabled=true");
	}

	@Test
	void aPastedBlockGoesAsTheFileAloneWithNoSizeOnTheCommandLine() {
		Path block = Path.of("target", "block.yml");
		assertThat(InstanceStart.poolArguments(4, block, false, TimeScale.NONE)).containsExactly(
				"--spring.config.additional-location=file:" + block.toAbsolutePath(), "--lab.pool-resize.enabled=true");
	}

}
