package org.poollab.service.system;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.zaxxer.hikari.HikariConfigMXBean;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;

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
 * unless {@code lab.pool-resize.enabled=true}: it lets anyone who can reach it change how
 * hard the database is hit. Then it starts only on a loopback address, or on the
 * actuator's own port with a token that every write must carry ({@link PoolResize#guard},
 * checked per request by {@code org.poollab.management.PoolResizeAuthorization}). The
 * request, the allowed sizes and the refusals are the reactive twin's too
 * ({@link PoolResize}).
 */
@Component
@Endpoint(id = "poolsize")
@ConditionalOnBooleanProperty(PoolResize.ENABLED_PROPERTY)
class PoolSizeEndpoint {

	private static final Duration SETTLE_POLL = Duration.ofMillis(10);

	private final HikariDataSource dataSource;

	PoolSizeEndpoint(HikariDataSource dataSource, Environment environment) {
		this.dataSource = dataSource;
		PoolResize.guard(environment);
	}

	@ReadOperation
	PoolState state() {
		HikariConfigMXBean config = this.dataSource.getHikariConfigMXBean();
		HikariPoolMXBean pool = this.dataSource.getHikariPoolMXBean();
		return new PoolState(this.dataSource.getPoolName(), config.getMaximumPoolSize(), config.getMinimumIdle(),
				pool.getTotalConnections(), pool.getActiveConnections(), pool.getIdleConnections(),
				pool.getThreadsAwaitingConnection(), settings());
	}

	/**
	 * The running pool's settings, by their {@code spring.datasource.hikari.*} names and
	 * in HikariCP's units (milliseconds for times): what the lab's confirmation run holds
	 * against the block it started the instance with.
	 */
	private Map<String, Long> settings() {
		HikariConfigMXBean config = this.dataSource.getHikariConfigMXBean();
		Map<String, Long> settings = new LinkedHashMap<>();
		settings.put("maximum-pool-size", (long) config.getMaximumPoolSize());
		settings.put("minimum-idle", (long) config.getMinimumIdle());
		settings.put("connection-timeout", config.getConnectionTimeout());
		settings.put("validation-timeout", config.getValidationTimeout());
		settings.put("idle-timeout", config.getIdleTimeout());
		settings.put("max-lifetime", config.getMaxLifetime());
		// Not on the MXBean: read from the configuration the pool started with.
		settings.put("keepalive-time", this.dataSource.getKeepaliveTime());
		settings.put("leak-detection-threshold", config.getLeakDetectionThreshold());
		return settings;
	}

	/**
	 * Resizes the pool, keeps it fixed-size (minimum idle = maximum) and returns once it
	 * holds exactly that many connections. Growing keeps every connection the pool has
	 * and opens only the missing ones; shrinking soft-evicts them all (each closes as
	 * soon as it is idle) and the pool opens the new size afresh, as HikariCP has no way
	 * to close just the surplus.
	 * @param maximumPoolSize the new size, a whole number from 1 to
	 * {@value PoolResize#MAX_POOL_SIZE}; taken as written, so that a refusal can quote it
	 * @return the pool's state after the change, a 400 problem naming the field, the
	 * value and the allowed range, or a 503 saying why the pool does not hold that many
	 * connections
	 */
	@WriteOperation
	WebEndpointResponse<Object> resize(String maximumPoolSize) {
		Integer parsed = PoolResize.parseSize(maximumPoolSize);
		if (parsed == null) {
			return PoolResize.invalidSize(maximumPoolSize);
		}
		return resizeTo(parsed);
	}

	private WebEndpointResponse<Object> resizeTo(int maximumPoolSize) {
		HikariConfigMXBean config = this.dataSource.getHikariConfigMXBean();
		HikariPoolMXBean pool = this.dataSource.getHikariPoolMXBean();
		long deadlineNanos = System.nanoTime() + PoolResize.SETTLE_TIMEOUT.toNanos();
		try {
			if (maximumPoolSize < config.getMaximumPoolSize()) {
				config.setMinimumIdle(maximumPoolSize);
				config.setMaximumPoolSize(maximumPoolSize);
				pool.softEvictConnections();
			}
			else {
				config.setMaximumPoolSize(maximumPoolSize);
				config.setMinimumIdle(maximumPoolSize);
				fill(maximumPoolSize, deadlineNanos);
			}
			awaitTotal(maximumPoolSize, deadlineNanos);
		}
		catch (SQLException ex) {
			// The size is set, but the database refused that many
			// connections (e.g. too many clients). Say so: the caller
			// must not measure a pool that is not there.
			String reason = NestedExceptionUtils.getMostSpecificCause(ex).getMessage();
			return unavailable("Pool %s could not open %d connections: %s (%s)".formatted(this.dataSource.getPoolName(),
					maximumPoolSize, reason, ex.getMessage()));
		}
		if (pool.getTotalConnections() != maximumPoolSize) {
			return unavailable("Pool %s holds %d connections, not %d, %d s after the resize".formatted(
					this.dataSource.getPoolName(), pool.getTotalConnections(), maximumPoolSize,
					PoolResize.SETTLE_TIMEOUT.toSeconds()));
		}
		return new WebEndpointResponse<>(state());
	}

	private WebEndpointResponse<Object> unavailable(String error) {
		return PoolResize.unavailable(error, state());
	}

	/**
	 * HikariCP opens a connection when a borrower finds none idle (otherwise only at its
	 * 30 s housekeeping), one per waiting borrower. So the endpoint takes the idle
	 * connections and goes on borrowing until the pool has opened the missing ones, then
	 * gives them all back.
	 */
	private void fill(int size, long deadlineNanos) throws SQLException {
		HikariPoolMXBean pool = this.dataSource.getHikariPoolMXBean();
		List<Connection> borrowed = new ArrayList<>(size);
		try {
			while (pool.getTotalConnections() < size && System.nanoTime() < deadlineNanos) {
				borrowed.add(this.dataSource.getConnection());
			}
		}
		finally {
			borrowed.forEach(PoolSizeEndpoint::closeQuietly);
		}
	}

	/**
	 * Evicted connections close once their requests give them back, and the pool refills
	 * to its new size in the background.
	 */
	private void awaitTotal(int size, long deadlineNanos) {
		HikariPoolMXBean pool = this.dataSource.getHikariPoolMXBean();
		while (pool.getTotalConnections() != size && System.nanoTime() < deadlineNanos) {
			try {
				Thread.sleep(SETTLE_POLL.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
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

	/**
	 * A pool's size and occupancy, and its settings by {@code spring.datasource.hikari.*}
	 * name.
	 */
	record PoolState(String pool, int maximumPoolSize, int minimumIdle, int total, int active, int idle, int waiting,
			Map<String, Long> settings) {
	}

}
