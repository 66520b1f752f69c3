package org.poollab.service.database;

import org.jspecify.annotations.Nullable;

import org.poollab.vendor.DatabaseVendor;
import org.poollab.vendor.EmbeddedMariaDbServer;
import org.poollab.vendor.EmbeddedPostgresServer;

import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/**
 * Zero-setup database: when no {@code spring.datasource.url} is configured, start an
 * embedded PostgreSQL, or with {@code lab.database=mariadb} an embedded MariaDB, for the
 * life of the application and point Boot's own HikariCP auto-configuration at it, so
 * every {@code spring.datasource.hikari.*} setting still applies. With a URL (e.g.
 * {@code SPRING_DATASOURCE_URL}) nothing is started.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(EmbeddedDatabaseConfiguration.NoDatasourceUrl.class)
class EmbeddedDatabaseConfiguration {

	// Each nested class repeats NoDatasourceUrl: component scanning finds it on its own,
	// where the enclosing class's condition does not reach.
	@Configuration(proxyBeanMethods = false)
	@Conditional({ NoDatasourceUrl.class, OnPostgresql.class })
	static class Postgresql {

		@Bean(destroyMethod = "close")
		EmbeddedPostgresServer embeddedPostgresServer() {
			return EmbeddedPostgresServer.start(EmbeddedPostgresServer.MAX_CONNECTIONS);
		}

		@Bean
		JdbcConnectionDetails embeddedPostgresConnectionDetails(EmbeddedPostgresServer server) {
			return connectionDetails(server.jdbcUrl(), EmbeddedPostgresServer.USER);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@Conditional({ NoDatasourceUrl.class, OnMariadb.class })
	static class Mariadb {

		@Bean(destroyMethod = "close")
		EmbeddedMariaDbServer embeddedMariaDbServer() {
			return EmbeddedMariaDbServer.start(EmbeddedMariaDbServer.MAX_CONNECTIONS);
		}

		@Bean
		JdbcConnectionDetails embeddedMariaDbConnectionDetails(EmbeddedMariaDbServer server) {
			return connectionDetails(server.jdbcUrl(), EmbeddedMariaDbServer.USER);
		}

	}

	/** The embedded servers trust local connections: no password. */
	private static JdbcConnectionDetails connectionDetails(String jdbcUrl, String username) {
		return new JdbcConnectionDetails() {

			@Override
			public String getUsername() {
				return username;
			}

			@Override
			public @Nullable String getPassword() {
				return null;
			}

			@Override
			public String getJdbcUrl() {
				return jdbcUrl;
			}

		};
	}

	static class NoDatasourceUrl implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return !StringUtils.hasText(context.getEnvironment().getProperty("spring.datasource.url"));
		}

	}

	static class OnPostgresql implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return DatabaseVendor.of(context.getEnvironment()) == DatabaseVendor.POSTGRESQL;
		}

	}

	static class OnMariadb implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return DatabaseVendor.of(context.getEnvironment()) == DatabaseVendor.MARIADB;
		}

	}

}
