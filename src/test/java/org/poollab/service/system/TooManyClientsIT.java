package org.poollab.service.system;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A database at its connection limit is reported as such ("too many clients"), both to a
 * request and to the resize the sweep makes, not as a generic error.
 */
// The database closes in @AfterAll: close the context with it, or its pool retries a dead
// port for the rest of the test JVM, its stack traces in later tests' output.
@DirtiesContext
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.datasource.hikari.maximum-pool-size=2",
				"spring.datasource.hikari.connection-timeout=500", "lab.pool-resize.enabled=true" })
class TooManyClientsIT {

	/** Six slots, none reserved: the service takes two, the test the other four. */
	private static final int MAX_CONNECTIONS = 6;

	private static EmbeddedPostgres postgres;

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private DataSource dataSource;

	@Autowired
	private MeterRegistry registry;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) throws IOException {
		postgres = EmbeddedPostgres.builder()
			.setServerConfig("max_connections", String.valueOf(MAX_CONNECTIONS))
			.setServerConfig("superuser_reserved_connections", "0")
			.start();
		registry.add("spring.datasource.url", () -> postgres.getJdbcUrl("postgres", "postgres"));
		registry.add("spring.datasource.username", () -> "postgres");
	}

	@AfterAll
	static void stopDatabase() throws IOException {
		postgres.close();
	}

	@Test
	void databaseAtItsLimitIsNamedToRequestsAndToTheResize() throws Exception {
		double tooManyBefore = refused("too-many-clients");
		double othersBefore = refused("pool-timeout") + refused("database-unavailable");
		List<Connection> others = new ArrayList<>();
		try (Connection first = this.dataSource.getConnection(); Connection second = this.dataSource.getConnection()) {
			while (others.size() < MAX_CONNECTIONS - 2) {
				others.add(DriverManager.getConnection(postgres.getJdbcUrl("postgres", "postgres")));
			}
			HttpResponse<String> grow = send(HttpRequest.newBuilder(uri("/actuator/poolsize"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString("{\"maximumPoolSize\":4}"))
				.build());
			assertThat(grow.statusCode()).isEqualTo(503);
			assertThat(grow.body()).contains("could not open 4 connections", "too many clients");

			HttpResponse<String> request = send(HttpRequest.newBuilder(uri("/roles")).build());
			assertThat(request.statusCode()).isEqualTo(503);
			assertThat(request.body()).contains("\"title\":\"Database at its connection limit (too many clients)\"",
					"too many clients");
		}
		finally {
			for (Connection other : others) {
				other.close();
			}
		}
		assertThat(send(HttpRequest.newBuilder(uri("/roles")).build()).statusCode()).isEqualTo(200);
		// The resize's 503 is the endpoint's own answer, not a refused request.
		assertThat(refused("too-many-clients") - tooManyBefore).as("the one refusal counted as too-many-clients")
			.isEqualTo(1);
		assertThat(refused("pool-timeout") + refused("database-unavailable")).as("no refusal of another kind")
			.isEqualTo(othersBefore);
	}

	private double refused(String reason) {
		return this.registry.get(DatabaseUnavailableAdvice.REFUSED_METRIC).tag("reason", reason).counter().count();
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	private HttpResponse<String> send(HttpRequest request) throws Exception {
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
