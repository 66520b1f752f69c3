package org.poollab.service.system;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.core.env.Environment;
import org.springframework.util.MimeType;

/**
 * The contract of the lab's {@code poolsize} endpoint, which both services serve (this
 * service's {@link PoolSizeEndpoint} over HikariCP, the reactive twin's over r2dbc-pool):
 * the one home of the allowed sizes, the refusal of a bad size and the loopback guard, so
 * that the lab resizes either stack with the same request and reads the same answers. Not
 * a bean: each service's endpoint calls it, and neither component scan reaches the other
 * service's endpoint.
 */
public final class PoolResize {

	/** Turns the endpoint on (off by default). */
	public static final String ENABLED_PROPERTY = "lab.pool-resize.enabled";

	/** The request's field, {@code {"maximumPoolSize":8}}. */
	public static final String SIZE_FIELD = "maximumPoolSize";

	public static final int MIN_POOL_SIZE = 1;

	public static final int MAX_POOL_SIZE = 1000;

	public static final String INVALID_SIZE_TYPE = "urn:poollab:invalid-pool-size";

	/**
	 * How long a resize may take to settle (open the new size, close what goes): room for
	 * growing by several hundred connections (HikariCP opens about 30 a second, as it
	 * pauses 30 ms after each; r2dbc-pool opens them one after another), and below the 60
	 * s the sweep waits for the answer.
	 */
	public static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);

	private PoolResize() {
	}

	/**
	 * The size, taken as written so that a refusal can quote it.
	 * @param value the request's {@value #SIZE_FIELD}
	 * @return the size, or {@code null} unless a whole number from
	 * {@value #MIN_POOL_SIZE} to {@value #MAX_POOL_SIZE}
	 */
	public static @Nullable Integer parseSize(String value) {
		try {
			int size = Integer.parseInt(value.trim());
			return (size >= MIN_POOL_SIZE && size <= MAX_POOL_SIZE) ? size : null;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/**
	 * A refused size as an RFC 9457 problem, like the services' other errors: the field,
	 * the value as sent and the allowed range, in the detail and as members of their own.
	 * @param value the request's {@value #SIZE_FIELD} as sent
	 * @return a 400 {@code application/problem+json} answer
	 */
	public static WebEndpointResponse<Object> invalidSize(String value) {
		Map<String, Object> problem = new LinkedHashMap<>();
		problem.put("type", INVALID_SIZE_TYPE);
		problem.put("title", "Pool size not allowed");
		problem.put("status", WebEndpointResponse.STATUS_BAD_REQUEST);
		problem.put("detail", "%s=%s is not allowed: use a whole number from %d to %d".formatted(SIZE_FIELD, value,
				MIN_POOL_SIZE, MAX_POOL_SIZE));
		problem.put("field", SIZE_FIELD);
		problem.put("value", value);
		problem.put("minimum", MIN_POOL_SIZE);
		problem.put("maximum", MAX_POOL_SIZE);
		return new WebEndpointResponse<>(problem, WebEndpointResponse.STATUS_BAD_REQUEST,
				MimeType.valueOf("application/problem+json"));
	}

	/**
	 * A resize that did not leave the pool at the size asked for.
	 * @param error what happened, with the pool's name and the size
	 * @param state the pool's state after it
	 * @return a 503 answer: the caller must not measure a pool that is not there
	 */
	public static WebEndpointResponse<Object> unavailable(String error, Object state) {
		return new WebEndpointResponse<>(Map.of("error", error, "state", state),
				WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
	}

	/**
	 * Refuses to serve the endpoint anywhere but on loopback: it lets anyone who can
	 * reach it change how hard the database is hit. The endpoint is served where the
	 * actuator is: on the application's connector ({@code server.address}), or, when
	 * {@code management.server.port} gives the actuator a connector of its own, on
	 * {@code management.server.address}, which does not inherit {@code server.address}
	 * (unset, it listens on every interface).
	 * @param environment the application's environment
	 * @throws IllegalStateException naming the property, why it is the one that counts
	 * and its value
	 */
	public static void requireLoopback(Environment environment) {
		boolean ownConnector = ManagementPortType.get(environment) == ManagementPortType.DIFFERENT;
		String property = ownConnector ? "management.server.address" : "server.address";
		String address = environment.getProperty(property, "");
		if (!isLoopback(address)) {
			String why = ownConnector
					? ", because management.server.port=%s serves the actuator on a connector of its own, which does not use server.address"
						.formatted(environment.getProperty("management.server.port"))
					: "";
			throw new IllegalStateException(
					"%s=true needs %s to be a loopback address (e.g. 127.0.0.1)%s, but it is '%s'".formatted(
							ENABLED_PROPERTY, property, why, address.isEmpty() ? "(unset: all interfaces)" : address));
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

}
