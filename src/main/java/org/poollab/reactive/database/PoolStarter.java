package org.poollab.reactive.database;

import java.time.Duration;

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
 */
@Component
class PoolStarter implements SmartInitializingSingleton {

	/** Room for opening a pool of a few hundred connections on a loaded machine. */
	static final Duration WARM_UP_TIMEOUT = Duration.ofSeconds(60);

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
		if (pool == null) {
			return;
		}
		try {
			pool.warmup().block(WARM_UP_TIMEOUT);
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("Could not start the connection pool: " + ex.getMessage(), ex);
		}
	}

}
