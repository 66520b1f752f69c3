package org.poollab.service.system;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.poollab.vendor.EmbeddedMariaDbServer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TooManyClientsIT} on MariaDB: a server at its connection limit ("Too many
 * connections", error 1040) is reported and counted as too-many-clients, both to a
 * request and to the resize the sweep makes.
 */
// The database closes in @AfterAll: close the context with it, or its pool retries a dead
// port for the rest of the test JVM, its stack traces in later tests' output.
@DirtiesContext
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "lab.database=mariadb", "spring.datasource.hikari.maximum-pool-size=2",
				"spring.datasource.hikari.connection-timeout=500", "lab.pool-resize.enabled=true" })
class TooManyConnectionsOnMariaDbIT {

	/**
	 * MariaDB's lowest; the server admits one more for an administrator, which every
	 * client is without grant tables, so the test takes what the service leaves until the
	 * server refuses.
	 */
	private static final int MAX_CONNECTIONS = EmbeddedMariaDbServer.MIN_MAX_CONNECTIONS;

	private static EmbeddedMariaDbServer mariadb;

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private DataSource dataSource;

	@Autowired
	private MeterRegistry registry;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		mariadb = EmbeddedMariaDbServer.start(MAX_CONNECTIONS);
		registry.add("spring.datasource.url", mariadb::jdbcUrl);
		registry.add("spring.datasource.username", () -> EmbeddedMariaDbServer.USER);
	}

	@AfterAll
	static void stopDatabase() {
		if (mariadb != null) {
			mariadb.close();
		}
	}

	@Test
	void databaseAtItsLimitIsNamedToRequestsAndToTheResize() throws Exception {
		double tooManyBefore = refused("too-many-clients");
		double othersBefore = refused("pool-timeout") + refused("database-unavailable");
		List<Connection> others = new ArrayList<>();
		try (Connection first = this.dataSource.getConnection(); Connection second = this.dataSource.getConnection()) {
			SQLException refusal = fill(others);
			assertThat(refusal.getErrorCode()).isEqualTo(1040);
			assertThat(refusal.getMessage()).contains("Too many connections");
			assertThat(others).hasSizeGreaterThanOrEqualTo(MAX_CONNECTIONS - 2);

			HttpResponse<String> grow = send(HttpRequest.newBuilder(uri("/actuator/poolsize"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString("{\"maximumPoolSize\":4}"))
				.build());
			assertThat(grow.statusCode()).isEqualTo(503);
			assertThat(grow.body()).contains("could not open 4 connections", "Too many connections");

			HttpResponse<String> request = send(HttpRequest.newBuilder(uri("/roles")).build());
			assertThat(request.statusCode()).isEqualTo(503);
			assertThat(request.body()).contains("\"title\":\"Database at its connection limit (too many clients)\"",
					"Too many connections");
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

	/** Takes connections until the server refuses one, and returns the refusal. */
	private static SQLException fill(List<Connection> others) {
		for (int i = 0; i <= MAX_CONNECTIONS; i++) {
			try {
				others.add(DriverManager.getConnection(mariadb.jdbcUrl(), EmbeddedMariaDbServer.USER, ""));
			}
			catch (SQLException ex) {
				return ex;
			}
		}
		throw new AssertionError("MariaDB took %d connections beside the service's 2 with max_connections %d"
			.formatted(others.size(), MAX_CONNECTIONS));
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
