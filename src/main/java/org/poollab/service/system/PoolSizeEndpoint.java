package org.poollab.service.system;

import java.net.InetAddress;
import java.net.UnknownHostException;
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

import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;
import org.springframework.util.MimeType;

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

	static final String INVALID_SIZE_TYPE = "urn:poollab:invalid-pool-size";

	/**
	 * How long a resize may take to settle. HikariCP opens about 30 connections a second
	 * (it pauses 30 ms after each), so this covers growing by several hundred; it stays
	 * below the 60 s the sweep waits for the answer.
	 */
	static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration SETTLE_POLL = Duration.ofMillis(10);

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
	 * {@value #MAX_POOL_SIZE}; taken as written, so that a refusal can quote it
	 * @return the pool's state after the change, a 400 problem naming the field, the
	 * value and the allowed range, or a 503 saying why the pool does not hold that many
	 * connections
	 */
	@WriteOperation
	WebEndpointResponse<Object> resize(String maximumPoolSize) {
		Integer parsed = parseSize(maximumPoolSize);
		if (parsed == null) {
			return invalid(maximumPoolSize);
		}
		return resizeTo(parsed);
	}

	private WebEndpointResponse<Object> resizeTo(int maximumPoolSize) {
		HikariConfigMXBean config = this.dataSource.getHikariConfigMXBean();
		HikariPoolMXBean pool = this.dataSource.getHikariPoolMXBean();
		long deadlineNanos = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
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
					SETTLE_TIMEOUT.toSeconds()));
		}
		return new WebEndpointResponse<>(state());
	}

	/** The size, or {@code null} unless a whole number from 1 to the maximum. */
	private static Integer parseSize(String value) {
		try {
			int size = Integer.parseInt(value.trim());
			return (size >= 1 && size <= MAX_POOL_SIZE) ? size : null;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/**
	 * A refused size as an RFC 9457 problem, like the service's other errors: the field,
	 * the value as sent and the allowed range, in the detail and as members of their own.
	 */
	private static WebEndpointResponse<Object> invalid(String value) {
		Map<String, Object> problem = new LinkedHashMap<>();
		problem.put("type", INVALID_SIZE_TYPE);
		problem.put("title", "Pool size not allowed");
		problem.put("status", WebEndpointResponse.STATUS_BAD_REQUEST);
		problem.put("detail",
				"maximumPoolSize=%s is not allowed: use a whole number from 1 to %d".formatted(value, MAX_POOL_SIZE));
		problem.put("field", "maximumPoolSize");
		problem.put("value", value);
		problem.put("minimum", 1);
		problem.put("maximum", MAX_POOL_SIZE);
		return new WebEndpointResponse<>(problem, WebEndpointResponse.STATUS_BAD_REQUEST,
				MimeType.valueOf("application/problem+json"));
	}

	private WebEndpointResponse<Object> unavailable(String error) {
		return new WebEndpointResponse<>(Map.of("error", error, "state", state()),
				WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
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
	 * The endpoint is served where the actuator is: on the application's connector
	 * ({@code server.address}), or, when {@code management.server.port} gives the
	 * actuator a connector of its own, on {@code management.server.address}, which does
	 * not inherit {@code server.address} (unset, it listens on every interface).
	 */
	static void requireLoopback(Environment environment) {
		boolean ownConnector = ManagementPortType.get(environment) == ManagementPortType.DIFFERENT;
		String property = ownConnector ? "management.server.address" : "server.address";
		String address = environment.getProperty(property, "");
		if (!isLoopback(address)) {
			String why = ownConnector
					? ", because management.server.port=%s serves the actuator on a connector of its own, which does not use server.address"
						.formatted(environment.getProperty("management.server.port"))
					: "";
			throw new IllegalStateException(
					"lab.pool-resize.enabled=true needs %s to be a loopback address (e.g. 127.0.0.1)%s, but it is '%s'"
						.formatted(property, why, address.isEmpty() ? "(unset: all interfaces)" : address));
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

	/**
	 * A pool's size and occupancy, and its settings by {@code spring.datasource.hikari.*}
	 * name.
	 */
	record PoolState(String pool, int maximumPoolSize, int minimumIdle, int total, int active, int idle, int waiting,
			Map<String, Long> settings) {
	}

}
