package org.poollab.reactive;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import com.jayway.jsonpath.JsonPath;
import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.poollab.reactive.database.ResizableConnectionPool;
import org.poollab.service.ServiceApplication;
import org.poollab.service.ServiceYml;
import org.poollab.vendor.EmbeddedPostgresServer;
import org.poollab.service.hold.HoldScrape;
import org.poollab.service.system.Refusals;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The JDBC service and its reactive twin side by side on one PostgreSQL, each given the
 * database by URL as the lab gives it: the same {@code /roles} body, the twin's pool
 * sized and reported by {@code spring.r2dbc.pool.max-size}, its refusals counted as the
 * JDBC service's, the same write workload, the same emulated hold ({@code lab.hold.mean},
 * spent in the database) measured the same way, and no resize endpoint unless asked for.
 */
class ReactiveTwinIT {

	static final int POOL_SIZE = 3;

	/**
	 * The twin's {@code max-acquire-time}, the JDBC connection-timeout, as reactive.yml
	 * sets it (its one home).
	 */
	static final long MAX_ACQUIRE_TIME_MS = DurationStyle
		.detectAndParse(ServiceYml.property("reactive.yml", "spring.r2dbc.pool.max-acquire-time"))
		.toMillis();

	/** Both services' emulated hold ({@code lab.hold.mean}), spent in the database. */
	static final int HOLD_MS = 20;

	/**
	 * Requests before holds are measured: a fresh twin's first fifty or so hold its
	 * connection longer than the hold.
	 */
	static final int WARM_UP = 60;

	private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private static EmbeddedPostgresServer database;

	private static ConfigurableApplicationContext jdbc;

	private static ConfigurableApplicationContext reactive;

	@BeforeAll
	static void start() {
		database = EmbeddedPostgresServer.start(EmbeddedPostgresServer.MAX_CONNECTIONS);
		jdbc = new SpringApplicationBuilder(ServiceApplication.class).run("--server.port=0",
				"--spring.datasource.url=" + database.jdbcUrl(), "--lab.hold.mean=" + HOLD_MS + "ms",
				"--spring.main.banner-mode=off");
		reactive = ReactiveServiceApplication.application()
			.run("--server.port=0", "--management.server.address=127.0.0.1", "--management.server.port=0",
					"--spring.r2dbc.url=" + database.r2dbcUrl(),
					"--spring.r2dbc.username=" + EmbeddedPostgresServer.USER,
					"--spring.flyway.url=" + database.jdbcUrl(), "--spring.flyway.user=" + EmbeddedPostgresServer.USER,
					"--spring.r2dbc.pool.max-size=" + POOL_SIZE, "--lab.hold.mean=" + HOLD_MS + "ms",
					"--spring.main.banner-mode=off");
	}

	@AfterAll
	static void stop() {
		if (reactive != null) {
			reactive.close();
		}
		if (jdbc != null) {
			jdbc.close();
		}
		if (database != null) {
			database.close();
		}
	}

	@Test
	void rolesBodyIsTheJdbcServicesByteForByte() throws Exception {
		HttpResponse<String> fromJdbc = get(port(jdbc), "/roles");
		HttpResponse<String> fromReactive = get(port(reactive), "/roles");
		assertThat(fromJdbc.statusCode()).isEqualTo(200);
		assertThat(fromReactive.statusCode()).isEqualTo(200);
		assertThat(fromReactive.headers().firstValue("Content-Type"))
			.isEqualTo(fromJdbc.headers().firstValue("Content-Type"));
		assertThat(fromJdbc.body()).startsWith("[{\"id\":1,\"name\":\"admin\",\"description\":");
		assertThat(fromReactive.body()).isEqualTo(fromJdbc.body());
	}

	@Test
	void eachServiceHasOnlyItsOwnStack() {
		assertThat(jdbc).isInstanceOf(ServletWebServerApplicationContext.class);
		assertThat(jdbc.getBeanNamesForType(ConnectionFactory.class)).isEmpty();
		assertThat(reactive).isInstanceOf(ReactiveWebServerApplicationContext.class);
		assertThat(reactive.getBeanNamesForType(DataSource.class)).isEmpty();
	}

