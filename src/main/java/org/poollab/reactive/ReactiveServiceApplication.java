package org.poollab.reactive;

import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.r2dbc.autoconfigure.metrics.ConnectionPoolMetricsAutoConfiguration;
import org.springframework.boot.tomcat.autoconfigure.actuate.web.server.TomcatReactiveManagementContextAutoConfiguration;
import org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration;

import org.poollab.service.hold.HoldProperties;

/**
 * The reactive twin of the service under test: {@code GET /roles} (and the write
 * workload, {@code POST /roles/{id}/audit}) on WebFlux (Reactor Netty) over an r2dbc-pool
 * on PostgreSQL, for comparing with the JDBC service
 * ({@code org.poollab.service.ServiceApplication}) at the same pool size.
 * <p>
 * How the lab starts an instance, on the classpath the sweep starts JDBC instances with
 * ({@code target/lab/runtime.classpath} plus {@code target/classes}), the password in the
 * environment ({@code SPRING_R2DBC_PASSWORD}, {@code SPRING_FLYWAY_PASSWORD}):
 *
 * <pre>
 * java -cp &lt;classpath&gt; org.poollab.reactive.ReactiveServiceApplication \
 *   --server.address=127.0.0.1 --server.port=&lt;port&gt; \
 *   --management.server.address=127.0.0.1 --management.server.port=&lt;management port&gt; \
 *   --spring.r2dbc.url=r2dbc:postgresql://&lt;host&gt;:&lt;port&gt;/&lt;database&gt; --spring.r2dbc.username=&lt;user&gt; \
 *   --spring.flyway.url=jdbc:postgresql://&lt;host&gt;:&lt;port&gt;/&lt;database&gt; --spring.flyway.user=&lt;user&gt; \
 *   --spring.r2dbc.pool.max-size=&lt;pool size&gt; --spring.main.banner-mode=off
 * </pre>
 *
 * Without {@code spring.r2dbc.url} it starts an embedded PostgreSQL of its own and
 * migrates it. {@code spring.r2dbc.pool.max-size} is the pool size (the pool is fixed at
 * it: {@code initial-size} and {@code min-idle} follow it in {@code reactive.yml});
 * {@code r2dbc_pool_max_allocated_connections} on the management port's
 * {@code /actuator/prometheus} reports it back. With {@code lab.pool-resize.enabled=true}
 * the pool can be resized while it runs ({@code POST /actuator/poolsize}, as on the JDBC
 * service): the pool is the twin's own {@code ResizableConnectionPool}, built from the
 * same {@code spring.r2dbc.pool.*} settings as Boot's would be, and Boot's r2dbc-pool
 * gauges ({@code ConnectionPoolMetricsAutoConfiguration}, bound once to the pool found at
 * start) are excluded for gauges of the same names that read the current pool. Flyway
 * migrates over JDBC ({@code spring.flyway.url}), on connections of its own: R2DBC cannot
 * migrate, and this application has no JDBC pool ({@code DataSourceAutoConfiguration} is
 * excluded). Its web server is Reactor Netty: Tomcat, on the classpath for the JDBC
 * service, would also offer itself as a reactive server (and as the management port's),
 * so its reactive auto-configurations are excluded.
 * <p>
 * Its configuration is {@code reactive.yml}, not the JDBC service's
 * {@code application.yml} ({@link #CONFIG_NAME}, set as a default property by
 * {@link #application()}, which {@code main} and the tests both use): the two services
 * share the classpath, and each file holds only its own service's settings. Command-line
 * arguments and the environment override it as usual. Shared with the JDBC service: the
 * Flyway migrations (schema and seed data), the {@code GET /roles} statement
 * ({@code RoleQueries}), the embedded server ({@code EmbeddedPostgresServer}), the
 * refusal counter's name and reasons ({@code Refusals}) and the emulated connection hold
 * ({@code lab.hold.*}, {@link HoldProperties}).
 */
@SpringBootApplication(exclude = { DataSourceAutoConfiguration.class, TomcatReactiveWebServerAutoConfiguration.class,
		TomcatReactiveManagementContextAutoConfiguration.class, ConnectionPoolMetricsAutoConfiguration.class })
@EnableConfigurationProperties(HoldProperties.class)
public class ReactiveServiceApplication {

	/** {@code spring.config.name}: {@code reactive.yml} on the classpath. */
	public static final String CONFIG_NAME = "reactive";

	public static void main(String[] args) {
		application().run(args);
	}

	/**
	 * The application, reading {@code reactive.yml}; {@code run(args)} starts it.
	 * @return a new application
	 */
	public static SpringApplication application() {
		SpringApplication application = new SpringApplication(ReactiveServiceApplication.class);
		application.setDefaultProperties(Map.of("spring.config.name", CONFIG_NAME));
		return application;
	}

}
