package org.poollab.bench.telemetry;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the lab may end JMeter's pause for requests in flight: only when the pool shows
 * none in use and none awaited.
 */
class TelemetryTests {

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
	void anInstanceWithoutAPoolIsNotKnownToBeIdle() {
		assertThat(PoolSnapshot.parse("roles_requests_refused_total{reason=\"pool-timeout\"} 0.0\n").idle()).isFalse();
	}

}
