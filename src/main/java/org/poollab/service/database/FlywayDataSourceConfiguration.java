package org.poollab.service.database;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * Migrations run on Flyway's own unpooled connections, not on the pool under test. Flyway
 * holds two connections at once (one for its lock), so on the application's pool it could
 * not start at {@code maximum-pool-size=1}, one of the sizes the lab must measure.
 */
@Configuration(proxyBeanMethods = false)
class FlywayDataSourceConfiguration {

	@Bean
	FlywayConfigurationCustomizer unpooledMigrations(ObjectProvider<JdbcConnectionDetails> embedded,
			DataSourceProperties properties, Environment environment) {
		return (flyway) -> {
			JdbcConnectionDetails connection = embedded.getIfAvailable();
			String flywayUrl = environment.getProperty("spring.flyway.url");
			if (StringUtils.hasText(flywayUrl)) {
				// Migrations somewhere else than the datasource (behind pgbouncer: to
				// PostgreSQL itself).
				flyway.dataSource(flywayUrl,
						environment.getProperty("spring.flyway.user", properties.determineUsername()),
						environment.getProperty("spring.flyway.password", properties.determinePassword()));
			}
			else if (connection != null) {
				flyway.dataSource(connection.getJdbcUrl(), connection.getUsername(), connection.getPassword());
			}
			else {
				flyway.dataSource(properties.determineUrl(), properties.determineUsername(),
						properties.determinePassword());
			}
		};
	}

}
