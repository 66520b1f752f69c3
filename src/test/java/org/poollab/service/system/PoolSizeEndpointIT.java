package org.poollab.service.system;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import org.poollab.service.ServiceApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The opt-in resize endpoint changes the live pool: the new size shows in HikariCP's
 * metric and in the number of PostgreSQL backends the instance holds; growing keeps the
 * connections the pool has. With a token set, a write without it is refused (401) and one
 * with another token too (403), changing nothing, while reads, metrics and the public API
 * need none: here on the application's port (loopback), and on a management port of its
 * own. Where the endpoint may start at all is {@link PoolResizeTests}' (no server there).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "lab.pool-resize.enabled=true", "spring.datasource.hikari.maximum-pool-size=2",
				"spring.datasource.hikari.data-source-properties.ApplicationName=resize-test",
				ResizeToken.PROPERTY + "=" + PoolSizeEndpointIT.TOKEN })
class PoolSizeEndpointIT {

	/** Not a secret: this test's token. */
	static final String TOKEN = "poolsize-it-token-0123456789";

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private JdbcClient jdbc;

	@Autowired
	private HikariDataSource dataSource;

	@Autowired
	private ApplicationContext context;

	@Test
	void growingKeepsTheConnectionsAndShrinkingShowsInMetricsAndBackends() throws Exception {
		int sizeBefore = this.dataSource.getHikariConfigMXBean().getMaximumPoolSize();
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(backends()).hasSize(sizeBefore));
		List<Integer> backendsBefore = backends();

