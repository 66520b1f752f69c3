package org.poollab.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.lab.Programs;
import org.poollab.bench.results.Point;
import org.poollab.plainapp.PlainApplication;
import org.poollab.vendor.EmbeddedPostgresServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Target mode on a Spring Boot application that is not the lab's: the plain app
 * ({@link PlainApplication}: its own {@code /greetings}, Flyway, Boot's actuator with
 * {@code health} and {@code prometheus}, no lab code), run as its own process by a script
 * that restarts it with {@code --spring.datasource.hikari.maximum-pool-size}, as a team's
 * redeploy would. The lab sweeps it at two pool sizes with the team's own weighted
 * requests (a GET and a POST with a body file), through that script as
 * {@code bench.resizeCommand}, and each point shows the pool size proven from the app's
 * own gauge and the hold measured from its own {@code hikaricp_connections_usage_seconds}
 * (its histogram turned on, so the p99 too). The block it writes has no key only the
 * lab's service knows. Short windows at a low rate: the restarts are most of its time.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TeamServiceSweepIT {

	private static final int FOUND_POOL_SIZE = 2;

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	@TempDir
	static Path directory;

	private EmbeddedPostgresServer postgres;

	private String base;

	private Path restart;

	@BeforeAll
	void startTheTeamsApp() throws Exception {
		this.postgres = EmbeddedPostgresServer.start(50);
		String url;
		try (Connection connection = DriverManager.getConnection(this.postgres.jdbcUrl());
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE greetings");
			url = this.postgres.jdbcUrl().replace("/" + EmbeddedPostgresServer.USER + "?", "/greetings?");
		}
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		this.base = "http://127.0.0.1:" + port;
		LabPaths paths = LabPaths.of(Path.of("target"));
		String classpath = Path.of("target", "test-classes").toAbsolutePath() + ":" + paths.serviceClasspath();
		// A team's redeploy: the running app stopped, a new one started at the size
		// given.
		// The lab itself waits until the app's actuator reports that size.
		this.restart = directory.resolve("restart.sh");
		Files.writeString(this.restart, """
				#!/bin/sh
				cd "$(dirname "$0")"
				if [ -f app.pid ]; then
				  pid=$(cat app.pid)
				  kill "$pid" 2>/dev/null
				  # Gone, or a zombie nobody reaps (state Z): either way the port is free.
				  while [ -e "/proc/$pid" ] && ! grep -q ') Z ' "/proc/$pid/stat"; do sleep 0.1; done
				fi
				nohup '%s' -Xmx256m -XX:TieredStopAtLevel=1 -cp '%s' %s --server.port=%d \\
				  --spring.datasource.url='%s' --spring.datasource.hikari.maximum-pool-size="$1" \\
				  --spring.datasource.hikari.pool-name=greetings \\
				  --management.metrics.distribution.percentiles-histogram.hikaricp.connections.usage=true \\
				  --spring.main.banner-mode=off > "app-$1.log" 2>&1 &
				echo $! > app.pid
				""".formatted(paths.java(), classpath, PlainApplication.class.getName(), port, url));
		Files.writeString(directory.resolve("greeting.json"), "{\"text\":\"hello\"}");
		assertThat(new ProcessBuilder("sh", this.restart.toString(), String.valueOf(FOUND_POOL_SIZE)).inheritIO()
			.start()
			.waitFor()).isZero();
		awaitUp(Duration.ofSeconds(120));
	}

	@AfterAll
	void stopTheTeamsApp() throws Exception {
		Path pid = directory.resolve("app.pid");
		if (Files.isRegularFile(pid)) {
			Optional<ProcessHandle> app = ProcessHandle.of(Long.parseLong(Files.readString(pid).strip()));
			if (app.isPresent()) {
				app.get().destroy();
				app.get().onExit().get(30, TimeUnit.SECONDS);
			}
		}
		if (this.postgres != null) {
			this.postgres.close();
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void sweepsTheTeamsOwnAppThroughItsRestartsProvingEachPointsPoolAndHold() throws Exception {
		ByteArrayOutputStream console = new ByteArrayOutputStream();
		Sweep.Outcome outcome = BenchApplication.run(new PrintStream(console, true, StandardCharsets.UTF_8),
				Programs.installed(), (name) -> null, "--bench.target=external", "--bench.targets=" + this.base,
				"--bench.actuators=" + this.base + "/actuator",
				"--bench.requests=GET /greetings ; 3, POST /greetings?text=hi @" + directory.resolve("greeting.json"),
				"--bench.poolName=greetings", "--bench.resizeCommand=sh " + this.restart + " {poolSize}",
				"--bench.resizeTimeout=90s", "--bench.preset=quick", "--bench.poolSizes=4,2", "--bench.rates=10",
				// Each size runs on its own after its restart; its warm-up covers the
				// fresh JVM
				// and JMeter's first compile of the plan's Groovy (about 4 s on a busy
				// machine).
				"--bench.duration=2s", "--bench.warmup=8s", "--bench.topologyWarmup=0s", "--bench.adaptiveCap=0s",
				"--bench.outputDirectory=" + directory.resolve("runs"));
		String printed = console.toString(StandardCharsets.UTF_8);
		System.out.print(printed);

		List<Point> points = outcome.results().points();
		for (int poolSize : List.of(4, 2)) {
			assertThat(points).as("pool %d proven by the app's own hikaricp_connections_max", poolSize)
				.anySatisfy((point) -> {
					assertThat(point.poolSize()).isEqualTo(poolSize);
					assertThat(point.pool().observedMax()).containsOnly(poolSize);
				});
		}
		assertThat(points).allSatisfy((point) -> {
			// The app's own hold: hikaricp_connections_usage_seconds over the window,
			// which
			// HikariCP records in whole milliseconds (a plain SELECT often reads 0).
			assertThat(point.pool().holdMeanMs()).isNotNull().isEqualTo(point.pool().usageMeanMs());
			assertThat(point.pool().holdP99Ms()).as("its histogram is on").isNotNull().isNotNegative();
			assertThat(point.statusCounts()).containsKey("200");
			assertThat(point.statusCounts().keySet()).noneMatch((status) -> status.startsWith("4"));
		});
		assertThat(outcome.results().workload())
			.isEqualTo("GET /greetings x3, POST /greetings?text=hi (with a body) x1");
		assertThat(printed).contains("health UP", "pool greetings, sizes now [2]",
				"Target " + this.base + " answers (GET /greetings: HTTP 200)", "p99 from its buckets", "  hold ");
		// The block is for the team's app: HikariCP's keys and nothing only the lab
		// knows.
		Map<String, Object> yaml = new Yaml()
			.load(Files.readString(outcome.directory().resolve("recommended-application.yml")));
		if (yaml != null) {
			assertThat(yaml).containsOnlyKeys("spring");
			assertThat((Map<String, Object>) yaml.get("spring")).containsOnlyKeys("datasource");
			assertThat((Map<String, Object>) ((Map<String, Object>) yaml.get("spring")).get("datasource"))
				.containsOnlyKeys("hikari");
		}
		// Left as found: running, at the size it had.
		assertThat(poolMax()).isEqualTo(FOUND_POOL_SIZE);
	}

	private int poolMax() throws IOException, InterruptedException {
		String body = HTTP
			.send(HttpRequest.newBuilder(URI.create(this.base + "/actuator/prometheus")).build(),
					HttpResponse.BodyHandlers.ofString())
			.body();
		return body.lines()
			.filter((line) -> line.startsWith("hikaricp_connections_max{"))
			.mapToInt((line) -> (int) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
			.findFirst()
			.orElse(-1);
	}

	private void awaitUp(Duration most) throws Exception {
		long deadline = System.nanoTime() + most.toNanos();
		while (System.nanoTime() < deadline) {
			try {
				if (HTTP
					.send(HttpRequest.newBuilder(URI.create(this.base + "/actuator/health")).build(),
							HttpResponse.BodyHandlers.discarding())
					.statusCode() == 200) {
					return;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			Thread.sleep(200);
		}
		throw new AssertionError("the plain app did not come up; its log: "
				+ Files.readString(directory.resolve("app-" + FOUND_POOL_SIZE + ".log")));
	}

}
