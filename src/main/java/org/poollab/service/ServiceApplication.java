package org.poollab.service;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The service under test: {@code GET /roles} over a HikariCP pool on PostgreSQL.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ServiceApplication {

	public static void main(String[] args) {
		SpringApplication.run(ServiceApplication.class, args);
	}

}
