package org.poollab.bench.deploy;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.poollab.bench.grid.Requests;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.service.hold.ConnectionHold;

/**
 * Whether a deployment the lab did not start can be swept, as the service itself says:
 * its actuator's {@code health} and {@code prometheus} endpoints, and its targets'
 * answers to the requests the pre-flight may send. Each refusal is one line naming the
 * setting, the URL and what to add.
 */
final class Readiness {

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** The request that shows a target serves the lab's own service's load. */
	private static final String LAB_PROBE = "/roles";

	private final ExternalTarget target;

	private final PrintStream out;

	Readiness(ExternalTarget target, PrintStream out) {
		this.target = target;
		this.out = out;
	}

	/**
	 * Readiness as the service itself reports it: its actuator's {@code health}, which
	 * answers 200 with UP, and 503 with DOWN or OUT_OF_SERVICE.
	 */
	void requireUp(int instance) throws InterruptedException {
		URI health = this.target.actuator(instance, "health");
		HttpResponse<String> response;
		try {
			response = HTTP.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(5)).build(),
					HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new BenchSettingException("bench.actuators=%s does not answer: %s. Nothing was started."
				.formatted(this.target.actuators().get(instance), ExternalTarget.describe(ex)));
		}
		String status = status(response.body());
		if (response.statusCode() == 404) {
			throw new BenchSettingException(
					"bench.actuators=%s has no health endpoint (%s: HTTP 404): add spring-boot-starter-actuator and expose it with management.endpoints.web.exposure.include=health,prometheus. Nothing was started."
						.formatted(this.target.actuators().get(instance), health));
		}
		if (response.statusCode() != 200 || !"UP".equals(status)) {
			throw new BenchSettingException(
					"bench.actuators=%s says the service is not ready (%s: HTTP %d, status %s): the lab sweeps a service whose health is UP. Nothing was started."
						.formatted(this.target.actuators().get(instance), health, response.statusCode(),
								(status != null) ? status : "not given"));
		}
		this.out.printf(Locale.ROOT, "Actuator %s: health UP.%n", this.target.actuators().get(instance));
	}

	private static @Nullable String status(String body) {
		try {
			JsonNode status = JSON.readTree(body).get("status");
			return (status != null && status.isString()) ? status.asString() : null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	String prometheus(int instance) throws InterruptedException {
		URI endpoint = this.target.actuator(instance, "prometheus");
		HttpResponse<String> response;
		try {
			response = HTTP.send(HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(5)).build(),
					HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new BenchSettingException("bench.actuators=%s does not answer: %s. Nothing was started."
				.formatted(this.target.actuators().get(instance), ExternalTarget.describe(ex)));
		}
		if (response.statusCode() != 200) {
			throw new BenchSettingException(
					"bench.actuators=%s has no prometheus endpoint (%s: HTTP %d): %s. Nothing was started.".formatted(
							this.target.actuators().get(instance), endpoint, response.statusCode(),
							ExternalTarget.PROMETHEUS_HINT));
		}
		return response.body();
	}

	/**
	 * The pool this sweep proves and resizes: {@code bench.poolName}, else the only one,
	 * else the first by name, which the console names with the others.
	 */
	String choosePool(int instance, Map<String, Integer> pools) {
		if (this.target.poolName().isPresent()) {
			if (!pools.containsKey(this.target.poolName().get())) {
				throw new BenchSettingException(
						"bench.poolName=%s is not allowed: %s shows the HikariCP pools %s. Use one of them (the pool tag of hikaricp_connections_max). Nothing was started."
							.formatted(this.target.poolName().get(), this.target.actuator(instance, "prometheus"),
									pools.keySet()));
			}
			return this.target.poolName().get();
		}
		String first = pools.keySet().iterator().next();
		if (pools.size() > 1) {
			this.out.printf(Locale.ROOT,
					"Actuator %s shows %d HikariCP pools %s: sweeping %s, the first by name; choose another with -Dbench.poolName.%n",
					this.target.actuators().get(instance), pools.size(), pools.keySet(), first);
		}
		return first;
	}

	/**
	 * Says where each point's hold comes from, and what its p99 needs when the pool's
	 * usage timer has no histogram: the lab's own service times every hold itself
	 * ({@link ConnectionHold}); a team's app has HikariCP's
	 * {@code hikaricp_connections_usage_seconds}, whose buckets Micrometer publishes only
	 * when asked.
	 */
	void describeHold(int instance, String exposition, String pool) {
		if (exposition.contains(ConnectionHold.PROMETHEUS_NAME + "_bucket")) {
			return;
		}
		boolean buckets = exposition.lines()
			.anyMatch((line) -> line.startsWith("hikaricp_connections_usage_seconds_bucket{")
					&& line.contains("pool=\"" + pool + "\""));
		if (buckets) {
			this.out.printf(Locale.ROOT,
					"Actuator %s: each point's hold from hikaricp_connections_usage_seconds (mean from _sum and _count, p99 from its buckets).%n",
					this.target.actuators().get(instance));
		}
		else {
			this.out.printf(Locale.ROOT,
					"Actuator %s: each point's hold mean from hikaricp_connections_usage_seconds _sum and _count; its p99 is not measured (no histogram buckets): turn them on with %s.%n",
					this.target.actuators().get(instance), ExternalTarget.HOLD_HISTOGRAM_PROPERTY);
		}
	}

	/**
	 * Sends each request the pre-flight may send (the team's GETs, else the lab's own
	 * {@code GET /roles}) to a target once. A 4xx means the requests are not this
	 * service's, which no pool size changes; anything that answers otherwise serves.
	 */
	void requireServes(URI target) throws InterruptedException {
		List<String> paths = this.target.requests()
			.map((list) -> list.gets().stream().map(Requests.Request::path).toList())
			.orElse(List.of(LAB_PROBE));
		for (String path : paths.isEmpty() ? List.of("/") : paths) {
			HttpResponse<Void> response;
			try {
				response = HTTP.send(
						HttpRequest.newBuilder(URI.create(target + path)).timeout(Duration.ofSeconds(5)).build(),
						HttpResponse.BodyHandlers.discarding());
			}
			catch (IOException ex) {
				throw new BenchSettingException(
						"bench.targets=%s does not answer: %s. Check the URL and that the service runs. Nothing was started."
							.formatted(target, ExternalTarget.describe(ex)));
			}
			int status = response.statusCode();
			if (!paths.isEmpty() && status >= 400 && status < 500) {
				throw new BenchSettingException(
						"bench.targets=%s answers GET %s with HTTP %d: a wrong target or path, not a pool size. Check bench.requests%s. Nothing was started."
							.formatted(target, path, status, this.target.requests().isEmpty()
									? " (unset: the lab's own GET /roles; give your service's requests)" : ""));
			}
			this.out.printf(Locale.ROOT, "Target %s answers (GET %s: HTTP %d).%n", target, path, status);
		}
	}

}