	@Test
	void poolMetricReportsTheConfiguredMaxSizeAfterRequests() throws Exception {
		List<CompletableFuture<HttpResponse<String>>> requests = IntStream.range(0, 2 * POOL_SIZE)
			.mapToObj((i) -> http.sendAsync(request(port(reactive), "/roles"), HttpResponse.BodyHandlers.ofString()))
			.toList();
		assertThat(requests).allSatisfy((request) -> assertThat(request.get().statusCode()).isEqualTo(200));
		String prometheus = get(managementPort(reactive), "/actuator/prometheus").body();
		assertThat(prometheus).contains(
				"r2dbc_pool_max_allocated_connections{name=\"connectionFactory\"} " + (double) POOL_SIZE,
				"r2dbc_pool_allocated_connections{name=\"connectionFactory\"} " + (double) POOL_SIZE,
				"r2dbc_pool_acquired_connections{name=\"connectionFactory\"} ",
				"r2dbc_pool_pending_connections{name=\"connectionFactory\"} ",
				"r2dbc_connections_acquire_seconds_bucket{le=\"1.0E-5\"} ",
				"r2dbc_connections_acquire_seconds_bucket{le=\"+Inf\"} ",
				"http_server_requests_seconds_bucket{error=\"none\",exception=\"none\",method=\"GET\","
						+ "outcome=\"SUCCESS\",status=\"200\",uri=\"/roles\",le=\"2.5E-4\"} ",
				Refusals.PROMETHEUS_NAME + "{reason=\"pool-timeout\"} ");
		assertThat(get(port(reactive), "/actuator/prometheus").statusCode()).as("the actuator is on its own port")
			.isEqualTo(404);
	}

