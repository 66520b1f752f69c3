package org.poollab.service.role;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.poollab.service.ServiceApplication;
import org.poollab.vendor.EmbeddedMariaDbServer;
import org.poollab.service.hold.HoldScrape;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole service on the embedded MariaDB it starts by itself with
 * {@code lab.database=mariadb}: the body PostgreSQL's service answers, a pool of exactly
 * the configured size, and the emulated hold ({@code lab.hold.mean}) spent in MariaDB's
 * {@code SLEEP}. The service on PostgreSQL it is compared with spends the same hold in
 * the application, which no other test's service does.
 */
// The database closes in @AfterAll: close the context with it, or its pool retries a dead
// port for the rest of the test JVM, its stack traces in later tests' output.
@DirtiesContext
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "lab.database=mariadb",
		"spring.datasource.hikari.maximum-pool-size=3", "lab.hold.mean=" + RolesOnMariaDbIT.HOLD_MS + "ms" })
class RolesOnMariaDbIT {

	static final int HOLD_MS = 20;

	private static final int POOL_SIZE = 3;

	private static ConfigurableApplicationContext postgres;

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private EmbeddedMariaDbServer database;

	@BeforeAll
	static void startOnPostgres() {
		postgres = new SpringApplicationBuilder(ServiceApplication.class).run("--server.port=0",
				"--lab.hold.mean=" + HOLD_MS + "ms", "--lab.hold.place=application");
	}

	@AfterAll
	static void stopOnPostgres() {
		if (postgres != null) {
			postgres.close();
		}
	}

	@Test
	void rolesBodyIsTheOneTheServiceOnPostgresAnswers() throws Exception {
		HttpResponse<String> mariadb = get(this.port, "/roles");
		assertThat(mariadb.statusCode()).isEqualTo(200);
		assertThat(mariadb.body()).startsWith("[{\"id\":1,\"name\":\"admin\"").contains("\"webhooks:export\"");
		HttpResponse<String> postgresResponse = get(postgresPort(), "/roles");
		assertThat(postgresResponse.statusCode()).isEqualTo(200);
		assertThat(mariadb.body()).isEqualTo(postgresResponse.body());
	}

	@Test
	void emulatedHoldIsSpentInMariaDbOrInTheApplication() throws Exception {
		for (int port : List.of(this.port, postgresPort())) {
			String name = (port == this.port) ? "MariaDB, SLEEP" : "PostgreSQL, application";
			reads(port); // past the first, interpreted requests
			HoldScrape before = HoldScrape.of(get(port, "/actuator/prometheus").body());
			reads(port);
			HoldScrape.of(get(port, "/actuator/prometheus").body()).since(before).assertHolds(name, 20, HOLD_MS);
		}
	}

	@Test
	void healthNamesMariaDb() throws Exception {
		assertThat(get(this.port, "/actuator/health").body()).contains("\"database\":\"MariaDB\"");
	}

	@Test
	void poolSizeIsProvenByHikariMaxAndByTheServersOwnCount() throws Exception {
		assertThat(get(this.port, "/actuator/prometheus").body())
			.contains("hikaricp_connections_max{pool=\"roles-0\"} " + POOL_SIZE + ".0");
		// Fixed-size pool: the server sees exactly that many of the service's connections
		// (Flyway's own are closed once it has migrated).
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(get(this.port, "/actuator/prometheus").body())
				.contains("hikaricp_connections{pool=\"roles-0\"} " + POOL_SIZE + ".0");
			assertThat(serverSideConnections()).isEqualTo(POOL_SIZE);
		});
	}

	/** Connections to the service's database, other than this one. */
	private int serverSideConnections() throws Exception {
		try (Connection connection = DriverManager.getConnection(this.database.jdbcUrl(), EmbeddedMariaDbServer.USER,
				"");
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT count(*) FROM information_schema.processlist "
						+ "WHERE db = database() AND id <> connection_id()")) {
			rs.next();
			return rs.getInt(1);
		}
	}

	private void reads(int port) throws Exception {
		for (int i = 0; i < 20; i++) {
			assertThat(get(port, "/roles").statusCode()).isEqualTo(200);
		}
	}

	private static int postgresPort() {
		return postgres.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
	}

	private HttpResponse<String> get(int port, String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

}
