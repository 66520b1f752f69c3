package org.poollab.plainapp;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A plain Spring Boot application, as a team would write one, to paste the lab's blocks
 * into: Spring MVC with Boot's default error handling, JDBC over HikariCP, and Flyway
 * migrating on the same {@code DataSource} at start. None of the lab's code: it scans
 * only this package and reads its own {@code plainapp.yml}, never the lab's
 * {@code application.yml}.
 * <p>
 * R2DBC's auto-configuration is excluded only because the lab's classpath carries the
 * reactive twin's driver; a plain JDBC app would not have it. Runs in a test
 * ({@link #start}) or as its own process:
 * {@code java -cp <test and runtime classpath> org.poollab.plainapp.PlainApplication
 * --spring.datasource.url=jdbc:postgresql://... --spring.config.additional-location=file:block.yml}.
 */
@SpringBootApplication(exclude = R2dbcAutoConfiguration.class)
public class PlainApplication {

	/** Its own configuration file's name, so the lab's application.yml is never read. */
	public static final String CONFIG_NAME = "plainapp";

	public static void main(String[] args) {
		start(args);
	}

	/**
	 * Starts the application.
	 * @param args Spring Boot's command-line arguments ({@code --key=value})
	 * @return the running application
	 */
	public static ConfigurableApplicationContext start(String... args) {
		return new SpringApplicationBuilder(PlainApplication.class).web(WebApplicationType.SERVLET)
			.properties("spring.config.name=" + CONFIG_NAME)
			.run(args);
	}

}
