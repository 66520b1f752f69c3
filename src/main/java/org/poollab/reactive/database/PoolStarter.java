package org.poollab.reactive.database;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import reactor.core.publisher.Mono;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * Opens the pool's connections while the application starts, not on the first request, as
 * the JDBC service does: the first measured requests do not pay for filling the pool,
 * {@code r2dbc_pool_allocated_connections} holds the pool's size from the first scrape,
 * and a database that refuses the login stops start-up. r2dbc-pool opens its
 * {@code initial-size} connections only on the first acquisition unless warmed up. (A
 * resize opens the new pool's connections itself, before the pool takes requests.)
 * <p>
 * The JVM's first connection also starts the driver (Netty's event loop, its classes),
 * which took longer than {@code max-create-connection-time} (3 s) beside busy JVMs on a
 * 2-core machine and stopped start-up. So one connection is opened and closed outside the
 * pool first, within {@link #FIRST_CONNECTION_TIMEOUT}; the pool's own then get its 3 s
 * each. Opening again what timed out in the pool is no way round it: r2dbc-pool
 * (reactor-pool 1.2.6) counted a connection it never opened after a timed-out warm-up and
 * served one fewer ({@code PoolStarterTests}).
 */
@Component
class PoolStarter implements SmartInitializingSingleton {

	/** Room for opening a pool of a few hundred connections on a loaded machine. */
	static final Duration WARM_UP_TIMEOUT = Duration.ofSeconds(60);

	/**
	 * The first connection, the driver's start included: an unreachable database stops
	 * start-up after it.
	 */
	static final Duration FIRST_CONNECTION_TIMEOUT = Duration.ofSeconds(20);

	private final ObjectProvider<ResizableConnectionPool> pool;

	/**
	 * @param pool the pool, absent with {@code spring.r2dbc.pool.enabled=false} (a new
	 * connection per request: nothing to open at start)
	 */
	PoolStarter(ObjectProvider<ResizableConnectionPool> pool) {
		this.pool = pool;
	}

	@Override
	public void afterSingletonsInstantiated() {
		ResizableConnectionPool pool = this.pool.getIfAvailable();
		if (pool != null) {
			open(pool, FIRST_CONNECTION_TIMEOUT, WARM_UP_TIMEOUT);
		}
	}

	/**
	 * Opens a first connection outside the pool, then the pool's {@code initial-size}.
	 * @throws IllegalStateException when the database refused a connection, or either
	 * took longer than its timeout
	 */
	static void open(ResizableConnectionPool pool, Duration firstConnectionTimeout, Duration warmUpTimeout) {
		try {
			pool.openOneOutsideThePool()
				.timeout(firstConnectionTimeout,
						Mono.error(() -> new TimeoutException("no first connection to the database within "
								+ firstConnectionTimeout.toMillis() + " ms")))
				.then(pool.warmup())
				.block(warmUpTimeout);
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("Could not start the connection pool: " + ex.getMessage(), ex);
		}
	}

}
