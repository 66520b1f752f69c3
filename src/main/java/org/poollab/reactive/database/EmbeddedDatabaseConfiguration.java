package org.poollab.reactive.database;

import io.r2dbc.spi.ConnectionFactoryOptions;
import org.jspecify.annotations.Nullable;

import org.poollab.vendor.EmbeddedPostgresServer;

import org.springframework.boot.flyway.autoconfigure.FlywayConnectionDetails;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/**
 * Zero-setup database, as in the JDBC service: when no {@code spring.r2dbc.url} is
 * configured, start the JDBC service's embedded PostgreSQL
 * ({@link EmbeddedPostgresServer}) for the life of the application, point Boot's own
 * r2dbc-pool auto-configuration at it (so every {@code spring.r2dbc.pool.*} setting still
 * applies) and Flyway's at the same database over JDBC. With a URL nothing is started,
 * and Flyway needs {@code spring.flyway.url} (+ {@code user}, {@code password}): R2DBC
 * cannot migrate.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(EmbeddedDatabaseConfiguration.NoR2dbcUrl.class)
class EmbeddedDatabaseConfiguration {

	@Bean(destroyMethod = "close")
	EmbeddedPostgresServer embeddedPostgresServer() {
		return EmbeddedPostgresServer.start(EmbeddedPostgresServer.MAX_CONNECTIONS);
	}

	@Bean
	R2dbcConnectionDetails embeddedPostgresR2dbcConnectionDetails(EmbeddedPostgresServer server) {
		return () -> ConnectionFactoryOptions.parse(server.r2dbcUrl())
			.mutate()
			.option(ConnectionFactoryOptions.USER, EmbeddedPostgresServer.USER)
			.build();
	}

	@Bean
	EmbeddedMigrationConnection embeddedPostgresMigrationConnectionDetails(EmbeddedPostgresServer server) {
		return new EmbeddedMigrationConnection(server);
	}

	/**
	 * Flyway's unpooled JDBC connections to the embedded server (Boot's Flyway
	 * auto-configuration opens them with {@code SimpleDriverDataSource}). Also a
	 * {@link JdbcConnectionDetails}, because that bean, a {@code DataSource} or
	 * {@code spring.flyway.url} is what turns Flyway's auto-configuration on; no pool is
	 * built from it, as the application excludes {@code DataSourceAutoConfiguration}.
	 */
	static final class EmbeddedMigrationConnection implements FlywayConnectionDetails, JdbcConnectionDetails {

		private final EmbeddedPostgresServer server;

		EmbeddedMigrationConnection(EmbeddedPostgresServer server) {
			this.server = server;
		}

		@Override
		public String getUsername() {
			return EmbeddedPostgresServer.USER;
		}

		@Override
		public @Nullable String getPassword() {
			return null;
		}

		@Override
		public String getJdbcUrl() {
			return this.server.jdbcUrl();
		}

		@Override
		public String getDriverClassName() {
			return "org.postgresql.Driver";
		}

	}

	static class NoR2dbcUrl implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return !StringUtils.hasText(context.getEnvironment().getProperty("spring.r2dbc.url"));
		}

	}

}
