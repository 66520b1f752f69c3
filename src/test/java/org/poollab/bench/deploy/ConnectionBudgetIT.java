package org.poollab.bench.deploy;

import org.junit.jupiter.api.Test;
import org.poollab.vendor.DatabaseVendor;
import org.poollab.vendor.EmbeddedMariaDbServer;
import org.poollab.vendor.EmbeddedPostgresServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lab reads the connection budget ({@code max_connections} and the slots regular
 * users cannot take) from either vendor, asking each in its own words.
 */
class ConnectionBudgetIT {

	@Test
	void readsMaxConnectionsFromMariaDbWithNoneReserved() throws Exception {
		try (EmbeddedMariaDbServer server = EmbeddedMariaDbServer.start(42);
				Database database = Database.external(server.jdbcUrl(), EmbeddedMariaDbServer.USER, "")) {
			Database.Settings settings = database.settings();
			assertThat(settings.version()).contains("MariaDB");
			assertThat(settings.maxConnections()).isEqualTo(42);
			assertThat(settings.reservedConnections()).isZero();
		}
	}

	@Test
	void readsMaxConnectionsAndReservedSlotsFromPostgres() throws Exception {
		try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(42);
				Database database = Database.external(server.jdbcUrl(), EmbeddedPostgresServer.USER, "")) {
			Database.Settings settings = database.settings();
			assertThat(settings.maxConnections()).isEqualTo(42);
			assertThat(settings.reservedConnections())
				.isEqualTo(DatabaseVendor.POSTGRESQL.embeddedReservedConnections());
		}
	}

}