		HttpResponse<String> grown = send(post(this.port, 6));
		assertThat(grown.statusCode()).isEqualTo(200);
		assertThat(grown.body()).as("returned once the pool holds the new size")
			.contains("\"maximumPoolSize\":6", "\"minimumIdle\":6", "\"total\":6");
		// A closed connection's backend may take a moment to leave pg_stat_activity.
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(backends()).hasSize(6));
		assertThat(backends()).as("growing evicted nothing").containsAll(backendsBefore);
		// HikariCP refreshes the statistics behind its gauges at most once a second.
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(prometheus()).contains("hikaricp_connections_max{pool=\"roles-0\"} 6.0"));

		HttpResponse<String> shrunk = send(post(this.port, 3));
		assertThat(shrunk.statusCode()).isEqualTo(200);
		assertThat(shrunk.body()).contains("\"maximumPoolSize\":3", "\"minimumIdle\":3", "\"total\":3");
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(prometheus()).contains("hikaricp_connections_max{pool=\"roles-0\"} 3.0"));
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(backends()).hasSize(3));
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
			0       | 0
			-1      | -1
			1001    | 1001
			"ten"   | ten
			2.5     | 2.5
			""")
	void sizesOutsideTheAllowedRangeAreRefusedNamingFieldValueAndRangeAndChangeNothing(String json, String value)
			throws Exception {
		int maximumBefore = this.dataSource.getHikariConfigMXBean().getMaximumPoolSize();
		HttpResponse<String> response = send(post(this.port, json));
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat((String) JsonPath.read(response.body(), "$.detail"))
			.isEqualTo("maximumPoolSize=" + value + " is not allowed: use a whole number from 1 to 1000");
		assertThat((String) JsonPath.read(response.body(), "$.type")).isEqualTo("urn:poollab:invalid-pool-size");
		assertThat((Integer) JsonPath.read(response.body(), "$.status")).isEqualTo(400);
		assertThat((String) JsonPath.read(response.body(), "$.field")).isEqualTo("maximumPoolSize");
		assertThat((String) JsonPath.read(response.body(), "$.value")).isEqualTo(value);
		assertThat((Integer) JsonPath.read(response.body(), "$.minimum")).isEqualTo(1);
		assertThat((Integer) JsonPath.read(response.body(), "$.maximum")).isEqualTo(1000);
		assertThat(this.dataSource.getHikariConfigMXBean().getMaximumPoolSize()).isEqualTo(maximumBefore);
		assertThat((Integer) JsonPath.read(send(get(this.port, "/actuator/poolsize")).body(), "$.maximumPoolSize"))
			.isEqualTo(maximumBefore);
	}

	@Test
	void reportsTheRunningPoolsSettingsByTheirSpringNames() throws Exception {
		// application.yml's values, and the size this test starts with.
		String body = send(get(this.port, "/actuator/poolsize")).body();
		assertThat((Integer) JsonPath.read(body, "$.settings.maximum-pool-size"))
			.isEqualTo(this.dataSource.getHikariConfigMXBean().getMaximumPoolSize());
		assertThat((Integer) JsonPath.read(body, "$.settings.connection-timeout")).isEqualTo(2000);
		assertThat((Integer) JsonPath.read(body, "$.settings.validation-timeout")).isEqualTo(1000);
		assertThat((Integer) JsonPath.read(body, "$.settings.max-lifetime")).isEqualTo(1_800_000);
		assertThat((Integer) JsonPath.read(body, "$.settings.keepalive-time")).isEqualTo(120_000);
		assertThat((Integer) JsonPath.read(body, "$.settings.leak-detection-threshold")).isZero();
	}

	@Test
	void onlyTheServicesOwnEndpointIsScanned() {
		assertThat(this.context.getBeansWithAnnotation(Endpoint.class).values())
			.extracting((bean) -> bean.getClass().getName())
			.contains(PoolSizeEndpoint.class.getName())
			.noneMatch((name) -> name.startsWith("org.poollab.reactive."));
	}

	@Test
	void writesWithoutTheTokenAreRefusedAndChangeNothing() throws Exception {
		int maximumBefore = this.dataSource.getHikariConfigMXBean().getMaximumPoolSize();
		int resized = maximumBefore + 1;

		HttpResponse<String> missing = send(post(this.port, String.valueOf(resized), null));
		assertThat(missing.statusCode()).isEqualTo(401);
		assertThat(missing.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"poolsize\"");
		assertThat(missing.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat((String) JsonPath.read(missing.body(), "$.detail"))
			.isEqualTo("Changing the pool size needs the header Authorization: Bearer <lab.pool-resize.token>");

		HttpResponse<String> wrong = send(post(this.port, String.valueOf(resized), "another-token-0123456789"));
		assertThat(wrong.statusCode()).isEqualTo(403);
		assertThat((String) JsonPath.read(wrong.body(), "$.detail"))
			.isEqualTo("The bearer token is not lab.pool-resize.token");
		assertThat(missing.body() + wrong.body()).doesNotContain(TOKEN);

		assertThat(this.dataSource.getHikariConfigMXBean().getMaximumPoolSize()).isEqualTo(maximumBefore);
		assertThat((Integer) JsonPath.read(send(get(this.port, "/actuator/poolsize")).body(), "$.maximumPoolSize"))
			.isEqualTo(maximumBefore);
	}

	@Test
	void readsMetricsAndThePublicApiNeedNoToken() throws Exception {
		for (String path : List.of("/actuator/poolsize", "/actuator/prometheus", "/actuator/health", "/roles")) {
			HttpResponse<String> read = send(get(this.port, path));
			assertThat(read.statusCode()).as(path).isEqualTo(200);
			assertThat(read.body()).as(path).doesNotContain(TOKEN);
		}
		assertThat(prometheus()).contains("hikaricp_connections_max{pool=\"roles-0\"}");
		HttpResponse<String> audit = send(
				HttpRequest.newBuilder(uri(this.port, "/roles/3/audit")).POST(BodyPublishers.noBody()).build());
		assertThat(audit.statusCode()).as("the public API's write workload").isEqualTo(201);
		// Not exposed: they would list the settings, the token's among them.
		for (String path : List.of("/actuator/env", "/actuator/configprops")) {
			assertThat(send(get(this.port, path)).statusCode()).as(path).isEqualTo(404);
		}
	}

	@Test
	void resizesThroughASeparateManagementPortWithTheToken() throws Exception {
		// The token as a default property, not an argument: application.yml leaves it
		// unset.
		try (ConfigurableApplicationContext instance = new SpringApplicationBuilder(ServiceApplication.class)
			.properties(ResizeToken.PROPERTY + "=" + TOKEN)
			.run("--server.port=0", "--management.server.port=0", "--management.server.address=127.0.0.1",
					"--lab.pool-resize.enabled=true", "--spring.datasource.hikari.maximum-pool-size=2")) {
			int serverPort = Integer.parseInt(instance.getEnvironment().getProperty("local.server.port"));
			int managementPort = Integer.parseInt(instance.getEnvironment().getProperty("local.management.port"));
			assertThat(managementPort).isNotEqualTo(serverPort);
			HikariDataSource pool = instance.getBean(HikariDataSource.class);

			assertThat(send(post(managementPort, "4", null)).statusCode()).isEqualTo(401);
			assertThat(send(post(managementPort, "4", "another-token-0123456789")).statusCode()).isEqualTo(403);
			assertThat(pool.getHikariConfigMXBean().getMaximumPoolSize()).isEqualTo(2);
			assertThat(send(get(managementPort, "/actuator/poolsize")).statusCode()).isEqualTo(200);
			assertThat(send(get(managementPort, "/actuator/prometheus")).statusCode()).isEqualTo(200);

			HttpResponse<String> grown = send(post(managementPort, 4));
			assertThat(grown.statusCode()).as(grown.body()).isEqualTo(200);
			assertThat(grown.body()).contains("\"maximumPoolSize\":4", "\"total\":4");
			assertThat(pool.getHikariPoolMXBean().getTotalConnections()).isEqualTo(4);
			assertThat(send(post(serverPort, 3)).statusCode()).as("not on the application's port").isEqualTo(404);
			assertThat(pool.getHikariConfigMXBean().getMaximumPoolSize()).isEqualTo(4);
		}
	}

	/**
	 * @return the process ids of the backends the pool holds
	 */
	private List<Integer> backends() {
		return this.jdbc.sql("SELECT pid FROM pg_stat_activity WHERE application_name = 'resize-test'")
			.query(Integer.class)
			.list();
	}

	private String prometheus() throws Exception {
		return send(get(this.port, "/actuator/prometheus")).body();
	}

	private static HttpRequest post(int port, int size) {
		return post(port, String.valueOf(size));
	}

	/**
	 * With this test's token.
	 * @param json the size as it appears in the JSON body, e.g. {@code 8} or
	 * {@code "ten"}
	 */
	private static HttpRequest post(int port, String json) {
		return post(port, json, TOKEN);
	}

	/**
	 * @param token the bearer token to send, {@code null} for none
	 */
	private static HttpRequest post(int port, String json, @Nullable String token) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(port, "/actuator/poolsize"))
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"maximumPoolSize\":" + json + "}"));
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		return request.build();
	}

	private static HttpRequest get(int port, String path) {
		return HttpRequest.newBuilder(uri(port, path)).build();
	}

	private static URI uri(int port, String path) {
		return URI.create("http://127.0.0.1:" + port + path);
	}

	private HttpResponse<String> send(HttpRequest request) throws Exception {
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
