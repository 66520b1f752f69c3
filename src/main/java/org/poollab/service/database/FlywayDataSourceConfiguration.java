package org.poollab.service.database;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Migrations run on Flyway's own unpooled connections, not on the pool under test. Flyway
 * holds two connections at once (one for its lock), so on the application's pool it could
 * not start at {@code maximum-pool-size=1}, one of the sizes the lab must measure.
 */
@Configuration(proxyBeanMethods = false)
class FlywayDataSourceConfiguration {

	@Bean
	FlywayConfigurationCustomizer unpooledMigrations(ObjectProvider<JdbcConnectionDetails> embedded,
			DataSourceProperties properties) {
		return (flyway) -> {
			JdbcConnectionDetails connection = embedded.getIfAvailable();
			if (connection != null) {
				flyway.dataSource(connection.getJdbcUrl(), connection.getUsername(), connection.getPassword());
			}
			else {
				flyway.dataSource(properties.determineUrl(), properties.determineUsername(),
						properties.determinePassword());
			}
		};
	}

}
