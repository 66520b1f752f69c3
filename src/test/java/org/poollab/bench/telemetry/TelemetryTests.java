package org.poollab.bench.telemetry;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import org.poollab.bench.deploy.PgBouncer;
import org.poollab.service.BlackHole;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * When the lab may end JMeter's pause for requests in flight: only when the pool shows
 * none in use and none awaited. And a scrape that hangs holds up no other look.
 */
class TelemetryTests {

	/**
	 * An instance that accepts the scrape and never answers (a stalled JVM), with a
	 * timeout no test waits for: pgbouncer and the CPU are looked at on their schedule
	 * meanwhile. (One thread for every look gave pgbouncer none until the scrape timed
	 * out, one sample in a stalled window of a fresh-clone run, 2026-11-28.)
	 */
	@Test
	void aHangingScrapeHoldsUpNeitherPgBouncerNorTheCpuSamples() throws Exception {
		try (BlackHole instance = BlackHole.open()) {
			URI prometheus = URI.create("http://127.0.0.1:%d/actuator/prometheus".formatted(instance.port()));
			try (Telemetry telemetry = new Telemetry(List.of(prometheus),
					() -> new PgBouncer.Sample(System.currentTimeMillis(), 3, 1, 1, 0, 0), ProcessHandle.current(),
					() -> OptionalLong.of(42), Duration.ofMinutes(10))) {
				await().atMost(Duration.ofSeconds(60))
					.until(() -> telemetry.pgbouncer().size() >= 3 && telemetry.databaseCpu().size() >= 3);
				assertThat(telemetry.cpu()).as("the load generator's CPU, sampled").hasSizeGreaterThanOrEqualTo(3);
				assertThat(instance.connections()).as("the first scrape, still waiting for its answer").isEqualTo(1);
			}
		}
	}

	private static String scrape(double max, double active, double pending) {
		return """
				hikaricp_connections_max{pool="HikariPool-1"} %s
				hikaricp_connections_active{pool="HikariPool-1"} %s
				hikaricp_connections_pending{pool="HikariPool-1"} %s
				""".formatted(max, active, pending);
	}

	@Test
	void aPoolWithNothingInUseOrAwaitedIsIdle() {
		assertThat(PoolSnapshot.parse(scrape(5, 0, 0)).idle()).isTrue();
	}

	@Test
	void aConnectionInUseOrAwaitedIsARequestInFlight() {
		assertThat(PoolSnapshot.parse(scrape(5, 1, 0)).idle()).isFalse();
		assertThat(PoolSnapshot.parse(scrape(1, 0, 3)).idle()).isFalse();
	}

	@Test
	void theReactiveTwinsR2dbcPoolIsReadIntoTheSameFigures() {
		PoolSnapshot twin = PoolSnapshot.parse("""
				r2dbc_pool_max_allocated_connections{name="connectionFactory"} 8.0
				r2dbc_pool_allocated_connections{name="connectionFactory"} 8.0
				r2dbc_pool_acquired_connections{name="connectionFactory"} 3.0
				r2dbc_pool_pending_connections{name="connectionFactory"} 2.0
				r2dbc_connections_acquire_seconds_bucket{le="0.001"} 40.0
				r2dbc_connections_acquire_seconds_bucket{le="+Inf"} 42.0
				r2dbc_connections_acquire_seconds_count 42.0
				roles_requests_refused_total{reason="pool-timeout"} 7.0
				roles_requests_refused_total{reason="too-many-clients"} 1.0
				""");
		assertThat(twin.max()).isEqualTo(8);
		assertThat(twin.active()).isEqualTo(3);
		assertThat(twin.pending()).isEqualTo(2);
		// r2dbc-pool counts no timeouts: the twin's pool-timeout refusals are they.
		assertThat(twin.timeouts()).isEqualTo(7);
		assertThat(twin.acquireCount()).isEqualTo(42);
		assertThat(twin.acquireBuckets()).containsEntry(0.001, 40.0);
		assertThat(twin.usageCount()).as("the twin measures no hold time").isZero();
		assertThat(twin.idle()).isFalse();
	}

	@Test
	void anInstanceWithoutAPoolIsNotKnownToBeIdle() {
		assertThat(PoolSnapshot.parse("roles_requests_refused_total{reason=\"pool-timeout\"} 0.0\n").idle()).isFalse();
	}

}
