package org.poollab.bench.grid;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.lab.BenchSettingException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code bench.holdTimeFrom} reads HikariCP's usage from the shapes Spring Boot exposes:
 * a percentile histogram, a summary with a 0.99 quantile, or count and sum alone; from a
 * file and over HTTP. The live exposition of the lab's own service after load is read in
 * OverloadSweepIT.
 */
class HoldTimeFromTests {

	/** Two pools; the busier lent 1,000 connections, 990 of them within 20 ms. */
	private static final String HISTOGRAM = """
			# HELP hikaricp_connections_usage_seconds Connection usage time
			# TYPE hikaricp_connections_usage_seconds histogram
			hikaricp_connections_usage_seconds_bucket{pool="orders",le="0.001"} 0
			hikaricp_connections_usage_seconds_bucket{pool="orders",le="0.01"} 500
			hikaricp_connections_usage_seconds_bucket{pool="orders",le="0.02"} 990
			hikaricp_connections_usage_seconds_bucket{pool="orders",le="0.05"} 1000
			hikaricp_connections_usage_seconds_bucket{pool="orders",le="+Inf"} 1000
			hikaricp_connections_usage_seconds_count{pool="orders"} 1000
			hikaricp_connections_usage_seconds_sum{pool="orders"} 10.0
			hikaricp_connections_usage_seconds_max{pool="orders"} 0.045
			hikaricp_connections_usage_seconds_bucket{pool="audit",le="+Inf"} 10
			hikaricp_connections_usage_seconds_count{pool="audit"} 10
			hikaricp_connections_usage_seconds_sum{pool="audit"} 1.0
			""";

	/**
	 * The buckets hold HikariCP's whole milliseconds: up to 10 ms the uses recorded as 2
	 * to 10, which lasted 2 to 11 ms. Those spans' middles average 11.45 ms, beyond the
	 * millisecond above the 10 ms the cut-down sum says: scaled to 11 ms. The 990th of
	 * 1,000 ends the span of 11 to 21 ms.
	 */
	private static final double HISTOGRAM_SCALE = 11 / 11.45;

	@Test
	void histogramOfTheBusiestPoolIsWhatHoldsAreDrawnFrom() {
		HoldTimeFrom.Read read = HoldTimeFrom.parse("metrics.txt", HISTOGRAM);
		assertThat(read.hold().meanMs()).isCloseTo(11, org.assertj.core.data.Offset.offset(1e-9));
		assertThat(read.histogram()).isNotNull();
		assertThat(read.histogram().scale()).isCloseTo(HISTOGRAM_SCALE, org.assertj.core.data.Offset.offset(1e-9));
		assertThat(read.histogram().quantileMs(0.99)).isCloseTo(21 * HISTOGRAM_SCALE,
				org.assertj.core.data.Offset.offset(1e-9));
		assertThat(read.description()).contains("pool \"orders\"", "the busiest of 2 pools", "mean 11.0 ms",
				"_sum / _count says 10.0 ms", "p99 20.2 ms", "max 49.0 ms", "drawn from its 4 histogram buckets",
				"scaled x0.961 to the mean", "these are totals since start, start-up included");
	}

	/**
	 * Micrometer's buckets as HikariCP fills them: up to 1 ms the uses recorded as 0 and
	 * 1, up to 2.1 ms the 2s, up to 3.1 ms the 3s. 100 uses, 80 whole milliseconds in
	 * all, 20 and 30 of them in the 2s and 3s: 30 of the first 80 are 1s.
	 */
	@Test
	void eachBucketIsReadAsTheSpanItsWholeMillisecondsLasted() {
		TreeMap<Double, Double> buckets = new TreeMap<>(Map.of(0.001, 80.0, 0.001048576, 80.0, 0.002097151, 90.0,
				0.003145726, 100.0, Double.POSITIVE_INFINITY, 100.0));
		assertThat(WholeMilliseconds.uncut(buckets, 0.8)).containsExactlyEntriesOf(new TreeMap<>(
				Map.of(0.001, 50.0, 0.002, 80.0, 0.003, 90.0, 0.004, 100.0, Double.POSITIVE_INFINITY, 100.0)));
		HoldTimeFrom.Read read = HoldTimeFrom.parse("x", """
				hikaricp_connections_usage_seconds_bucket{pool="p",le="0.001"} 80
				hikaricp_connections_usage_seconds_bucket{pool="p",le="0.001048576"} 80
				hikaricp_connections_usage_seconds_bucket{pool="p",le="0.002097151"} 90
				hikaricp_connections_usage_seconds_bucket{pool="p",le="0.003145726"} 100
				hikaricp_connections_usage_seconds_bucket{pool="p",le="+Inf"} 100
				hikaricp_connections_usage_seconds_count{pool="p"} 100
				hikaricp_connections_usage_seconds_sum{pool="p"} 0.08
				""");
		// Each use half a millisecond past its whole ones on average: 0.8 + 0.5 ms.
		assertThat(read.hold().meanMs()).isCloseTo(1.3, org.assertj.core.data.Offset.offset(1e-9));
		assertThat(read.histogram().quantileMs(0.5)).isCloseTo(1, org.assertj.core.data.Offset.offset(1e-9));
		assertThat(read.histogram().quantileMs(0.85)).isCloseTo(2.5, org.assertj.core.data.Offset.offset(1e-9));
		assertThat(read.histogram().maxMs()).isCloseTo(4, org.assertj.core.data.Offset.offset(1e-9));
	}

