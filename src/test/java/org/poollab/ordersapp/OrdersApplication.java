package org.poollab.ordersapp;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A second plain Spring Boot application, of another shape than
 * {@link org.poollab.plainapp.PlainApplication}: a page that takes the pool two or three
 * times per request (repositories called one after another, no {@code @Transactional}
 * around them) and, for a few orders, a slow query. None of the lab's code; it reads its
 * own {@code ordersapp.yml}. It exists to give {@code bench.holdTimeFrom} expositions
 * with more than one use per request and a tail wider than any lognormal (the fixtures
 * under {@code org/poollab/bench/grid/holdtimefrom/}).
 * <p>
 * Runs as its own process: {@code java -cp <test and runtime classpath>
 * org.poollab.ordersapp.OrdersApplication --spring.datasource.url=jdbc:postgresql://...}.
 */
@SpringBootApplication(exclude = R2dbcAutoConfiguration.class)
public class OrdersApplication {

	/** Its own configuration file's name, so the lab's application.yml is never read. */
	public static final String CONFIG_NAME = "ordersapp";

	public static void main(String[] args) {
		start(args);
	}

	/**
	 * Starts the application.
	 * @param args Spring Boot's command-line arguments ({@code --key=value})
	 * @return the running application
	 */
	public static ConfigurableApplicationContext start(String... args) {
		return new SpringApplicationBuilder(OrdersApplication.class).web(WebApplicationType.SERVLET)
			.properties("spring.config.name=" + CONFIG_NAME)
			.run(args);
	}

}
