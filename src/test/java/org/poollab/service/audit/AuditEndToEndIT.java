package org.poollab.service.audit;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The write-heavy endpoint inserts its hundred rows per request, all or nothing.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class AuditEndToEndIT {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private JdbcClient jdbc;

	@Test
	void eachRequestInsertsAHundredAuditRowsForTheRole() throws Exception {
		long before = rows(3);
		HttpResponse<String> response = post("/roles/3/audit");
		assertThat(response.statusCode()).isEqualTo(201);
		assertThat(response.body()).contains("\"inserted\":100");
		assertThat(rows(3) - before).isEqualTo(100);
	}

	@Test
	void unknownRoleInsertsNothing() throws Exception {
		long before = this.jdbc.sql("SELECT count(*) FROM role_audit").query(Long.class).single();
		HttpResponse<String> response = post("/roles/999/audit");
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(this.jdbc.sql("SELECT count(*) FROM role_audit").query(Long.class).single()).isEqualTo(before);
	}

	private long rows(long roleId) {
		return this.jdbc.sql("SELECT count(*) FROM role_audit WHERE role_id = ?")
			.param(roleId)
			.query(Long.class)
			.single();
	}

	private HttpResponse<String> post(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}
