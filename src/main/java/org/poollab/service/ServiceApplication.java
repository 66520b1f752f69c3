package org.poollab.service;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration;

/**
 * The service under test: {@code GET /roles} over a HikariCP pool on PostgreSQL.
 * <p>
 * The reactive twin's dependencies (WebFlux, R2DBC) share this classpath. This service
 * stays a servlet application ({@code spring.main.web-application-type} in
 * {@code application.yml}) with HikariCP its only pool: R2DBC's auto-configuration is
 * excluded, so no {@code ConnectionFactory} is built (without {@code spring.r2dbc.url} it
 * would fail start-up), and Boot's other R2DBC auto-configurations (transaction manager,
 * health, pool metrics) stay off because each needs that {@code ConnectionFactory}.
 */
@SpringBootApplication(exclude = R2dbcAutoConfiguration.class)
@ConfigurationPropertiesScan
public class ServiceApplication {

	public static void main(String[] args) {
		SpringApplication.run(ServiceApplication.class, args);
	}

}
