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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

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
import org.springframework.util.FileSystemUtils;

import org.poollab.service.system.DatabaseUnavailableAdvice.Kind;
import org.poollab.service.system.RequestLoad.Timed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * PostgreSQL stops and comes back while clients keep sending: queries in flight die with
 * their backends, every answer is a 200 or a 503 problem (never a 500), every 503 comes
 * by this test's connection-timeout (not application.yml's), and the service recovers by
 * itself, without a restart, within 5 s of the database being back, handing out no stale
 * connection afterwards.
 */
// The database closes in @AfterAll: close the context with it, or its pool retries a dead
// port for the rest of the test JVM, its stack traces in later tests' output.
@DirtiesContext
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.datasource.hikari.maximum-pool-size=" + DatabaseRestartIT.POOL_SIZE,
				"spring.datasource.hikari.connection-timeout=" + DatabaseRestartIT.TIMEOUT_MS })
class DatabaseRestartIT {

	static final int POOL_SIZE = 3;

	static final long TIMEOUT_MS = 500;

	private static final Duration RECOVERY_LIMIT = Duration.ofSeconds(5);

	/**
	 * How long the database stays down: long enough for HikariCP's retry backoff
	 * (doubling from 10 ms) to reach its 5 s cap, the slowest case for recovery.
	 */
	private static final Duration DOWN_FOR = Duration.ofSeconds(7);

	private static final int CLIENTS = 4;

	private static Path dataDirectory;

	private static EmbeddedPostgres postgres;

	private static int postgresPort;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	@LocalServerPort
	private int port;

	@Autowired
	private MeterRegistry registry;

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
		FileSystemUtils.deleteRecursively(dataDirectory);
	}

	@Test
	void servesAgainWithoutRestartWithinFiveSecondsOfTheDatabaseComingBack() throws Exception {
		assertThat(get().statusCode()).isEqualTo(200);
		List<Double> refusedBefore = refusedByKind();
		List<Timed> responses;
		long downNanos;
		long startingNanos;
		long backNanos;
		try (RequestLoad load = RequestLoad.start(CLIENTS, this::get)) {
			await().atMost(Duration.ofSeconds(20)).until(() -> load.count(200) >= 20);
			postgres.close();
			downNanos = System.nanoTime();
			await().pollDelay(DOWN_FOR)
				.atMost(DOWN_FOR.plusSeconds(20))
				.until(() -> load.count((timed) -> timed.sentNanos() > downNanos && timed.status() == 503) >= CLIENTS);
			startingNanos = System.nanoTime();
			postgres = start(postgresPort);
			backNanos = System.nanoTime();
			// Past the 5 s, so that a slow recovery is measured and reported, not cut
			// off.
			await().atMost(RECOVERY_LIMIT.plusSeconds(20))
				.until(() -> load.count((timed) -> servedAfter(timed, backNanos)) >= 50);
			responses = load.stop();
		}

		assertThat(responses).as("only 200 or 503, never a server error")
			.extracting(Timed::status)
			.isSubsetOf(200, 503);
		List<Timed> refused = responses.stream().filter((timed) -> timed.status() == 503).toList();
		assertThat(refused).allSatisfy((timed) -> {
			assertThat(timed.isProblem()).as("503 is application/problem+json: %s", timed.response().body()).isTrue();
			// Refused by this test's connection-timeout, not by application.yml's (a
			// lost override); how far past 500 ms a loaded machine answers is its
			// scheduling, not the service's behaviour (PoolExhaustionIT's rule).
			assertThat(timed.elapsedMs()).as("503 before application.yml's connection-timeout")
				.isLessThan(PoolExhaustionIT.DEFAULT_TIMEOUT_MS);
		});
		List<Timed> whileDown = refused.stream()
			.filter((timed) -> timed.sentNanos() > downNanos && timed.answeredNanos() < startingNanos)
			.toList();
		assertThat(whileDown).as("refused while down").hasSizeGreaterThanOrEqualTo(CLIENTS);
		assertThat(whileDown).as("named as the database's doing")
			.allSatisfy((timed) -> assertThat(timed.response().body()).contains("urn:poollab:database-unavailable"));
		List<Double> refusedAfter = refusedByKind();
		for (Kind kind : Kind.values()) {
			assertThat(refusedAfter.get(kind.ordinal()) - refusedBefore.get(kind.ordinal()))
				.as("refusals counted as %s", kind.reason.tag())
				.isEqualTo(refused.stream()
					.filter((timed) -> timed.response().body().contains(kind.reason.problemType().toString()))
					.count());
		}

		// Only a request sent once the database was back proves recovery: one in flight
		// when the outage began can still be answered 200 after it began.
		long firstServedNanos = responses.stream()
			.filter((timed) -> servedAfter(timed, backNanos))
			.mapToLong(Timed::answeredNanos)
			.min()
			.orElseThrow();
		long recoveryMs = TimeUnit.NANOSECONDS.toMillis(firstServedNanos - backNanos);
		System.out.printf(
				"Database restart: %d responses, %d refused (%d while down, %d to %d ms); first 200 came %d ms after the database was back%n",
				responses.size(), refused.size(), whileDown.size(),
				refused.stream().mapToLong(Timed::elapsedMs).min().orElse(-1),
				refused.stream().mapToLong(Timed::elapsedMs).max().orElse(-1), recoveryMs);
		assertThat(recoveryMs).as("first 200 within %s of the database being back", RECOVERY_LIMIT)
			.isLessThanOrEqualTo(RECOVERY_LIMIT.toMillis());
		assertThat(responses).as("no stale connection handed out once serving again")
			.filteredOn((timed) -> timed.sentNanos() > firstServedNanos)
			.extracting(Timed::status)
			.containsOnly(200);

		List<CompletableFuture<HttpResponse<String>>> atOnce = IntStream.range(0, POOL_SIZE)
			.mapToObj((i) -> this.http.sendAsync(request(), HttpResponse.BodyHandlers.ofString()))
			.toList();
		assertThat(atOnce).as("every pooled connection works")
			.allSatisfy((response) -> assertThat(response.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200));
		for (int i = 0; i < 30; i++) {
			assertThat(get().statusCode()).as("no stale connection handed out (request %d)", i).isEqualTo(200);
		}
	}

	private static boolean servedAfter(Timed timed, long nanos) {
		return timed.status() == 200 && timed.sentNanos() > nanos;
	}

	private List<Double> refusedByKind() {
		List<Double> counts = new ArrayList<>();
		for (Kind kind : Kind.values()) {
			counts.add(this.registry.get(DatabaseUnavailableAdvice.REFUSED_METRIC)
				.tag("reason", kind.reason.tag())
				.counter()
				.count());
		}
		return counts;
	}

	private static EmbeddedPostgres start(int port) throws IOException {
		EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
			.setDataDirectory(dataDirectory)
			.setCleanDataDirectory(false);
		return (port != 0) ? builder.setPort(port).start() : builder.start();
	}

	private HttpRequest request() {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/roles"))
			.timeout(Duration.ofSeconds(10))
			.build();
	}

	private HttpResponse<String> get() throws Exception {
		return this.http.send(request(), HttpResponse.BodyHandlers.ofString());
	}

}
