package org.poollab.service.database;

import java.util.Map;
import java.util.Properties;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.util.StringUtils;

/**
 * Migrations run on Flyway's own unpooled connections, not on the pool under test. Flyway
 * holds two connections at once (one for its lock), so on the application's pool it could
 * not start at {@code maximum-pool-size=1}, one of the sizes the lab must measure.
 * <p>
 * Flyway connects before the pool does, with the pool's driver properties
 * ({@code spring.datasource.hikari.data-source-properties}): its login is bounded by the
 * same {@code loginTimeout}, so an unreachable database stops start-up as fast as it
 * would stop the pool, and settings the database needs (TLS, for one) apply to both.
 */
@Configuration(proxyBeanMethods = false)
class FlywayDataSourceConfiguration {

	static final String DRIVER_PROPERTIES = "spring.datasource.hikari.data-source-properties";

	@Bean
	FlywayConfigurationCustomizer unpooledMigrations(ObjectProvider<JdbcConnectionDetails> embedded,
			DataSourceProperties properties, Environment environment) {
		return (flyway) -> {
			JdbcConnectionDetails connection = embedded.getIfAvailable();
			Properties driverProperties = driverProperties(environment);
			String flywayUrl = environment.getProperty("spring.flyway.url");
			if (StringUtils.hasText(flywayUrl)) {
				// Migrations somewhere else than the datasource (behind pgbouncer: to
				// PostgreSQL itself).
				flyway.dataSource(dataSource(flywayUrl,
						property(environment, "spring.flyway.user", properties.determineUsername()),
						property(environment, "spring.flyway.password", properties.determinePassword()),
						driverProperties));
			}
			else if (connection != null) {
				flyway.dataSource(dataSource(connection.getJdbcUrl(), connection.getUsername(),
						connection.getPassword(), driverProperties));
			}
			else {
				flyway.dataSource(dataSource(properties.determineUrl(), properties.determineUsername(),
						properties.determinePassword(), driverProperties));
			}
		};
	}

	static Properties driverProperties(Environment environment) {
		Map<String, String> bound = Binder.get(environment)
			.bind(DRIVER_PROPERTIES, Bindable.mapOf(String.class, String.class))
			.orElse(Map.of());
		Properties driverProperties = new Properties();
		driverProperties.putAll(bound);
		return driverProperties;
	}

	/** A setting, else the fallback (which may be unset too). */
	private static @Nullable String property(Environment environment, String key, @Nullable String fallback) {
		String value = environment.getProperty(key);
		return (value != null) ? value : fallback;
	}

	/**
	 * A new connection whenever Flyway asks for one, as Flyway's own would be.
	 */
	private static DataSource dataSource(String url, @Nullable String username, @Nullable String password,
			Properties driverProperties) {
		DriverManagerDataSource dataSource = new DriverManagerDataSource(url);
		dataSource.setUsername(username);
		dataSource.setPassword(password);
		dataSource.setConnectionProperties(driverProperties);
		return dataSource;
	}

}
