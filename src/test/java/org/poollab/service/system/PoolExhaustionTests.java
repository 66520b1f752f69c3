package org.poollab.service.system;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pool of one with its only connection taken and more requests than it can serve: every
 * request is refused with 503 carrying the pool's state within connection-timeout (plus a
 * little), none is a 500, and the service serves normally once the connection is back.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.datasource.hikari.maximum-pool-size=1",
				"spring.datasource.hikari.connection-timeout=" + PoolExhaustionTests.TIMEOUT_MS })
class PoolExhaustionTests {

	static final long TIMEOUT_MS = 250;

	/**
	 * Scheduling slack on a loaded 2-core box; far below anything a bug would produce.
	 */
	static final long SLACK_MS = 1500;

	private static final int CONCURRENT = 20;

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private DataSource dataSource;

	@Test
	void everyRequestBeyondThePoolIsRefusedWithPoolStateWithinTheTimeoutThenServiceRecovers() throws Exception {
		try (Connection held = this.dataSource.getConnection()) {
			List<Timed> refused = concurrently(CONCURRENT);
			assertThat(refused).allSatisfy((timed) -> {
				assertThat(timed.response().statusCode()).isEqualTo(503);
				assertThat(timed.response().headers().firstValue("Content-Type")).hasValue("application/problem+json");
				assertThat(timed.response().headers().firstValue("Retry-After")).hasValue("1");
				assertThat(timed.response().body()).contains("\"title\":\"No database connection available in time\"",
						"\"pool\":\"roles-0\"", "\"total\":1", "\"active\":1", "\"idle\":0", "request timed out after");
				assertThat(timed.elapsedMs()).isLessThan(TIMEOUT_MS + SLACK_MS);
			});
		}
		assertThat(concurrently(CONCURRENT)).extracting((timed) -> timed.response().statusCode()).containsOnly(200);
	}

	private List<Timed> concurrently(int requests) {
		List<CompletableFuture<Timed>> futures = IntStream.range(0, requests).mapToObj((i) -> {
			long startNanos = System.nanoTime();
			return this.http
				.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/roles")).build(),
						HttpResponse.BodyHandlers.ofString())
				.thenApply((response) -> new Timed(response, (System.nanoTime() - startNanos) / 1_000_000));
		}).toList();
		return futures.stream().map(CompletableFuture::join).toList();
	}

	record Timed(HttpResponse<String> response, long elapsedMs) {
	}

}
