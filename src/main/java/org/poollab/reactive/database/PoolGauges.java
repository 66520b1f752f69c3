package org.poollab.reactive.database;

import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.r2dbc.pool.PoolMetrics;

/**
 * Spring Boot's r2dbc-pool gauges ({@code ConnectionPoolMetrics}: the same names, unit,
 * descriptions and {@code name} tag, so {@code r2dbc_pool_max_allocated_connections} and
 * its siblings read as before), but each read from the pool in use at the scrape: Boot's
 * would go on describing the first pool after a resize has disposed it.
 */
final class PoolGauges implements MeterBinder {

	private final ResizableConnectionPool pool;

	private final String name;

	/**
	 * @param pool the pool to read
	 * @param name the {@code name} tag, the pool's bean name as Boot tags it
	 */
	PoolGauges(ResizableConnectionPool pool, String name) {
		this.pool = pool;
		this.name = name;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		gauge(registry, "acquired", "Size of successfully acquired connections which are in active use.",
				PoolMetrics::acquiredSize);
		gauge(registry, "allocated", "Size of allocated connections in the pool which are in active use or idle.",
				PoolMetrics::allocatedSize);
		gauge(registry, "idle", "Size of idle connections in the pool.", PoolMetrics::idleSize);
		gauge(registry, "pending", "Size of pending to acquire connections from the underlying connection factory.",
				PoolMetrics::pendingAcquireSize);
		gauge(registry, "max.allocated", "Maximum size of allocated connections that this pool allows.",
				PoolMetrics::getMaxAllocatedSize);
		gauge(registry, "max.pending", "Maximum size of pending state to acquire connections that this pool allows.",
				PoolMetrics::getMaxPendingAcquireSize);
	}

	private void gauge(MeterRegistry registry, String metric, String description, ToDoubleFunction<PoolMetrics> value) {
		Gauge.builder("r2dbc.pool." + metric, this.pool, (pool) -> value.applyAsDouble(pool.metrics()))
			.description(description)
			.tag("name", this.name)
			.baseUnit("connections")
			.register(registry);
	}

}
