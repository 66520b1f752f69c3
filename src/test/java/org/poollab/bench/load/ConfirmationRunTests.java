package org.poollab.bench.load;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Preset;
import org.poollab.bench.grid.TimeScale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the confirmation run reads a block as Spring Boot does and holds what an instance
 * reports against it.
 */
class ConfirmationRunTests {

	@TempDir
	Path directory;

	@Test
	void readsTheHikariSettingsOfABlockWithCommentsAsSpringBootBindsThem() throws Exception {
		Path block = this.directory.resolve("application.yml");
		Files.writeString(block, """
				# a comment above the block
				spring:
				  datasource:
				    hikari:
				      # why, wrapped
				      maximum-pool-size: 5
				      connection-timeout: 500
				  application:
				    name: not-hikari
				""");
		assertThat(ConfirmationRun.settings(block)).containsExactly(Map.entry("connection-timeout", "500"),
				Map.entry("maximum-pool-size", "5"));
	}

	@Test
	void everyDifferenceAndEverySettingNotReportedIsAMismatch() {
		Map<String, String> block = Map.of("maximum-pool-size", "5", "connection-timeout", "500", "keepalive-time",
				"120000");
		Map<String, Long> reported = Map.of("maximum-pool-size", 5L, "connection-timeout", 2000L, "idle-timeout",
				600000L);
		assertThat(ConfirmationRun.mismatches(block, reported, 18081)).containsExactlyInAnyOrder(
				"instance 18081 runs connection-timeout=2000, the block says 500",
				"instance 18081 does not report keepalive-time (block: 120000)");
		assertThat(ConfirmationRun.mismatches(Map.of("maximum-pool-size", "5"), reported, 18081)).isEmpty();
	}

	@Test
	void inSlowMotionTheInstancesRunTheBlockWithItsWaitForAConnectionKTimesAsLong() {
		Map<String, String> block = Map.of("maximum-pool-size", "10", "connection-timeout", "10000", "max-acquire-time",
				"1500ms");
		assertThat(ConfirmationRun.stretched(block, TimeScale.of(2))).containsEntry("maximum-pool-size", "10")
			.containsEntry("connection-timeout", "20000")
			.containsEntry("max-acquire-time", "3000");
		assertThat(ConfirmationRun.stretched(block, TimeScale.NONE)).isSameAs(block);
	}

	@Test
	void freshInstancesAreWarmedFromAQuarterOfTheRateThroughTheGridsLowerRates() {
		assertThat(ConfirmationRun.warmUpRates(List.of(300, 400), 400)).containsExactly(100, 200, 300, 400);
		assertThat(ConfirmationRun.warmUpRates(List.of(200, 400, 1000), 400)).containsExactly(100, 200, 400);
		assertThat(ConfirmationRun.warmUpRates(List.of(50), 50)).containsExactly(12, 25, 50);
		assertThat(ConfirmationRun.warmUpRates(List.of(2), 2)).containsExactly(1, 2);
	}

	@Test
	void freshInstancesWarmUpForAtMostTwiceTheGridsWarmUpAndNotAtAllWithout() {
		Grid contention = Grid.builder(Preset.named("contention")).build();
		assertThat(ConfirmationRun.warmUpAtMost(contention)).isEqualTo(Duration.ofSeconds(60));
		assertThat(ConfirmationRun
			.warmUpAtMost(Grid.builder(Preset.named("contention")).topologyWarmup(Duration.ZERO).build())).isZero();
	}

}
