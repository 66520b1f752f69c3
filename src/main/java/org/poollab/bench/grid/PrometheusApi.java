package org.poollab.bench.grid;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.convert.DurationStyle;

import org.poollab.bench.text.Durations;

/**
 * {@code bench.holdTimeFrom=prometheus:<server>?range=10m&job=orders}: the hold over a
 * range read from a Prometheus server's HTTP API (instant queries, {@code /api/v1/query},
 * at the server's now) rather than from the service itself. Every parameter but
 * {@code range} is a label the series must carry ({@code job}, {@code instance},
 * {@code namespace}); every instance that matches is summed. The range's
 * {@code increase(...[range])} of the usage's count, sum and buckets and of the requests
 * served stand for what two scrapes a range apart would have counted:
 * {@code increase(_sum) / increase(_count)} is {@code rate(_sum[range]) /
 * rate(_count[range])}, and Prometheus has already taken counter resets (a restarted pod)
 * into account. The lifetime totals beside it are the counters' values now.
 */
final class PrometheusApi {

	/** How {@code bench.holdTimeFrom} names a Prometheus server. */
	static final String PREFIX = "prometheus:";

	/** The range when the source names none. */
	static final Duration DEFAULT_RANGE = Duration.ofMinutes(10);

	private static final Duration MIN_RANGE = Duration.ofMinutes(1);

	private static final Duration MAX_RANGE = Duration.ofDays(7);

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private PrometheusApi() {
	}

	/** A source written as a Prometheus server's. */
	static boolean names(String source) {
		return source.regionMatches(true, 0, PREFIX, 0, PREFIX.length());
	}

	/**
	 * What two scrapes a range apart would have said: {@code before} holds the totals at
	 * the range's start (now less the increase), {@code after} the totals now, its
	 * buckets and requests the increase alone.
	 *
	 * @param window said back: the range and the server
	 */
	record Read(Scrape before, Scrape after, String window) {
	}

	/**
	 * Queries the server {@code source} names.
	 * @throws IllegalArgumentException with why it is refused, in a few words
	 */
	static Read read(String source) {
		String written = source.substring(PREFIX.length());
		int query = written.indexOf('?');
		String server = (query < 0) ? written : written.substring(0, query);
		if (!server.startsWith("http://") && !server.startsWith("https://")) {
			throw new IllegalArgumentException("the server after prometheus: must be an http(s) URL");
		}
		Duration range = DEFAULT_RANGE;
		List<String> matchers = new ArrayList<>();
		for (String parameter : (query < 0) ? new String[0] : written.substring(query + 1).split("&")) {
			String[] pair = parameter.split("=", 2);
			String name = URLDecoder.decode(pair[0], StandardCharsets.UTF_8);
			String value = (pair.length == 2) ? URLDecoder.decode(pair[1], StandardCharsets.UTF_8) : "";
			if (name.equals("range")) {
				range = range(value);
			}
			else if (name.matches("[a-zA-Z_][a-zA-Z0-9_]*") && !value.isEmpty()) {
				matchers.add("%s=\"%s\"".formatted(name, value.replace("\\", "\\\\").replace("\"", "\\\"")));
			}
			else if (!parameter.isEmpty()) {
				throw new IllegalArgumentException(
						"its parameter \"%s\" is neither range=<duration> nor label=value".formatted(parameter));
			}
		}
		String selector = "{" + String.join(",", matchers) + "}";
		String over = "[%ds]".formatted(range.toSeconds());
		String usage = HoldTimeFrom.SERIES;
		Scrape before = new Scrape();
		Scrape after = new Scrape();
		Endpoint endpoint = new Endpoint(server.replaceAll("/+$", "") + "/api/v1/query");
		endpoint.query("sum by (pool) (%s_count%s)".formatted(usage, selector),
				(labels, value) -> pool(after, labels).count = value);
		endpoint.query("sum by (pool) (%s_sum%s)".formatted(usage, selector),
				(labels, value) -> pool(after, labels).sumSeconds = value);
		endpoint.query("sum by (pool) (increase(%s_count%s%s))".formatted(usage, selector, over),
				(labels, value) -> pool(before, labels).count = pool(after, labels).count - value);
		endpoint.query("sum by (pool) (increase(%s_sum%s%s))".formatted(usage, selector, over),
				(labels, value) -> pool(before, labels).sumSeconds = pool(after, labels).sumSeconds - value);
		endpoint.query("sum by (pool, le) (increase(%s_bucket%s%s))".formatted(usage, selector, over),
				(labels, value) -> bucket(after, labels, value));
		endpoint.query("sum by (uri) (increase(%s%s%s))".formatted(HoldTimeFrom.REQUESTS, selector, over),
				(labels, value) -> after.requestsByUri.merge(labels.getOrDefault("uri", ""), value, Double::sum));
		endpoint.query("min(time() - process_start_time_seconds%s)".formatted(selector),
				(labels, value) -> after.uptimeSeconds = value);
		return new Read(before, after, "the last %s on %s (increase over the range, %s)"
			.formatted(Durations.human(range), server, matchers.isEmpty() ? "every series" : selector));
	}

