package org.poollab.service.system;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PostgreSQL stops and comes back while the service is under light load: while it is down
 * requests fail fast with 503, and the service recovers by itself, without a restart,
 * within 5 s of the database being back, handing out no stale connection afterwards.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
		"spring.datasource.hikari.maximum-pool-size=3", "spring.datasource.hikari.connection-timeout=500" })
class DatabaseRestartTests {

	private static final Duration RECOVERY_LIMIT = Duration.ofSeconds(5);

	private static Path dataDirectory;

	private static EmbeddedPostgres postgres;

	private static int postgresPort;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) throws IOException {
		dataDirectory = Files.createTempDirectory("restart-pg");
		postgres = start(0);
		postgresPort = postgres.getPort();
		registry.add("spring.datasource.url", () -> postgres.getJdbcUrl("postgres", "postgres"));
		registry.add("spring.datasource.username", () -> "postgres");
	}

	@AfterAll
	static void stopDatabase() throws IOException {
		postgres.close();
		org.springframework.util.FileSystemUtils.deleteRecursively(dataDirectory);
	}

	@Test
	void servesAgainWithoutRestartWithinFiveSecondsOfTheDatabaseComingBack() throws Exception {
		assertThat(get().statusCode()).isEqualTo(200);

		postgres.close();
		List<Long> downLatenciesMs = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			long startNanos = System.nanoTime();
			HttpResponse<String> response = get();
			downLatenciesMs.add((System.nanoTime() - startNanos) / 1_000_000);
			assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		}
		assertThat(downLatenciesMs).as("fail fast: connection-timeout 500 ms plus slack").allMatch((ms) -> ms < 2500);

		postgres = start(postgresPort);
		long backNanos = System.nanoTime();
		int status = 0;
		while (status != 200 && System.nanoTime() - backNanos < RECOVERY_LIMIT.toNanos()) {
			status = get().statusCode();
		}
		assertThat(status).as("recovered within %s of the database being back", RECOVERY_LIMIT).isEqualTo(200);
		System.out.printf("Database restart: 503s while down took %s ms; first 200 came %d ms after it was back%n",
				downLatenciesMs, (System.nanoTime() - backNanos) / 1_000_000);
		for (int i = 0; i < 30; i++) {
			assertThat(get().statusCode()).as("no stale connection handed out (request %d)", i).isEqualTo(200);
		}
	}

	private static EmbeddedPostgres start(int port) throws IOException {
		EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
			.setDataDirectory(dataDirectory)
			.setCleanDataDirectory(false);
		return (port != 0) ? builder.setPort(port).start() : builder.start();
	}

	private HttpResponse<String> get() throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/roles"))
			.timeout(Duration.ofSeconds(10))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}
