package org.poollab.bench.telemetry;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.poollab.bench.results.Pool;
import org.poollab.bench.telemetry.Telemetry.Scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A team's app has no lab timer: each point's hold is HikariCP's own
 * {@code hikaricp_connections_usage_seconds} over the window, of the pool the sweep
 * chose: the mean from its {@code _sum} and {@code _count}, the p99 from its buckets
 * where it publishes them, and none where it does not.
 */
class TeamHoldTests {

	private static String exposition(double count, double sumSeconds, String buckets) {
		return """
				hikaricp_connections_max{pool="orders"} 4.0
				hikaricp_connections_usage_seconds_count{pool="orders"} %s
				hikaricp_connections_usage_seconds_sum{pool="orders"} %s
				%s
				hikaricp_connections_max{pool="reporting"} 9.0
				hikaricp_connections_usage_seconds_count{pool="reporting"} 1000.0
				hikaricp_connections_usage_seconds_sum{pool="reporting"} 500.0
				""".formatted(count, sumSeconds, buckets);
	}

	private static Pool window(String before, String after) {
		List<Scrape> scrapes = List.of(new Scrape(1_000, 0, PoolSnapshot.parse(before, "orders")),
				new Scrape(5_000, 0, PoolSnapshot.parse(after, "orders")),
				new Scrape(11_000, 0, PoolSnapshot.parse(after, "orders")));
		return PoolWindow.summarize(scrapes, 1, 2_000, 10_000, List.of());
	}

	@Test
	void theMeanHoldIsTheChangeInSumOverTheChangeInCount() {
		Pool pool = window(exposition(100, 1.0, ""), exposition(300, 3.0, ""));

		assertThat(pool.holdMeanMs()).isCloseTo(10.0, within(1e-9));
		assertThat(pool.holdP99Ms()).as("no buckets: no p99").isNull();
		assertThat(pool.observedMax()).as("the chosen pool's size, not the other's").containsExactly(4);
	}

	@Test
	void theP99IsReadFromTheBucketsWhereTheHistogramIsOn() {
		String before = """
				hikaricp_connections_usage_seconds_bucket{pool="orders",le="0.005"} 0.0
				hikaricp_connections_usage_seconds_bucket{pool="orders",le="0.01"} 0.0
				hikaricp_connections_usage_seconds_bucket{pool="orders",le="0.05"} 0.0
				hikaricp_connections_usage_seconds_bucket{pool="orders",le="+Inf"} 0.0
				""";
		String after = """
				hikaricp_connections_usage_seconds_bucket{pool="orders",le="0.005"} 50.0
				hikaricp_connections_usage_seconds_bucket{pool="orders",le="0.01"} 190.0
				hikaricp_connections_usage_seconds_bucket{pool="orders",le="0.05"} 200.0
				hikaricp_connections_usage_seconds_bucket{pool="orders",le="+Inf"} 200.0
				""";

		Pool pool = window(exposition(0, 0, before), exposition(200, 1.6, after));

		assertThat(pool.holdMeanMs()).isCloseTo(8.0, within(1e-9));
		assertThat(pool.holdP99Ms()).isNotNull().isGreaterThan(10.0).isLessThanOrEqualTo(50.0);
	}

	@Test
	void theLabsOwnTimerComesFirstWhereItIsPublished() {
		String timer = """
				lab_connection_hold_seconds_bucket{le="0.001"} %s
				lab_connection_hold_seconds_bucket{le="+Inf"} %s
				lab_connection_hold_seconds_count %s
				lab_connection_hold_seconds_sum %s
				""";

		Pool pool = window(exposition(0, 0, timer.formatted(0.0, 0.0, 0.0, 0.0)),
				exposition(200, 1.6, timer.formatted(200.0, 200.0, 200.0, 0.1)));

		assertThat(pool.holdMeanMs()).isCloseTo(0.5, within(1e-9));
	}

	@Test
	void withoutAPoolNameEveryPoolIsSummedAsBefore() {
		assertThat(PoolSnapshot.parse(exposition(0, 0, "")).max()).isEqualTo(13.0);
		assertThat(PoolSnapshot.parse(exposition(0, 0, ""), "reporting").max()).isEqualTo(9.0);
	}

}
