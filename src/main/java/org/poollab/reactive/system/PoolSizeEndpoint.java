package org.poollab.reactive.system;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.pool.PoolMetrics;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.poollab.reactive.database.ResizableConnectionPool;
import org.poollab.service.system.PoolResize;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcProperties;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The JDBC service's {@code poolsize} endpoint for the reactive twin: the same request,
 * answers and guard ({@link PoolResize}), so that the lab sweeps r2dbc-pool sizes on one
 * running instance as it sweeps HikariCP's. Off unless
 * {@code lab.pool-resize.enabled=true}: it lets anyone who can reach it change how hard
 * the database is hit. Then it starts only on a loopback address, or on the actuator's
 * own port with a token that every write must carry ({@link PoolResize#guard}).
 * <p>
 * A resize puts a new pool in the old one's place ({@link ResizableConnectionPool}): for
 * a moment the instance holds both pools' connections, so the database must allow the old
 * size plus the new one.
 */
@Component
@Endpoint(id = "poolsize")
@ConditionalOnBooleanProperty(PoolResize.ENABLED_PROPERTY)
class PoolSizeEndpoint {

	private final ResizableConnectionPool pool;

	private final R2dbcProperties.Pool settings;

	PoolSizeEndpoint(ResizableConnectionPool pool, R2dbcProperties properties, Environment environment) {
		this.pool = pool;
		this.settings = properties.getPool();
		PoolResize.guard(environment);
	}

	@ReadOperation
	PoolState state() {
		ResizableConnectionPool.Sizes sizes = this.pool.sizes();
		PoolMetrics metrics = this.pool.metrics();
		return new PoolState(ResizableConnectionPool.BEAN_NAME, metrics.getMaxAllocatedSize(), sizes.minIdle(),
				metrics.allocatedSize(), metrics.acquiredSize(), metrics.idleSize(), metrics.pendingAcquireSize(),
				settings(sizes));
	}

	/**
	 * The running pool's settings, by their {@code spring.r2dbc.pool.*} names, times in
	 * milliseconds ({@link ConnectionPoolConfiguration#NO_TIMEOUT r2dbc-pool's "no
	 * limit"} for one not set): the sizes it was last built with, the rest as the
	 * application started.
	 */
	private Map<String, Long> settings(ResizableConnectionPool.Sizes sizes) {
		Map<String, Long> settings = new LinkedHashMap<>();
		settings.put("max-size", (long) sizes.maxSize());
		settings.put("initial-size", (long) sizes.initialSize());
		settings.put("min-idle", (long) sizes.minIdle());
		settings.put("max-acquire-time", millis(this.settings.getMaxAcquireTime()));
		settings.put("acquire-retry", (long) this.settings.getAcquireRetry());
		settings.put("max-create-connection-time", millis(this.settings.getMaxCreateConnectionTime()));
		settings.put("max-validation-time", millis(this.settings.getMaxValidationTime()));
		settings.put("max-idle-time", millis(this.settings.getMaxIdleTime()));
		settings.put("max-life-time", millis(this.settings.getMaxLifeTime()));
		return settings;
	}

	private static long millis(@Nullable Duration time) {
		return ((time != null) ? time : ConnectionPoolConfiguration.NO_TIMEOUT).toMillis();
	}

	/**
	 * Resizes the pool, fixed-size ({@code max-size} = {@code initial-size} =
	 * {@code min-idle}), and answers once the new pool holds exactly that many
	 * connections and the old one is disposed. Requests keep being served throughout.
	 * @param maximumPoolSize the new size, a whole number from 1 to
	 * {@value PoolResize#MAX_POOL_SIZE}; taken as written, so that a refusal can quote it
	 * @return the pool's state after the change, a 400 problem naming the field, the
	 * value and the allowed range, or a 503 saying why the new pool could not open that
	 * many connections (the old pool then stays, unchanged)
	 */
	@WriteOperation
	Mono<WebEndpointResponse<Object>> resize(String maximumPoolSize) {
		Integer size = PoolResize.parseSize(maximumPoolSize);
		if (size == null) {
			return Mono.just(PoolResize.invalidSize(maximumPoolSize));
		}
		return this.pool.resize(size, PoolResize.SETTLE_TIMEOUT)
			.then(Mono.fromSupplier(() -> new WebEndpointResponse<Object>(state())))
			.onErrorResume((ex) -> Mono.just(PoolResize.unavailable("Pool %s could not open %d connections: %s"
				.formatted(ResizableConnectionPool.BEAN_NAME, size, reason(ex)), state())));
	}

	private static String reason(Throwable ex) {
		Throwable cause = NestedExceptionUtils.getMostSpecificCause(ex);
		return (cause.getMessage() != null) ? cause.getMessage() : cause.toString();
	}

	/**
	 * A pool's size and occupancy, by the JDBC service's names for HikariCP's numbers,
	 * and its settings by {@code spring.r2dbc.pool.*} name.
	 */
	record PoolState(String pool, int maximumPoolSize, int minimumIdle, int total, int active, int idle, int waiting,
			Map<String, Long> settings) {
	}

}