	@Test
	void summaryQuantileGivesTheP99() {
		HoldTimeFrom.Read read = HoldTimeFrom.parse("x", """
				hikaricp_connections_usage_seconds{pool="HikariPool-1",quantile="0.5"} 0.004
				hikaricp_connections_usage_seconds{pool="HikariPool-1",quantile="0.99"} 0.025
				hikaricp_connections_usage_seconds_count{pool="HikariPool-1"} 200
				hikaricp_connections_usage_seconds_sum{pool="HikariPool-1"} 1.0
				""");
		// HikariCP's whole milliseconds, cut down: half a millisecond added to each.
		assertThat(read.hold().meanMs()).isEqualTo(5.5);
		assertThat(read.hold().p99Ms()).isEqualTo(25.5);
		assertThat(read.description()).contains("the summary's 0.99 quantile: a lognormal", "mean 5.50 ms, p50 ",
				"(of 100,000 draws)", "_sum / _count says 5.00 ms", "half a millisecond added");
	}

	@Test
	void countAndSumAloneGiveAConstantHoldAndSaySo() {
		HoldTimeFrom.Read read = HoldTimeFrom.parse("x", """
				hikaricp_connections_usage_seconds_count{pool="p"} 4
				hikaricp_connections_usage_seconds_sum{pool="p"} 0.02
				""");
		assertThat(read.hold().meanMs()).isEqualTo(5.5);
		assertThat(read.hold().p99Ms()).isNull();
		assertThat(read.description()).contains("every use 5.50 ms",
				"no histogram or 0.99 quantile exposed: a constant hold at the mean");
	}

	@Test
	void anExpositionWithoutTheSeriesIsRefusedNamingTheSetting() {
		assertThatThrownBy(() -> HoldTimeFrom.parse("http://127.0.0.1:8081/actuator/prometheus",
				"jvm_threads_live_threads 12\nhikaricp_connections_usage_seconds_count{pool=\"p\"} 0\n"))
			.isInstanceOf(BenchSettingException.class)
			.hasMessageStartingWith("bench.holdTimeFrom=http://127.0.0.1:8081/actuator/prometheus is not allowed: ")
			.hasMessageContaining("has no hikaricp_connections_usage_seconds with a count above 0");
	}

	@Test
	void aHoldTheLabCannotEmulateIsRefused() {
		assertThatThrownBy(() -> HoldTimeFrom.parse("x", """
				hikaricp_connections_usage_seconds_count{pool="p"} 1000
				hikaricp_connections_usage_seconds_sum{pool="p"} 0.01
				""")).isInstanceOf(BenchSettingException.class).hasMessageContaining("from 0.1ms to 60s");
	}

	@Test
	void readsAFileAndAnHttpUrl(@TempDir Path dir) throws IOException {
		Path file = Files.writeString(dir.resolve("prometheus.txt"), HISTOGRAM);
		assertThat(HoldTimeFrom.read(file.toString()).hold().meanMs()).isCloseTo(11,
				org.assertj.core.data.Offset.offset(1e-9));
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		server.createContext("/actuator/prometheus", (exchange) -> {
			byte[] body = HISTOGRAM.getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		server.start();
		try {
			String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/actuator/prometheus";
			assertThat(HoldTimeFrom.read(url, null, null, (line) -> {
			}).histogram().quantileMs(0.99)).isCloseTo(21 * HISTOGRAM_SCALE, org.assertj.core.data.Offset.offset(1e-9));
			assertThatThrownBy(() -> HoldTimeFrom.read(url.replace("prometheus", "nothing")))
				.hasMessageContaining("it answered HTTP 404");
		}
		finally {
			server.stop(0);
		}
	}

}
