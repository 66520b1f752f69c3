package org.poollab.reactive;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.poollab.vendor.EmbeddedPostgresServer;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reactive twin as a newcomer runs it: no database URL, so it starts and migrates an
 * embedded PostgreSQL of its own, and stops it again.
 */
class ReactiveServiceEmbeddedDatabaseIT {

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void servesRolesFromItsOwnEmbeddedPostgresWithoutAUrl() throws Exception {
		try (ConfigurableApplicationContext reactive = ReactiveServiceApplication.application()
			.run("--server.port=0", "--spring.main.banner-mode=off")) {
			assertThat(reactive.getBeanNamesForType(EmbeddedPostgresServer.class)).hasSize(1);
			int port = Integer.parseInt(reactive.getEnvironment().getProperty("local.server.port"));
			HttpResponse<String> roles = get(port, "/roles");
			assertThat(roles.statusCode()).isEqualTo(200);
			List<List<Object>> permissions = JsonPath.read(roles.body(), "$[*].permissions");
			assertThat(permissions).hasSize(20).allSatisfy((granted) -> assertThat(granted).hasSize(10));
			String health = get(port, "/actuator/health").body();
			assertThat((String) JsonPath.read(health, "$.components.r2dbc.status")).isEqualTo("UP");
			Map<String, Object> links = JsonPath.read(get(port, "/actuator").body(), "$._links");
			assertThat(links).containsOnlyKeys("self", "health", "health-path", "metrics", "metrics-requiredMetricName",
					"prometheus");
			assertThat(reactive.getEnvironment().getProperty("spring.r2dbc.pool.max-size")).isEqualTo("10");
		}
	}

	private HttpResponse<String> get(int port, String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

}
