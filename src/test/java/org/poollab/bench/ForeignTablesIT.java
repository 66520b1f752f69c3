package org.poollab.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.poollab.bench.deploy.Database;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.settings.SweepDatabase;
import org.poollab.vendor.EmbeddedPostgresServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A database named by {@code bench.database.url} is the team's: the lab says which tables
 * it creates and empties there, and refuses one holding anyone else's tables unless told
 * {@code bench.database.allowForeignTables=true}. One embedded PostgreSQL, one database
 * per case.
 */
class ForeignTablesIT {

	private static EmbeddedPostgresServer postgres;

	private final ByteArrayOutputStream console = new ByteArrayOutputStream();

	@BeforeAll
	static void startPostgres() {
		postgres = EmbeddedPostgresServer.start(20);
	}

	@AfterAll
	static void stopPostgres() {
		postgres.close();
	}

	@Test
	void anEmptyDatabaseIsTakenAndTheConsoleSaysWhatTheLabCreatesAndEmpties() throws Exception {
		PreFlight.requireOwnTables(database("empty", "", false), out());

		assertThat(this.console.toString(StandardCharsets.UTF_8)).contains(
				"the lab's service creates roles, permissions, role_permissions, role_audit, flyway_schema_history",
				"the write workload empties role_audit before every point");
	}

	@Test
	void theLabsOwnTablesFromAnEarlierRunAreNotForeign() throws Exception {
		PreFlight.requireOwnTables(
				database("earlier", "CREATE TABLE roles (id INT); CREATE TABLE role_audit (id INT)", false), out());

		assertThat(this.console.toString(StandardCharsets.UTF_8)).doesNotContain("other table");
	}

	@Test
	void aDatabaseHoldingAnotherAppsTablesIsRefusedInOneLineBeforeAnythingStarts() throws Exception {
		SweepDatabase theirs = database("theirs",
				"CREATE TABLE invoices (id INT); CREATE SCHEMA billing; CREATE TABLE billing.customers (id INT)",
				false);

		assertThatExceptionOfType(BenchSettingException.class)
			.isThrownBy(() -> PreFlight.requireOwnTables(theirs, out()))
			.withMessageContaining("holds tables that are not the lab's (")
			.withMessageContaining("billing.customers")
			.withMessageContaining("public.invoices")
			.withMessageContaining("set bench.database.allowForeignTables=true")
			.withMessageEndingWith("Nothing was started.")
			.withMessageNotContaining("\n");
	}

	@Test
	void confirmedForeignTablesAreLeftAloneAndSaidSo() throws Exception {
		PreFlight.requireOwnTables(database("confirmed", "CREATE TABLE invoices (id INT)", true), out());

		assertThat(this.console.toString(StandardCharsets.UTF_8))
			.contains("1 other table(s) there are left alone (bench.database.allowForeignTables=true)");
	}

	private PrintStream out() {
		return new PrintStream(this.console, true, StandardCharsets.UTF_8);
	}

	private static SweepDatabase database(String name, String sql, boolean allowForeignTables) throws Exception {
		try (Connection connection = Database.connect(postgres.jdbcUrl(), EmbeddedPostgresServer.USER, "");
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE " + name);
		}
		String url = postgres.jdbcUrl().replace("/" + EmbeddedPostgresServer.USER + "?", "/" + name + "?");
		if (!sql.isEmpty()) {
			try (Connection connection = Database.connect(url, EmbeddedPostgresServer.USER, "");
					Statement statement = connection.createStatement()) {
				statement.execute(sql);
			}
		}
		return new SweepDatabase(null, url, EmbeddedPostgresServer.USER, "", allowForeignTables);
	}

}
