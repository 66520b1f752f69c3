package org.poollab.bench.grid;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Function;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.poollab.bench.lab.BenchSettingException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code bench.holdTimeFrom=prometheus:...} against a stand-in for a Prometheus server's
 * HTTP API: a JDK HTTP server that answers each instant query in the API's JSON
 * ({@code {"status":"success","data":{"resultType":"vector","result":[...]}}}) with what
 * a Prometheus that had scraped the {@code ordersapp} fixture's two expositions a range
 * apart would answer: the counters' values now, and their increase over the range.
 */
class HoldTimeFromPrometheusTests {

	private final List<String> queries = new ArrayList<>();

	private HttpServer server;

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop(0);
		}
	}

	@Test
	void aRangeOnAPrometheusServerReadsWhatTwoScrapesARangeApartRead() throws IOException {
		HoldTimeFromExpositionsTests.Window window = HoldTimeFromExpositionsTests.Window.of("ordersapp");
		String url = serve(answersFor(Scrape.of(window.before()), Scrape.of(window.after())));
		String source = "prometheus:" + url + "?range=10m&job=orders";

		HoldTimeFrom.Read read = HoldTimeFrom.read(source, null, null, (line) -> {
		});

		HoldTimeFrom.Read scraped = HoldTimeFrom.parse("ordersapp", window.before(), window.after(), null);
		assertThat(read.hold().meanMs()).isEqualTo(scraped.hold().meanMs());
		assertThat(read.usesPerRequest()).isEqualTo(scraped.usesPerRequest());
		assertThat(read.histogram().written()).isEqualTo(scraped.histogram().written());
		assertThat(read.description()).contains(
				"the last 10m00s on " + url + " (increase over the range, {job=\"orders\"}): 5339 uses",
				"uses per request: 2.51 (5339 uses by 2129 requests", "lifetime totals: 5390 uses",
				"the service started 46s before the scrape");
		assertThat(this.queries).contains(
				"sum by (pool) (increase(hikaricp_connections_usage_seconds_count{job=\"orders\"}[600s]))",
				"sum by (pool, le) (increase(hikaricp_connections_usage_seconds_bucket{job=\"orders\"}[600s]))",
				"sum by (uri) (increase(http_server_requests_seconds_count{job=\"orders\"}[600s]))");
	}

	@Test
	void aPrometheusServerThatDoesNotAnswerIsRefusedInOneLine() throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		String source = "prometheus:http://127.0.0.1:" + closedPort + "?range=10m&job=orders";
		assertThatThrownBy(() -> HoldTimeFrom.read(source, null, null, (line) -> {
		})).isInstanceOf(BenchSettingException.class)
			.hasMessageStartingWith(
					"bench.holdTimeFrom=" + source + " is not allowed: the Prometheus server at http://127.0.0.1:"
							+ closedPort + "/api/v1/query does not answer (ConnectException)")
			.hasMessageContaining("Nothing was started.")
			.hasMessageNotContaining("\n");
	}

	@Test
	void anExpositionUrlThatDoesNotAnswerIsRefusedInOneLine() throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		String source = "http://127.0.0.1:" + closedPort + "/actuator/prometheus";
		assertThatThrownBy(() -> HoldTimeFrom.read(source, null, null, (line) -> {
		})).isInstanceOf(BenchSettingException.class)
			.hasMessageStartingWith(
					"bench.holdTimeFrom=" + source + " is not allowed: it could not be read (ConnectException")
			.hasMessageNotContaining("\n");
	}

	@Test
	void aQueryThePrometheusServerRefusesIsSaidWithItsError() throws IOException {
		String url = serve((query) -> null);
		assertThatThrownBy(() -> HoldTimeFrom.read("prometheus:" + url + "?job=orders", null, null, (line) -> {
		})).isInstanceOf(BenchSettingException.class)
			.hasMessageContaining("/api/v1/query answered HTTP 400 to sum by (pool) "
					+ "(hikaricp_connections_usage_seconds_count{job=\"orders\"}): bad_data: parse error")
			.hasMessageNotContaining("\n");
	}

	@Test
	void aRangeOutsideOneMinuteToAWeekIsRefused() {
		assertThatThrownBy(() -> HoldTimeFrom.read("prometheus:http://127.0.0.1:9?range=0s", null, null, (line) -> {
		})).isInstanceOf(BenchSettingException.class)
			.hasMessageStartingWith(
					"bench.holdTimeFrom=prometheus:http://127.0.0.1:9?range=0s is not allowed: range=0s is not a duration from 1m to 7d, e.g. range=10m");
	}

	@Test
	void aSelectorMatchingNoSeriesIsRefusedAsAnExpositionWithoutThem() throws IOException {
		String url = serve((query) -> List.of());
		assertThatThrownBy(() -> HoldTimeFrom.read("prometheus:" + url + "?job=nobody", null, null, (line) -> {
		})).isInstanceOf(BenchSettingException.class)
			.hasMessageContaining("it has no hikaricp_connections_usage_seconds with a count above 0");
	}

	/** A sample of an instant query's vector: its labels and value. */
	record Sample(Map<String, String> labels, double value) {
	}

	/**
	 * Starts the stand-in; {@code answers} gives each query's vector, {@code null} for an
	 * error as Prometheus answers a query it cannot parse.
	 */
	private String serve(Function<String, List<Sample>> answers) throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/api/v1/query", (exchange) -> {
			String raw = exchange.getRequestURI().getRawQuery();
			String query = URLDecoder.decode(raw.substring(raw.indexOf("query=") + "query=".length()),
					StandardCharsets.UTF_8);
			this.queries.add(query);
			List<Sample> samples = answers.apply(query);
			String body = (samples != null) ? vector(samples)
					: "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"bad_data: parse error\"}";
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders((samples != null) ? 200 : 400, bytes.length);
			exchange.getResponseBody().write(bytes);
			exchange.close();
		});
		this.server.start();
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	private static String vector(List<Sample> samples) {
		StringJoiner result = new StringJoiner(",", "[", "]");
		for (Sample sample : samples) {
			StringJoiner metric = new StringJoiner(",", "{", "}");
			sample.labels().forEach((name, value) -> metric.add("\"%s\":\"%s\"".formatted(name, value)));
			result.add("{\"metric\":%s,\"value\":[1764387000.123,\"%s\"]}".formatted(metric, sample.value()));
		}
		return "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":" + result + "}}";
	}

	/**
	 * What Prometheus answers, having scraped {@code before} and, a range later,
	 * {@code after}.
	 */
	private static Function<String, List<Sample>> answersFor(Scrape before, Scrape after) {
		return (query) -> {
			List<Sample> samples = new ArrayList<>();
			boolean increase = query.contains("increase(");
			if (query.contains("_usage_seconds_bucket")) {
				after.pools.forEach((pool,
						series) -> series.buckets.forEach((le, count) -> samples
							.add(new Sample(Map.of("pool", pool, "le", le.isInfinite() ? "+Inf" : String.valueOf(le)),
									count - before.pools.get(pool).buckets.getOrDefault(le, 0.0)))));
			}
			else if (query.contains("_usage_seconds_count") || query.contains("_usage_seconds_sum")) {
				boolean count = query.contains("_count");
				after.pools.forEach((pool, series) -> {
					Scrape.PoolSeries was = before.pools.get(pool);
					double now = count ? series.count : series.sumSeconds;
					double then = count ? was.count : was.sumSeconds;
					samples.add(new Sample(Map.of("pool", pool), increase ? now - then : now));
				});
			}
			else if (query.contains("http_server_requests_seconds_count")) {
				after.requestsByUri.forEach((uri, count) -> samples
					.add(new Sample(Map.of("uri", uri), count - before.requestsByUri.getOrDefault(uri, 0.0))));
			}
			else if (query.contains("process_start_time_seconds")) {
				samples.add(new Sample(Map.of(), after.uptimeSeconds));
			}
			return samples;
		};
	}

}
