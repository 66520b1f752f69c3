package org.poollab.service.role;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;
import org.poollab.service.ServiceApplication;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The service on a MariaDB it did not start, by URL: the machine's own at
 * {@value #SERVER} (root, no password), in a database of the test's own, dropped
 * afterwards. Skipped, saying so, when nothing answers there.
 */
class ExternalMariaDbIT {

	static final String SERVER = "jdbc:mariadb://127.0.0.1:3306/";

	static final String USER = "root";

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void serviceMigratesAndServesRolesOnAMariaDbByUrl() throws Exception {
		assumeTrue(answers(), () -> "skipped: no MariaDB or MySQL answers at " + SERVER + " as " + USER
				+ " without a password; start one there to run this test");
		String database = "poollab_it_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
		execute("CREATE DATABASE " + database);
		try (ConfigurableApplicationContext service = new SpringApplicationBuilder(ServiceApplication.class).run(
				"--server.port=0", "--lab.database=mariadb", "--spring.datasource.url=" + SERVER + database,
				"--spring.datasource.username=" + USER)) {
			int port = service.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
			HttpResponse<String> roles = this.http.send(
					HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/roles")).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(roles.statusCode()).isEqualTo(200);
			List<Integer> permissionsPerRole = JsonPath.read(roles.body(), "$[*].permissions.length()");
			assertThat(permissionsPerRole).hasSize(20).containsOnly(10);
			assertThat(roles.body()).startsWith("[{\"id\":1,\"name\":\"admin\"");
			assertThat(count(database + ".roles")).as("the service's own tables, on the server by URL").isEqualTo(20);
		}
		finally {
			execute("DROP DATABASE " + database);
		}
	}

	private static boolean answers() {
		try (Connection connection = connect()) {
			return connection.isValid(2);
		}
		catch (SQLException ex) {
			return false;
		}
	}

	private static int count(String table) throws SQLException {
		try (Connection connection = connect();
				Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SELECT count(*) FROM " + table)) {
			rs.next();
			return rs.getInt(1);
		}
	}

	private static void execute(String sql) throws SQLException {
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	private static Connection connect() throws SQLException {
		Properties properties = new Properties();
		properties.setProperty("user", USER);
		properties.setProperty("connectTimeout", "2000"); // ms
		return DriverManager.getConnection(SERVER, properties);
	}

}