	private static Scrape.PoolSeries pool(Scrape scrape, Map<String, String> labels) {
		return scrape.pools.computeIfAbsent(labels.getOrDefault("pool", ""), (name) -> new Scrape.PoolSeries());
	}

	private static void bucket(Scrape after, Map<String, String> labels, double value) {
		String le = labels.get("le");
		if (le != null) {
			try {
				pool(after, labels).buckets.merge(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le),
						value, Double::sum);
			}
			catch (NumberFormatException ex) {
				// not a bucket bound: skipped, as in a scrape
			}
		}
	}

	private static Duration range(String written) {
		Duration range;
		try {
			range = DurationStyle.SIMPLE.parse(written, ChronoUnit.SECONDS);
		}
		catch (IllegalArgumentException ex) {
			range = null;
		}
		if (range == null || range.compareTo(MIN_RANGE) < 0 || range.compareTo(MAX_RANGE) > 0) {
			throw new IllegalArgumentException(
					"range=%s is not a duration from 1m to 7d, e.g. range=10m".formatted(written));
		}
		return range;
	}

	/** The server's query endpoint. */
	private record Endpoint(String url) {

		/** Runs an instant query, each sample of its vector to {@code sample}. */
		void query(String promql, BiConsumer<Map<String, String>, Double> sample) {
			URI uri = URI.create(this.url + "?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
			HttpResponse<String> response;
			try {
				response = HttpClient.newBuilder()
					.connectTimeout(TIMEOUT)
					.build()
					.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(),
							HttpResponse.BodyHandlers.ofString());
			}
			catch (IOException ex) {
				throw new IllegalArgumentException("the Prometheus server at %s does not answer (%s)"
					.formatted(this.url, ex.getClass().getSimpleName()));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalArgumentException("querying it was interrupted");
			}
			JsonNode body;
			try {
				body = JSON.readTree(response.body());
			}
			catch (JacksonException ex) {
				body = null;
			}
			if (body == null || response.statusCode() != 200 || !"success".equals(body.path("status").asString())) {
				String error = (body != null) ? body.path("error").asString() : "";
				throw new IllegalArgumentException("%s answered HTTP %d to %s%s".formatted(this.url,
						response.statusCode(), promql, error.isEmpty() ? "" : ": " + error));
			}
			for (JsonNode result : body.path("data").path("result")) {
				Map<String, String> labels = new LinkedHashMap<>();
				result.path("metric")
					.properties()
					.forEach((entry) -> labels.put(entry.getKey(), entry.getValue().asString()));
				double value;
				try {
					value = Double.parseDouble(result.path("value").path(1).asString());
				}
				catch (NumberFormatException ex) {
					continue;
				}
				if (!Double.isNaN(value)) {
					sample.accept(labels, value);
				}
			}
		}

	}

}
