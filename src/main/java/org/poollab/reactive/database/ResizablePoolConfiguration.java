package org.poollab.reactive.database;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryOptions;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.r2dbc.ConnectionFactoryBuilder;
import org.springframework.boot.r2dbc.ConnectionFactoryDecorator;
import org.springframework.boot.r2dbc.autoconfigure.ConnectionFactoryOptionsBuilderCustomizer;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcConnectionDetails;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The twin's pool: a {@link ResizableConnectionPool} in place of the
 * {@code ConnectionPool} Spring Boot would build (Boot backs off when a
 * {@link ConnectionFactory} bean exists). Replaced, not wrapped: a second
 * {@code ConnectionFactory} beside Boot's would be a second health check and an ambiguity
 * for the transaction manager, and Boot's pool would stay a bean that goes stale at the
 * first resize. Configured as Boot configures its own: the connection from
 * {@link R2dbcConnectionDetails} (from {@code spring.r2dbc.url}, or the embedded server),
 * the options customizers and decorators applied, the pool from
 * {@code spring.r2dbc.pool.*}.
 * <p>
 * Boot's r2dbc-pool gauges are bound once, to the pool bean they find at start, so the
 * application excludes them ({@code ConnectionPoolMetricsAutoConfiguration}) and
 * {@link PoolGauges} registers the same meters over whichever pool is current.
 * <p>
 * With {@code spring.r2dbc.pool.enabled=false} there is no pool: Spring Boot's own
 * unpooled connection factory opens a connection per request (the lab's {@code none} pool
 * size, as the JDBC service's {@code SimpleDriverDataSource}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "spring.r2dbc.pool.enabled", matchIfMissing = true)
class ResizablePoolConfiguration {

	@Bean(name = ResizableConnectionPool.BEAN_NAME, destroyMethod = "close")
	ResizableConnectionPool connectionFactory(R2dbcProperties properties, R2dbcConnectionDetails connectionDetails,
			ObjectProvider<ConnectionFactoryOptionsBuilderCustomizer> customizers,
			ObjectProvider<ConnectionFactoryDecorator> decorators) {
		ConnectionFactory unpooled = ConnectionFactoryBuilder
			.withOptions(ConnectionFactoryOptions.builder().from(connectionDetails.getConnectionFactoryOptions()))
			.configure((options) -> customizers.orderedStream().forEach((customizer) -> customizer.customize(options)))
			.decorators(decorators.orderedStream().toList())
			.build();
		return new ResizableConnectionPool(unpooled, properties.getPool());
	}

	@Bean
	MeterBinder connectionPoolGauges(ResizableConnectionPool pool) {
		return new PoolGauges(pool, ResizableConnectionPool.BEAN_NAME);
	}

}
