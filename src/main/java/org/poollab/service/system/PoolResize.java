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
 * the one home of the allowed sizes, the refusal of a bad size and the guard deciding
 * where it may be served and whether writes need a token ({@link ResizeToken}), so that
 * the lab resizes either stack with the same request and reads the same answers. Not a
 * bean: each service's endpoint calls it, and neither component scan reaches the other
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
	 * Decides whether the endpoint may be served where the actuator listens, at start: on
	 * loopback, with or without a token; elsewhere, only on a port of the actuator's own
	 * and with a token, because it lets anyone who can reach it change how hard the
	 * database is hit. The actuator listens on the application's connector
	 * ({@code server.address}, the public port), or, when {@code management.server.port}
	 * gives it a connector of its own, on {@code management.server.address}, which does
	 * not inherit {@code server.address} (unset, it listens on every interface). With
	 * {@code management.server.port=-1} nothing of the actuator is served over HTTP.
	 * @param environment the application's environment
	 * @return the token every write must carry, or {@code null} when none is set (then
	 * the endpoint is on loopback or not served over HTTP)
	 * @throws IllegalStateException naming the settings, their values (never the token's)
	 * and why the endpoint may not be served there
	 */
	public static @Nullable ResizeToken guard(Environment environment) {
		ResizeToken token = ResizeToken.from(environment);
		ManagementPortType portType = ManagementPortType.get(environment);
		if (portType == ManagementPortType.DISABLED) {
			return token;
		}
		boolean ownPort = portType == ManagementPortType.DIFFERENT;
		String property = ownPort ? "management.server.address" : "server.address";
		String address = environment.getProperty(property, "");
		if (isLoopback(address)) {
			return token;
		}
		String bound = "%s is '%s'".formatted(property, address.isEmpty() ? "(unset: all interfaces)" : address);
		if (!ownPort) {
			String managementPort = environment.getProperty("management.server.port");
			throw new IllegalStateException(
					"%s=true refuses to serve the poolsize endpoint on the public port: %s, not a loopback address, and the actuator shares that port (%s), but the public port never serves it. Give the actuator a port of its own (management.server.port) on a loopback address (management.server.address=127.0.0.1), or on another address with %s set (environment variable %s)"
						.formatted(ENABLED_PROPERTY, bound,
								(managementPort != null)
										? "management.server.port=%s is server.port's".formatted(managementPort)
										: "management.server.port is unset",
								ResizeToken.PROPERTY, ResizeToken.VARIABLE));
		}
		if (token == null) {
			throw new IllegalStateException(
					"%s=true on a non-loopback address needs %s (environment variable %s, never on a command line): %s, and management.server.port=%s serves the actuator there on a connector of its own (which does not use server.address), so without a token anyone who can reach that port could change how hard the database is hit. Set the token, or bind management.server.address to a loopback address (e.g. 127.0.0.1)"
						.formatted(ENABLED_PROPERTY, ResizeToken.PROPERTY, ResizeToken.VARIABLE, bound,
								environment.getProperty("management.server.port")));
		}
		return token;
	}

	/**
	 * Whether a host name or address is this machine's loopback (all of 127.0.0.0/8,
	 * {@code ::1}); blank and unresolvable are not.
	 */
	public static boolean isLoopback(String address) {
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
