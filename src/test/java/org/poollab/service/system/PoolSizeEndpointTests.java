package org.poollab.service.system;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.poollab.service.ServiceApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * The opt-in resize endpoint changes the live pool: the new size shows in HikariCP's
 * metric and in the number of PostgreSQL backends the instance holds.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "lab.pool-resize.enabled=true", "spring.datasource.hikari.maximum-pool-size=2",
				"spring.datasource.hikari.data-source-properties.ApplicationName=resize-test" })
class PoolSizeEndpointTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private JdbcClient jdbc;

	@Test
	void growingAndShrinkingShowsInMetricsAndBackends() throws Exception {
		assertThat(send(post(6)).statusCode()).isEqualTo(200);
		assertThat(backends()).as("filled before the resize returned").isEqualTo(6);
		// HikariCP refreshes the statistics behind its gauges at most once a second.
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(prometheus()).contains("hikaricp_connections_max{pool=\"roles-0\"} 6.0"));

		HttpResponse<String> shrunk = send(post(3));
		assertThat(shrunk.body()).contains("\"maximumPoolSize\":3", "\"minimumIdle\":3");
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(prometheus()).contains("hikaricp_connections_max{pool=\"roles-0\"} 3.0"));
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(backends()).isEqualTo(3));
	}

	@Test
	void sizesOutsideTheAllowedRangeAreRefused() throws Exception {
		HttpResponse<String> response = send(post(0));
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(prometheus()).doesNotContain("hikaricp_connections_max{pool=\"roles-0\"} 0.0");
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

	private int backends() {
		return this.jdbc.sql("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'resize-test'")
			.query(Integer.class)
			.single();
	}

	private String prometheus() throws Exception {
		return send(get("/actuator/prometheus")).body();
	}

	private HttpRequest post(int size) {
		return HttpRequest.newBuilder(uri("/actuator/poolsize"))
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString("{\"maximumPoolSize\":" + size + "}"))
			.build();
	}

	private HttpRequest get(String path) {
		return HttpRequest.newBuilder(uri(path)).build();
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	private HttpResponse<String> send(HttpRequest request) throws Exception {
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