	@Test
	void noConnectionWithinMaxAcquireTimeIsAPoolTimeoutRefusal() throws Exception {
		MeterRegistry registry = reactive.getBean(MeterRegistry.class);
		double refusedBefore = refused(registry);
		ConnectionFactory pool = reactive.getBean(ConnectionFactory.class);
		List<Connection> held = new ArrayList<>();
		try {
			for (int i = 0; i < POOL_SIZE; i++) {
				held.add(Mono.from(pool.create()).block(Duration.ofSeconds(5)));
			}
			long startNanos = System.nanoTime();
			HttpResponse<String> refusal = get(port(reactive), "/roles");
			long elapsedMs = Duration.ofNanos(System.nanoTime() - startNanos).toMillis();
			assertThat(refusal.statusCode()).isEqualTo(503);
			assertThat(refusal.headers().firstValue("Retry-After")).hasValue("1");
			assertThat(refusal.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat((String) JsonPath.read(refusal.body(), "$.type")).isEqualTo("urn:poollab:pool-timeout");
			assertThat((String) JsonPath.read(refusal.body(), "$.title"))
				.isEqualTo("No database connection available in time");
			assertThat((Integer) JsonPath.read(refusal.body(), "$.active")).isEqualTo(POOL_SIZE);
			// One attempt: a second (acquire-retry above 0, r2dbc-pool's default) would
			// make it twice max-acquire-time. A bound from the machine's speed, it is
			// not.
			assertThat(elapsedMs).isGreaterThanOrEqualTo(MAX_ACQUIRE_TIME_MS).isLessThan(2 * MAX_ACQUIRE_TIME_MS);
			assertThat(refused(registry) - refusedBefore).isEqualTo(1);
		}
		finally {
			held.forEach((connection) -> Mono.from(connection.close()).block(Duration.ofSeconds(5)));
		}
		assertThat(get(port(reactive), "/roles").statusCode()).isEqualTo(200);
	}

	@Test
	void auditInsertsAHundredRowsPerRequestAsTheJdbcServiceDoes() throws Exception {
		long before = auditRows(3);
		for (ConfigurableApplicationContext service : List.of(jdbc, reactive)) {
			HttpResponse<String> created = post(port(service), "/roles/3/audit");
			assertThat(created.statusCode()).isEqualTo(201);
			assertThat((Integer) JsonPath.read(created.body(), "$.inserted")).isEqualTo(100);
			assertThat((Integer) JsonPath.read(created.body(), "$.roleId")).isEqualTo(3);
		}
		assertThat(auditRows(3) - before).isEqualTo(200);
		HttpResponse<String> fromJdbc = post(port(jdbc), "/roles/999/audit");
		HttpResponse<String> fromReactive = post(port(reactive), "/roles/999/audit");
		assertThat(fromReactive.statusCode()).isEqualTo(fromJdbc.statusCode()).isEqualTo(404);
		assertThat(fromReactive.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat((String) JsonPath.read(fromReactive.body(), "$.detail"))
			.isEqualTo(JsonPath.read(fromJdbc.body(), "$.detail"));
		assertThat(auditRows(3) - before).isEqualTo(200);
	}

	@Test
	void eachRequestHoldsItsConnectionForTheEmulatedHoldOnBothServices() throws Exception {
		for (ConfigurableApplicationContext service : List.of(jdbc, reactive)) {
			String name = (service == reactive) ? "reactive" : "jdbc";
			int scrapePort = (service == reactive) ? managementPort(reactive) : port(jdbc);
			// Past the first, interpreted requests, which hold longer than the hold.
			reads(port(service), WARM_UP);
			write(port(service));
			HoldScrape before = HoldScrape.of(get(scrapePort, "/actuator/prometheus").body());
			reads(port(service), 20);
			HoldScrape afterReads = HoldScrape.of(get(scrapePort, "/actuator/prometheus").body());
			afterReads.since(before).assertHolds(name + " reads", 20, HOLD_MS);
			write(port(service));
			HoldScrape.of(get(scrapePort, "/actuator/prometheus").body())
				.since(afterReads)
				.assertHoldsAtLeast(name + " write", 1, HOLD_MS);
		}
	}

	@Test
	void poolSizeEndpointIsAbsentUnlessEnabled() throws Exception {
		assertThat(get(managementPort(reactive), "/actuator/poolsize").statusCode()).isEqualTo(404);
		HttpResponse<String> resize = http.send(HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + managementPort(reactive) + "/actuator/poolsize"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"maximumPoolSize\":4}"))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(resize.statusCode()).isEqualTo(404);
		assertThat(get(managementPort(reactive), "/actuator/prometheus").body())
			.contains("r2dbc_pool_max_allocated_connections{name=\"connectionFactory\"} " + (double) POOL_SIZE);
	}

	/**
	 * The lab's {@code none} pool on the twin ({@code spring.r2dbc.pool.enabled=false},
	 * as the lab starts it): Spring Boot's own unpooled connection factory serves the
	 * same body, and there is no r2dbc-pool, so none of its gauges.
	 */
	@Test
	void withoutAPoolTheTwinServesTheSameBodyThroughNoPool() throws Exception {
		try (ConfigurableApplicationContext unpooled = ReactiveServiceApplication.application()
			.run("--server.port=0", "--management.server.address=127.0.0.1", "--management.server.port=0",
					"--spring.r2dbc.url=" + database.r2dbcUrl(),
					"--spring.r2dbc.username=" + EmbeddedPostgresServer.USER,
					"--spring.flyway.url=" + database.jdbcUrl(), "--spring.flyway.user=" + EmbeddedPostgresServer.USER,
					"--spring.r2dbc.pool.enabled=false", "--spring.main.banner-mode=off")) {
			assertThat(unpooled.getBeanNamesForType(ResizableConnectionPool.class)).isEmpty();
			assertThat(unpooled.getBeanNamesForType(ConnectionFactory.class)).hasSize(1);
			HttpResponse<String> roles = get(port(unpooled), "/roles");
			assertThat(roles.statusCode()).isEqualTo(200);
			assertThat(roles.body()).isEqualTo(get(port(jdbc), "/roles").body());
			assertThat(get(managementPort(unpooled), "/actuator/prometheus").body()).doesNotContain("r2dbc_pool_");
		}
	}

	@Test
	void listensOnLoopbackOnly() throws Exception {
		assertThat(reactive.getEnvironment().getProperty("server.address")).isEqualTo("127.0.0.1");
		for (int port : List.of(port(reactive), managementPort(reactive))) {
			assertThat(accepts(InetAddress.getLoopbackAddress(), port)).as("127.0.0.1:%d", port).isTrue();
			Optional<InetAddress> external = nonLoopbackAddress();
			assumeThat(external).as("a non-loopback address on this host").isPresent();
			assertThat(accepts(external.get(), port)).as("%s:%d", external.get(), port).isFalse();
		}
	}

	private static void reads(int port, int reads) throws Exception {
		for (int i = 0; i < reads; i++) {
			assertThat(get(port, "/roles").statusCode()).isEqualTo(200);
		}
	}

	private static void write(int port) throws Exception {
		assertThat(post(port, "/roles/3/audit").statusCode()).isEqualTo(201);
	}

	private static long auditRows(long roleId) throws SQLException {
		try (java.sql.Connection connection = DriverManager.getConnection(database.jdbcUrl());
				PreparedStatement count = connection
					.prepareStatement("SELECT count(*) FROM role_audit WHERE role_id = ?")) {
			count.setLong(1, roleId);
			try (ResultSet rows = count.executeQuery()) {
				rows.next();
				return rows.getLong(1);
			}
		}
	}

	private static double refused(MeterRegistry registry) {
		return registry.get(Refusals.METRIC).tag("reason", Refusals.Reason.POOL_TIMEOUT.tag()).counter().count();
	}

	private static boolean accepts(InetAddress address, int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(address, port), 1000);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static Optional<InetAddress> nonLoopbackAddress() throws IOException {
		return NetworkInterface.networkInterfaces()
			.flatMap(NetworkInterface::inetAddresses)
			.filter((address) -> address instanceof Inet4Address && !address.isLoopbackAddress()
					&& !address.isLinkLocalAddress())
			.findFirst();
	}

	private static int port(ConfigurableApplicationContext context) {
		return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
	}

	private static int managementPort(ConfigurableApplicationContext context) {
		return Integer.parseInt(context.getEnvironment().getProperty("local.management.port"));
	}

	private static HttpRequest request(int port, String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.build();
	}

	private static HttpResponse<String> post(int port, String path) throws Exception {
		return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static HttpResponse<String> get(int port, String path) throws Exception {
		return http.send(request(port, path), HttpResponse.BodyHandlers.ofString());
	}

}
