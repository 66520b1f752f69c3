package org.poollab.service.database;

import org.jspecify.annotations.Nullable;

import org.poollab.vendor.DatabaseVendor;
import org.poollab.vendor.EmbeddedDatabase;

import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/**
 * Zero-setup database: when no {@code spring.datasource.url} is configured, start the
 * embedded server of the configured vendor ({@code lab.database}: PostgreSQL, or MariaDB)
 * for the life of the application and point Boot's own HikariCP auto-configuration at it,
 * so every {@code spring.datasource.hikari.*} setting still applies. With a URL (e.g.
 * {@code SPRING_DATASOURCE_URL}) nothing is started.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(EmbeddedDatabaseConfiguration.NoDatasourceUrl.class)
class EmbeddedDatabaseConfiguration {

	@Bean(destroyMethod = "close")
	EmbeddedDatabase embeddedDatabase(Environment environment) {
		return DatabaseVendor.of(environment).startEmbedded();
	}

	/** The embedded servers trust local connections: no password. */
	@Bean
	JdbcConnectionDetails embeddedConnectionDetails(EmbeddedDatabase server) {
		return new JdbcConnectionDetails() {

			@Override
			public String getUsername() {
				return server.user();
			}

			@Override
			public @Nullable String getPassword() {
				return null;
			}

			@Override
			public String getJdbcUrl() {
				return server.jdbcUrl();
			}

		};
	}

	static class NoDatasourceUrl implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return !StringUtils.hasText(context.getEnvironment().getProperty("spring.datasource.url"));
		}

	}

}
