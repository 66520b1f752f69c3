package org.poollab.bench.deploy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.poollab.bench.grid.Requests;
import org.poollab.bench.lab.BenchSettingException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A team's service is ready to be swept when its actuator says so: {@code health} UP, a
 * HikariCP pool in {@code prometheus}, the pool chosen when there are several, and its
 * GET requests served. What is missing is said in one line naming what to add. The
 * service here is a stand-in whose endpoints each test sets ({@code 404} when unset).
 */
class ReadinessTests {

	private static final String ONE_POOL = """
			# TYPE hikaricp_connections_max gauge
			hikaricp_connections_max{pool="HikariPool-1"} 10.0
			hikaricp_connections_usage_seconds_count{pool="HikariPool-1"} 0.0
			hikaricp_connections_usage_seconds_sum{pool="HikariPool-1"} 0.0
			""";

	private final Map<String, String[]> answers = new ConcurrentHashMap<>();

	private final ByteArrayOutputStream console = new ByteArrayOutputStream();

	private HttpServer service;

	private String base;

	@BeforeEach
	void startTheStandIn() throws IOException {
		this.service = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.service.createContext("/", (exchange) -> {
			String[] answer = this.answers.getOrDefault(exchange.getRequestURI().toString(),
					new String[] { "404", "{}" });
			byte[] body = answer[1].getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(Integer.parseInt(answer[0]), body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		this.service.start();
		this.base = "http://127.0.0.1:" + this.service.getAddress().getPort();
	}

	@AfterEach
	void stop() {
		this.service.stop(0);
	}

	private void answer(String path, int status, String body) {
		this.answers.put(path, new String[] { String.valueOf(status), body });
	}

	private void upWith(String prometheus) {
		answer("/actuator/health", 200, "{\"status\":\"UP\"}");
		answer("/actuator/prometheus", 200, prometheus);
		answer("/vets", 200, "[]");
	}

	private ExternalTarget.Ready ready(Optional<String> poolName) throws InterruptedException {
		ExternalTarget target = ExternalTarget
			.of(List.of(this.base), List.of(this.base + "/actuator"), "true {poolSize}", Duration.ofSeconds(5), false,
					Optional.empty())
			.serving(Optional.of(Requests.parse(List.of("GET /vets ; 3", "POST /owners"), Path.of(""))), poolName);
		return target.requireReady(new PrintStream(this.console, true, StandardCharsets.UTF_8));
	}

	private String printed() {
		return this.console.toString(StandardCharsets.UTF_8);
	}

	@Test
	void aServiceWhoseHealthIsUpWithOnePoolIsReadyAtItsSize() throws Exception {
		upWith(ONE_POOL);

		ExternalTarget.Ready ready = ready(Optional.empty());

		assertThat(ready.sizes()).containsExactly(10);
		assertThat(ready.target().pool(0)).contains("HikariPool-1");
		assertThat(printed()).contains("health UP", "Target " + this.base + " answers (GET /vets: HTTP 200)")
			.doesNotContain("POST");
	}

	@Test
	void aHealthThatSaysDownIsRefusedInOneLine() {
		upWith(ONE_POOL);
		answer("/actuator/health", 503, "{\"status\":\"DOWN\"}");

		assertThatExceptionOfType(BenchSettingException.class).isThrownBy(() -> ready(Optional.empty()))
			.withMessage(
					"bench.actuators=%s/actuator says the service is not ready (%s/actuator/health: HTTP 503, status DOWN): the lab sweeps a service whose health is UP. Nothing was started.",
					this.base, this.base);
	}

	@Test
	void noActuatorIsRefusedNamingTheStarterAndTheExposure() {
		assertThatExceptionOfType(BenchSettingException.class).isThrownBy(() -> ready(Optional.empty()))
			.withMessageContaining("has no health endpoint")
			.withMessageContaining("spring-boot-starter-actuator")
			.withMessageContaining("management.endpoints.web.exposure.include=health,prometheus")
			.withMessageNotContaining("\n");
	}

	@Test
	void noPrometheusEndpointIsRefusedNamingTheRegistryAndTheExposure() {
		upWith(ONE_POOL);
		this.answers.remove("/actuator/prometheus");

		assertThatExceptionOfType(BenchSettingException.class).isThrownBy(() -> ready(Optional.empty()))
			.withMessageContaining("has no prometheus endpoint")
			.withMessageContaining("micrometer-registry-prometheus")
			.withMessageContaining("management.endpoints.web.exposure.include")
			.withMessageNotContaining("\n");
	}

	@Test
	void anExpositionWithoutTheGaugeIsRefusedNamingTheRegistryAndTheExposure() {
		upWith("jvm_threads_live_threads 30.0\n");

		assertThatExceptionOfType(BenchSettingException.class).isThrownBy(() -> ready(Optional.empty()))
			.withMessageContaining("does not expose hikaricp_connections_max")
			.withMessageContaining("micrometer-registry-prometheus")
			.withMessageContaining("management.endpoints.web.exposure.include")
			.withMessageNotContaining("\n");
	}

	@Test
	void ofSeveralPoolsTheFirstByNameIsTakenAndSaid() throws Exception {
		upWith("""
				hikaricp_connections_max{pool="reporting"} 4.0
				hikaricp_connections_max{pool="orders"} 12.0
				""");

		ExternalTarget.Ready ready = ready(Optional.empty());

		assertThat(ready.sizes()).containsExactly(12);
		assertThat(ready.target().pool(0)).contains("orders");
		assertThat(printed()).contains("shows 2 HikariCP pools [orders, reporting]: sweeping orders")
			.contains("-Dbench.poolName");
	}

	@Test
	void thePoolNameChoosesOneOfSeveral() throws Exception {
		upWith("""
				hikaricp_connections_max{pool="reporting"} 4.0
				hikaricp_connections_max{pool="orders"} 12.0
				""");

		ExternalTarget.Ready ready = ready(Optional.of("reporting"));

		assertThat(ready.sizes()).containsExactly(4);
		assertThat(ready.target().pool(0)).contains("reporting");
		assertThat(printed()).doesNotContain("sweeping orders");
	}

	@Test
	void aPoolNameTheActuatorDoesNotShowIsRefusedWithThePoolsItShows() {
		upWith(ONE_POOL);

		assertThatExceptionOfType(BenchSettingException.class).isThrownBy(() -> ready(Optional.of("orders")))
			.withMessageStartingWith("bench.poolName=orders is not allowed: ")
			.withMessageContaining("[HikariPool-1]");
	}

	@Test
	void withoutTheUsageHistogramTheRunSaysWhichPropertyTurnsItOn() throws Exception {
		upWith(ONE_POOL);

		ready(Optional.empty());

		assertThat(printed()).contains("its p99 is not measured (no histogram buckets)")
			.contains("management.metrics.distribution.percentiles-histogram.hikaricp.connections.usage=true");
	}

	@Test
	void withTheUsageHistogramThePointsHoldP99IsReadFromItsBuckets() throws Exception {
		upWith(ONE_POOL + "hikaricp_connections_usage_seconds_bucket{pool=\"HikariPool-1\",le=\"+Inf\"} 0.0\n");

		ready(Optional.empty());

		assertThat(printed()).contains("p99 from its buckets").doesNotContain("not measured");
	}

	@Test
	void aGetTheTargetAnswersWith404IsAWrongTargetRefusedNamingThePathAndTheStatus() {
		upWith(ONE_POOL);
		this.answers.remove("/vets");

		assertThatExceptionOfType(BenchSettingException.class).isThrownBy(() -> ready(Optional.empty()))
			.withMessageStartingWith("bench.targets=" + this.base + " answers GET /vets with HTTP 404: ")
			.withMessageContaining("not a pool size")
			.withMessageNotContaining("\n");
	}

	@Test
	void thePoolSizeIsProvenFromTheChosenPoolOnly() throws Exception {
		upWith("""
				hikaricp_connections_max{pool="reporting"} 4.0
				hikaricp_connections_max{pool="orders"} 12.0
				""");
		ExternalTarget target = ready(Optional.of("reporting")).target();

		assertThat(target.poolSize(0)).hasValue(4);
	}

	@Test
	void eachInstanceKeepsItsOwnPoolWhenTheirNamesDiffer() throws Exception {
		upWith("hikaricp_connections_max{pool=\"roles-8081\"} 3.0\n");
		answer("/b/actuator/health", 200, "{\"status\":\"UP\"}");
		answer("/b/actuator/prometheus", 200, "hikaricp_connections_max{pool=\"roles-8082\"} 3.0\n");
		ExternalTarget target = ExternalTarget
			.of(List.of(this.base), List.of(this.base + "/actuator", this.base + "/b/actuator"), "true {poolSize}",
					Duration.ofSeconds(5), false, Optional.empty())
			.serving(Optional.empty(), Optional.empty());
		answer("/roles", 200, "[]");

		ExternalTarget ready = target.requireReady(new PrintStream(this.console, true, StandardCharsets.UTF_8))
			.target();

		assertThat(ready.pool(0)).contains("roles-8081");
		assertThat(ready.pool(1)).contains("roles-8082");
		assertThat(ready.poolSize(1)).hasValue(3);
		assertThat(printed()).contains("pools [roles-8081, roles-8082], sizes now [3, 3]");
	}

}
