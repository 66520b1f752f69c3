package org.poollab.bench.report;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.context.ConfigurableApplicationContext;

import org.poollab.bench.deciding.PastedSettings;
import org.poollab.bench.deciding.RecommenderTests;
import org.poollab.bench.model.Fleet;
import org.poollab.bench.model.QueueModel;
import org.poollab.bench.results.DatabaseFacts;
import org.poollab.bench.results.Interval;
import org.poollab.bench.results.SloSearch;
import org.poollab.bench.results.SweepResults;
import org.poollab.plainapp.PlainApplication;
import org.poollab.vendor.EmbeddedPostgresServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every kind of HikariCP block the lab writes (the grid's and the SLO search's
 * {@code recommended-application.yml}), from results whose measured answer is the
 * smallest pool there is (1), pasted into a plain Spring Boot application
 * ({@link PlainApplication}: Flyway on its main pool, Boot's default error handling): it
 * starts, serves, and when the pool is exhausted answers what the block's comment says,
 * 500. Each block gets a fresh database, so Flyway migrates as on a first deployment. The
 * pgbouncer block is comments only, and the r2dbc block has no HikariCP pool for Flyway
 * to share; neither is pasted here.
 */
class PlainAppBlocksIT {

	private static final DatabaseFacts DATABASE = new DatabaseFacts("embedded", DatabaseFacts.DEFAULT_VENDOR,
			"jdbc:postgresql://127.0.0.1:5432/roles", "17.11", 100, 3);

	private static EmbeddedPostgresServer postgres;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	@TempDir
	Path runDir;

	@BeforeAll
	static void startPostgres() {
		postgres = EmbeddedPostgresServer.start(50);
	}

	@AfterAll
	static void stopPostgres() {
		postgres.close();
	}

	@Test
	void theGridBlockForAMeasuredPoolOfOneStartsServesAndRefusesAsItsCommentSays() throws Exception {
		// Pools 1 and 3 as good as each other, 10 worse: the measured answer is 1.
		SweepResults results = new SweepResults(Instant.parse("2026-11-29T00:00:00Z"), "test", RecommenderTests.HOST,
				DATABASE, 0, null, List.of(RecommenderTests.point("single", 1, 100, 6),
						RecommenderTests.point("single", 3, 100, 5.5), RecommenderTests.point("single", 10, 100, 20)));

		pasteAndProve(results, "grid");
	}

	@Test
	void theSloBlockForAMeasuredPoolOfOneStartsServesAndRefusesAsItsCommentSays() throws Exception {
		SloSearch.Asked asked = new SloSearch.Asked(100, 1, 1, Fleet.Surge.percent(25), 5, 1, 50, null, null);
		SloSearch search = new SloSearch(asked, 100, 1, 20, List.of(probe(20, 12), probe(1, 14)), 1, true,
				"pool 1 per replica is the smallest that met the p99 objective of 50 ms at 100 rps.",
				new SloSearch.Model(new QueueModel(100, 1.0, 1, 1, 2), "test"), null);
		SweepResults results = new SweepResults(Instant.parse("2026-11-29T00:00:00Z"), "slo", RecommenderTests.HOST,
				DATABASE, 50, "read (GET /roles)", List.of())
			.withSlo(search);

		pasteAndProve(results, "slo");
	}

	/**
	 * Writes the results' block, starts the plain app with it on a fresh database, and
	 * checks that it serves, that it runs the block's pool, and that with every
	 * connection taken a request gets what the connection-timeout's comment promises.
	 */
	private void pasteAndProve(SweepResults results, String database) throws Exception {
		Report.write(results, this.runDir);
		Path block = this.runDir.resolve(Report.RECOMMENDED_YAML);
		String yaml = Files.readString(block);
		Map<String, Object> hikari = RecommendedYamlTests.hikari(yaml);
		int poolSize = (Integer) hikari.get("maximum-pool-size");
		long connectionTimeoutMs = ((Number) hikari.get("connection-timeout")).longValue();
		try (ConfigurableApplicationContext app = PlainApplication.start(
				"--spring.datasource.url=" + freshDatabase(database),
				"--spring.config.additional-location=file:" + block, "--server.port=0")) {
			int port = app.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
			assertThat(get(port).statusCode()).isEqualTo(200);
			HikariDataSource pool = app.getBean(HikariDataSource.class);
			assertThat(pool.getMaximumPoolSize()).isEqualTo(poolSize);
			List<Connection> held = new ArrayList<>();
			try {
				for (int i = 0; i < poolSize; i++) {
					held.add(pool.getConnection());
				}
				long startNanos = System.nanoTime();
				HttpResponse<String> refused = get(port);
				assertThat(refused.statusCode()).as(refused.body()).isEqualTo(500);
				assertThat(Duration.ofNanos(System.nanoTime() - startNanos))
					.isGreaterThanOrEqualTo(Duration.ofMillis(connectionTimeoutMs));
			}
			finally {
				for (Connection connection : held) {
					connection.close();
				}
			}
			assertThat(get(port).statusCode()).isEqualTo(200);
		}
		assertThat(RecommendedYamlTests.why(yaml, "connection-timeout")).contains("answers 500");
		// The measured 1 is written at the smallest pool the lab writes, and says so.
		assertThat(poolSize).isEqualTo(PastedSettings.PLAIN_APP_MIN_POOL);
		assertThat(RecommendedYamlTests.why(yaml, "maximum-pool-size")).contains("WRITTEN 2, not the 1 measured");
	}

	private HttpResponse<String> get(int port) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/greetings"))
			.timeout(Duration.ofSeconds(45))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static String freshDatabase(String name) throws Exception {
		try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl());
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE " + name);
		}
		return postgres.jdbcUrl().replace("/" + EmbeddedPostgresServer.USER + "?", "/" + name + "?");
	}

	private static SloSearch.Probe probe(int pool, double p99Ms) {
		return new SloSearch.Probe(pool, true, p99Ms, new Interval(p99Ms * 0.8, p99Ms * 1.2), "within",
				List.of(SloReportTests.window(pool, p99Ms, p99Ms * 1.2, 0)));
	}

}
