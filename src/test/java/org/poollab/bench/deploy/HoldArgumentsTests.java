package org.poollab.bench.deploy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.results.EmulatedHold;
import org.poollab.service.hold.HoldHistogram;
import org.poollab.service.hold.HoldPlace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * What each instance is told to emulate: a hold read from a histogram goes as the
 * histogram itself (its p99 is said by it), with the uses per request, seeded with the
 * instance's port; in slow motion, the hold and the wait for a connection k times as
 * long.
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
	void inSlowMotionTheHoldsMeanP99AndHistogramBoundsAreKTimesAsLong() {
		HoldHistogram histogram = new HoldHistogram(new double[] { 2, 50 }, new double[] { 0.5, 1 }, 10);
		EmulatedHold measured = EmulatedHold.of(histogram, 2.5, HoldPlace.DATABASE, "bench.holdTimeFrom");
		EmulatedHold slowed = measured.scaled(4);
		assertThat(slowed.meanMs()).isEqualTo(40.0);
		assertThat(slowed.p99Ms()).isCloseTo(4 * measured.p99Ms(), within(1e-9));
		assertThat(slowed.histogram()).isEqualTo("8:0.5,200:1");
		assertThat(slowed.usesPerRequest()).isEqualTo(2.5);
		assertThat(HoldHistogram.parse(slowed.histogram(), slowed.meanMs()).quantileMs(0.99))
			.isCloseTo(4 * histogram.quantileMs(0.99), within(1e-9));
		assertThat(InstanceStart.holdArguments(slowed, 18081)).contains("--lab.hold.mean=40000us",
				"--lab.hold.histogram=8:0.5,200:1", "--lab.hold.uses=2.5");

		EmulatedHold given = new EmulatedHold(15, 60.0, "database", "bench.holdTime");
		assertThat(given.scaled(2)).isEqualTo(new EmulatedHold(30, 120.0, "database", "bench.holdTime"));
		assertThat(given.scaled(1)).isSameAs(given);
	}

	@Test
	void aHoldWithDatabaseCpuIsNeverStretched() {
		EmulatedHold cpu = new EmulatedHold(10, null, "database", "bench.holdTime").withCpu(2.0, "bench.holdCpu");
		assertThat(cpu.scaled(1)).isSameAs(cpu);
		assertThatIllegalArgumentException().isThrownBy(() -> cpu.scaled(2))
			.withMessageContaining("database CPU cannot run in slow motion");
	}

	@Test
	void inSlowMotionTheServicesOwnWaitForAConnectionIsKTimesAsLong() {
		assertThat(ServiceTimeouts.configured(false)).as("application.yml's connection-timeout").isEqualTo(2000);
		assertThat(ServiceTimeouts.configured(true)).as("reactive.yml's max-acquire-time").isEqualTo(2000);
		assertThat(ServiceTimeouts.argument(false, 4000))
			.isEqualTo("--spring.datasource.hikari.connection-timeout=4000");
		assertThat(ServiceTimeouts.argument(true, 8000)).isEqualTo("--spring.r2dbc.pool.max-acquire-time=8000ms");
	}

	@Test
	void aPastedBlocksWaitIsReadFromTheBlock(@TempDir Path directory) throws Exception {
		Path hikari = Files.writeString(directory.resolve("hikari.yml"),
				"spring:\n  datasource:\n    hikari:\n      maximum-pool-size: 10\n      connection-timeout: 10000\n");
		Path bare = Files.writeString(directory.resolve("bare.yml"),
				"spring:\n  datasource:\n    hikari:\n      maximum-pool-size: 10\n");
		Path r2dbc = Files.writeString(directory.resolve("r2dbc.yml"),
				"spring:\n  r2dbc:\n    pool:\n      max-size: 10\n      max-acquire-time: 1500\n");
		assertThat(ServiceTimeouts.ofBlock(hikari, false)).hasValue(10_000);
		assertThat(ServiceTimeouts.ofBlock(bare, false)).as("HikariCP's default").hasValue(30_000);
		assertThat(ServiceTimeouts.ofBlock(r2dbc, true)).hasValue(1500);
		assertThat(ServiceTimeouts.ofBlock(bare, true)).as("r2dbc-pool waits without a bound").isEmpty();
	}

	@Test
	void aHandGivenHoldGoesAsItsMeanAndP99AndOneUse() {
		EmulatedHold hold = new EmulatedHold(10, 200.0, "application", "bench.holdTime");
		assertThat(InstanceStart.holdArguments(hold, 18082)).containsExactly("--lab.hold.mean=10000us",
				"--lab.hold.place=application", "--lab.hold.seed=18082", "--lab.hold.p99=200000us");
	}

}
