package org.poollab.service.role;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;
import org.poollab.service.hold.ConnectionHold;
import org.poollab.service.hold.HoldPadding;
import org.poollab.service.hold.HoldProperties;
import org.poollab.service.hold.HoldScrape;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole service on the embedded PostgreSQL it starts by itself, as a newcomer runs
 * it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class RolesEndToEndIT {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private RoleRepository roles;

	@Autowired
	private HoldProperties holdSettings;

	@Test
	void seedDataHasTwentyRolesWithTenPermissionsEach() {
		List<Role> all = this.roles.findAll();
		assertThat(all).hasSize(20);
		assertThat(all).allSatisfy((role) -> assertThat(role.permissions()).hasSize(10));
		assertThat(all.stream().flatMap((role) -> role.permissions().stream()).distinct()).hasSize(100);
	}

	@Test
	void findByIdReadsOneRoleWithItsPermissions() {
		Role admin = this.roles.findById(1).orElseThrow();
		assertThat(admin.name()).isEqualTo("admin");
		assertThat(admin.permissions()).extracting(Permission::id)
			.containsExactly(7L, 17L, 27L, 37L, 47L, 57L, 67L, 77L, 87L, 97L);
		assertThat(this.roles.findById(21)).isEmpty();
	}

	@Test
	void rolesEndpointServesJsonFromPostgres() throws Exception {
		HttpResponse<String> response = get("/roles");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
		assertThat(response.body()).startsWith("[{\"id\":1,\"name\":\"admin\"").contains("\"webhooks:export\"");
	}

	@Test
	void actuatorExposesExactlyHealthMetricsAndPrometheus() throws Exception {
		HttpResponse<String> actuator = get("/actuator");
		assertThat(actuator.statusCode()).isEqualTo(200);
		Map<String, Object> links = JsonPath.read(actuator.body(), "$._links");
		// An allowlist: any endpoint exposed by a new dependency or a changed include
		// fails here, not only the ones someone thought to list.
		assertThat(links).containsOnlyKeys("self", "health", "health-path", "metrics", "metrics-requiredMetricName",
				"prometheus");
		assertThat(get("/actuator/env").statusCode()).isEqualTo(404);
		assertThat(get("/actuator/poolsize").statusCode()).isEqualTo(404);
	}

	@Test
	void healthIncludesTheDatabase() throws Exception {
		HttpResponse<String> health = get("/actuator/health");
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat((String) JsonPath.read(health.body(), "$.components.db.status")).isEqualTo("UP");
		assertThat((String) JsonPath.read(health.body(), "$.components.db.details.database")).isEqualTo("PostgreSQL");
	}

	@Test
	void poolMetricsAreExportedPerInstanceWithAcquireHistogram() throws Exception {
		get("/roles");
		String prometheus = get("/actuator/prometheus").body();
		assertThat(prometheus).contains("hikaricp_connections_max{pool=\"roles-0\"} 10.0",
				"hikaricp_connections_acquire_seconds_bucket{pool=\"roles-0\",le=",
				"hikaricp_connections_usage_seconds_bucket{pool=\"roles-0\",le=", "hikaricp_connections_pending",
				"hikaricp_connections_timeout_total", "http_server_requests_seconds_count");
	}

	@Test
	void requestLatencyIsExportedAsAHistogramFromAQuarterMillisecondToTenSeconds() throws Exception {
		get("/roles");
		String prometheus = get("/actuator/prometheus").body();
		// The sweep reads these buckets (bench.telemetry.PoolSnapshot) by uri and status.
		String roles = "http_server_requests_seconds_bucket{error=\"none\",exception=\"none\",method=\"GET\","
				+ "outcome=\"SUCCESS\",status=\"200\",uri=\"/roles\",le=";
		assertThat(prometheus).contains(roles + "\"2.5E-4\"} ", roles + "\"10.0\"} ", roles + "\"+Inf\"} ");
		assertThat(prometheus.lines().filter((line) -> line.startsWith(roles))).hasSize(70);
		assertThat(prometheus).as("no histogram for the requests in flight")
			.doesNotContain("http_server_requests_active_seconds_bucket");
	}

	@Test
	void everyRequestsHoldIsTimedAndNoneIsEmulatedUnlessAsked() throws Exception {
		for (int i = 0; i < 60; i++) {
			get("/roles"); // past the first, interpreted requests
		}
		HoldScrape before = HoldScrape.of(get("/actuator/prometheus").body());
		for (int i = 0; i < 20; i++) {
			assertThat(get("/roles").statusCode()).isEqualTo(200);
		}
		String prometheus = get("/actuator/prometheus").body();
		HoldScrape holds = HoldScrape.of(prometheus).since(before);
		assertThat(holds.count()).isEqualTo(20);
		// None emulated: the service was built without padding (lab.hold.* unset), and a
		// manager without padding issues no sleep and never waits
		// (HoldTransactionManagerTests.withoutAHoldNothingWaits). A bound on the median
		// hold said the same by time, and failed on a busy machine (5.6 ms at load 14,
		// 2026-11-28): the statement alone can take that long there. RolesOnMariaDbIT
		// shows an asked hold on the request path.
		assertThat(this.holdSettings.hold()).as("lab.hold.* unset").isEmpty();
		assertThat(HoldPadding.of(this.holdSettings)).as("padding").isEmpty();
		assertThat(this.holdSettings.cpu()).as("lab.hold.cpu unset").isNull();
		String bucket = ConnectionHold.PROMETHEUS_NAME + "_bucket{le=";
		assertThat(prometheus).contains(bucket + "\"1.0E-5\"} ", bucket + "\"10.0\"} ", bucket + "\"+Inf\"} ");
	}

	@Test
	void refusalCountersExistForEveryReasonBeforeAnyRefusal() throws Exception {
		// The sweep takes deltas over each window: a counter that only appeared with its
		// first refusal would have no value to subtract at the window's start.
		assertThat(get("/actuator/prometheus").body()).contains(
				"roles_requests_refused_total{reason=\"too-many-clients\"} 0.0",
				"roles_requests_refused_total{reason=\"pool-timeout\"} 0.0",
				"roles_requests_refused_total{reason=\"database-unavailable\"} 0.0");
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

}
