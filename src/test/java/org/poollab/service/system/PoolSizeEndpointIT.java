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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import org.poollab.service.ServiceApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * The opt-in resize endpoint changes the live pool: the new size shows in HikariCP's
 * metric and in the number of PostgreSQL backends the instance holds; growing keeps the
 * connections the pool has, and the endpoint is only served on a loopback address.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "lab.pool-resize.enabled=true", "spring.datasource.hikari.maximum-pool-size=2",
				"spring.datasource.hikari.data-source-properties.ApplicationName=resize-test" })
class PoolSizeEndpointIT {

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
	void refusesToStartOnANonLoopbackAddress() {
		assertThatException()
			.isThrownBy(
					() -> SpringApplication
						.run(ServiceApplication.class, "--server.port=0", "--lab.pool-resize.enabled=true",
								"--server.address=0.0.0.0")
						.close())
			.withStackTraceContaining("lab.pool-resize.enabled=true needs server.address to be a loopback address");
	}

	@Test
	void resizesThroughASeparateManagementPort() throws Exception {
		try (ConfigurableApplicationContext instance = SpringApplication.run(ServiceApplication.class,
				"--server.port=0", "--management.server.port=0", "--management.server.address=127.0.0.1",
				"--lab.pool-resize.enabled=true", "--spring.datasource.hikari.maximum-pool-size=2")) {
			int serverPort = Integer.parseInt(instance.getEnvironment().getProperty("local.server.port"));
			int managementPort = Integer.parseInt(instance.getEnvironment().getProperty("local.management.port"));
			assertThat(managementPort).isNotEqualTo(serverPort);

			HttpResponse<String> grown = send(post(managementPort, 4));
			assertThat(grown.statusCode()).as(grown.body()).isEqualTo(200);
			assertThat(grown.body()).contains("\"maximumPoolSize\":4", "\"total\":4");
			assertThat(instance.getBean(HikariDataSource.class).getHikariPoolMXBean().getTotalConnections())
				.isEqualTo(4);
			assertThat(send(post(serverPort, 3)).statusCode()).as("not on the application's port").isEqualTo(404);
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
	 * @param json the size as it appears in the JSON body, e.g. {@code 8} or
	 * {@code "ten"}
	 */
	private static HttpRequest post(int port, String json) {
		return HttpRequest.newBuilder(uri(port, "/actuator/poolsize"))
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"maximumPoolSize\":" + json + "}"))
			.build();
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
