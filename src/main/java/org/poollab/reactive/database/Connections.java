package org.poollab.reactive.database;

import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.r2dbc.pool.PoolMetrics;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTimeoutException;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.poollab.service.system.Refusals;

import org.springframework.stereotype.Component;

/**
 * The one way to a connection: every request borrows one from the r2dbc-pool here, for
 * the whole of its work, and gives it back when the work ends, fails or is cancelled;
 * without a pool ({@code spring.r2dbc.pool.enabled=false}, Spring Boot's unpooled
 * connection factory) it opens one and closes it.
 * <p>
 * Times each borrowing as {@value #ACQUIRE_METRIC}, the analogue of HikariCP's
 * {@code hikaricp.connections.acquire}: Spring Boot's r2dbc-pool metrics are gauges only
 * (acquired, allocated, idle, pending, max allocated, max pending), and Boot offers no
 * hook into the pool's own recorder. And says why no connection came
 * ({@link NoConnection}), so that the service can answer 503 with the JDBC service's
 * reasons.
 */
@Component
public class Connections {

	/**
	 * Time from asking the pool for a connection to having one, successful acquisitions
	 * only ({@code r2dbc_connections_acquire_seconds} in Prometheus).
	 */
	public static final String ACQUIRE_METRIC = "r2dbc.connections.acquire";

	/** PostgreSQL's SQLSTATE for "sorry, too many clients already". */
	static final String TOO_MANY_CLIENTS = "53300";

	private final ConnectionFactory factory;

	private final MeterRegistry registry;

	private final Timer acquire;

	/**
	 * @param factory the twin's {@link ResizableConnectionPool}, or Spring Boot's
	 * unpooled connection factory when the pool is disabled
	 */
	Connections(ConnectionFactory factory, MeterRegistry registry) {
		this.factory = factory;
		this.registry = registry;
		this.acquire = Timer.builder(ACQUIRE_METRIC)
			.description("Time to acquire a connection from the r2dbc-pool, measured by the service")
			.register(registry);
	}

	/**
	 * Runs the work on one pooled connection.
	 * @param work what to do with the connection, e.g. run a statement and read its rows
	 * @param <T> what the work emits
	 * @return the work's output; a {@link NoConnection} error when no connection came, or
	 * the connection was lost under the work
	 */
	public <T> Flux<T> use(Function<Connection, Publisher<T>> work) {
		return Flux.usingWhen(acquire(), work, Connection::close)
			.onErrorMap(Connections::lostConnection,
					(ex) -> new NoConnection(Refusals.Reason.DATABASE_UNAVAILABLE, ex));
	}

	/**
	 * The pool's occupancy now, for a refusal's problem body; {@code null} without a
	 * pool.
	 */
	public @Nullable PoolMetrics state() {
		return (this.factory instanceof ResizableConnectionPool pool) ? pool.metrics() : null;
	}

	private Mono<Connection> acquire() {
		return Mono.defer(() -> {
			Timer.Sample sample = Timer.start(this.registry);
			return Mono.<Connection>from(this.factory.create()).doOnNext((connection) -> sample.stop(this.acquire));
		}).onErrorMap((ex) -> !(ex instanceof NoConnection), (ex) -> new NoConnection(reason(ex), ex));
	}

	/**
	 * Why the pool gave no connection. Its acquire timeout counts as the pool's when
	 * every connection it may hold was open: if it had room, it was still trying to open
	 * one, and the wait is the database's doing, not the pool's size (the distinction the
	 * JDBC service draws from HikariCP's last connection failure).
	 */
	private Refusals.Reason reason(Throwable ex) {
		for (Throwable t = ex; t != null; t = t.getCause()) {
			if (t instanceof R2dbcException r2dbc && TOO_MANY_CLIENTS.equals(r2dbc.getSqlState())) {
				return Refusals.Reason.TOO_MANY_CLIENTS;
			}
		}
		if (ex instanceof R2dbcTimeoutException && ex.getCause() instanceof TimeoutException) {
			PoolMetrics state = state();
			return (state != null && state.allocatedSize() >= state.getMaxAllocatedSize())
					? Refusals.Reason.POOL_TIMEOUT : Refusals.Reason.DATABASE_UNAVAILABLE;
		}
		return Refusals.Reason.DATABASE_UNAVAILABLE;
	}

	/**
	 * A connection that broke under the work: the driver's closed or failed connection,
	 * or SQLSTATE class 08 (connection exception) or 57P (the server shutting down), as
	 * the JDBC service counts them.
	 */
	private static boolean lostConnection(Throwable ex) {
		if (ex instanceof NoConnection) {
			return false;
		}
		if (ex instanceof R2dbcNonTransientResourceException) {
			return true;
		}
		String state = (ex instanceof R2dbcException r2dbc) ? r2dbc.getSqlState() : null;
		return state != null && (state.startsWith("08") || state.startsWith("57P"));
	}

	/**
	 * No connection for a request, for a {@link Refusals.Reason reason} the lab counts.
	 */
	public static final class NoConnection extends RuntimeException {

		private final Refusals.Reason reason;

		NoConnection(Refusals.Reason reason, Throwable cause) {
			super(cause.getMessage(), cause);
			this.reason = reason;
		}

		public Refusals.Reason reason() {
			return this.reason;
		}

	}

}
