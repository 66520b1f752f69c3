package org.poollab.service.system;

import java.net.InetAddress;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.net.UnknownHostException;

import com.zaxxer.hikari.HikariConfigMXBean;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Changes {@code maximum-pool-size} of the running pool, for the sweep (which resizes
 * instead of restarting between pool sizes) and for exploration in the JMeter GUI. Off
 * unless {@code lab.pool-resize.enabled=true}, and then only on a loopback address: it
 * lets anyone who can reach it change how hard the database is hit.
 */
@Component
@Endpoint(id = "poolsize")
@ConditionalOnBooleanProperty("lab.pool-resize.enabled")
class PoolSizeEndpoint {

	static final int MAX_POOL_SIZE = 1000;

	private final HikariDataSource dataSource;

	PoolSizeEndpoint(HikariDataSource dataSource, Environment environment) {
		this.dataSource = dataSource;
		requireLoopback(environment);
	}

	@ReadOperation
	PoolState state() {
		HikariConfigMXBean config = this.dataSource.getHikariConfigMXBean();
		HikariPoolMXBean pool = this.dataSource.getHikariPoolMXBean();
		return new PoolState(this.dataSource.getPoolName(), config.getMaximumPoolSize(), config.getMinimumIdle(),
				pool.getTotalConnections(), pool.getActiveConnections(), pool.getIdleConnections(),
				pool.getThreadsAwaitingConnection());
	}

	/**
	 * Resizes the pool and keeps it fixed-size (minimum idle = maximum). The pool's
	 * connections are then soft-evicted: each closes as soon as it is idle, and every
	 * close makes HikariCP fill up to the new size at once, instead of at its next
	 * housekeeping run (30 s) when growing.
	 * @param maximumPoolSize the new size, 1 to {@value #MAX_POOL_SIZE}
	 * @return the pool's state after the change
	 */
	@WriteOperation
	WebEndpointResponse<Object> resize(int maximumPoolSize) {
		if (maximumPoolSize < 1 || maximumPoolSize > MAX_POOL_SIZE) {
			throw new InvalidEndpointRequestException(
					"maximumPoolSize=%d is not allowed: use a whole number from 1 to %d".formatted(maximumPoolSize,
							MAX_POOL_SIZE),
					"maximumPoolSize out of range");
		}
		HikariConfigMXBean config = this.dataSource.getHikariConfigMXBean();
		if (maximumPoolSize < config.getMaximumPoolSize()) {
			config.setMinimumIdle(maximumPoolSize);
			config.setMaximumPoolSize(maximumPoolSize);
		}
		else {
			config.setMaximumPoolSize(maximumPoolSize);
			config.setMinimumIdle(maximumPoolSize);
		}
		this.dataSource.getHikariPoolMXBean().softEvictConnections();
		try {
			fill(maximumPoolSize);
		}
		catch (SQLException ex) {
			// The size is set, but the database refused that many
			// connections (e.g. too many clients). Say so: the caller
			// must not measure a pool that is not there.
			String reason = NestedExceptionUtils.getMostSpecificCause(ex).getMessage();
			return new WebEndpointResponse<>(
					Map.of("error",
							"Pool %s could not open %d connections: %s (%s)".formatted(this.dataSource.getPoolName(),
									maximumPoolSize, reason, ex.getMessage()),
							"state", state()),
					WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
		}
		return new WebEndpointResponse<>(state());
	}

	/**
	 * Borrows {@code size} connections at once, which makes the pool open new ones on
	 * demand, then returns them all as idle connections.
	 */
	private void fill(int size) throws SQLException {
		List<Connection> borrowed = new ArrayList<>(size);
		try {
			for (int i = 0; i < size; i++) {
				borrowed.add(this.dataSource.getConnection());
			}
		}
		finally {
			borrowed.forEach(PoolSizeEndpoint::closeQuietly);
		}
	}

	private static void closeQuietly(Connection connection) {
		try {
			connection.close();
		}
		catch (SQLException ex) {
			// Returned to the pool: HikariCP discards a connection
			// it cannot reset.
		}
	}

	private static void requireLoopback(Environment environment) {
		String property = environment.containsProperty("management.server.address") ? "management.server.address"
				: "server.address";
		String address = environment.getProperty(property, "");
		if (!isLoopback(address)) {
			throw new IllegalStateException(
					"lab.pool-resize.enabled=true needs %s to be a loopback address (e.g. 127.0.0.1), but it is '%s'"
						.formatted(property, address.isEmpty() ? "(unset: all interfaces)" : address));
		}
	}

	private static boolean isLoopback(String address) {
		if (address.isBlank()) {
			return false;
		}
		try {
			return InetAddress.getByName(address).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

	record PoolState(String pool, int maximumPoolSize, int minimumIdle, int total, int active, int idle, int waiting) {
	}

}
