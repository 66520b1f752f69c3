package org.poollab.reactive.database;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
import io.r2dbc.spi.Result;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.poollab.service.hold.ConnectionHold;
import org.poollab.service.hold.HoldPadding;
import org.poollab.service.hold.HoldPlace;
import org.poollab.service.hold.HoldProperties;
import org.poollab.service.system.Refusals;
import org.poollab.vendor.DatabaseVendor;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
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
 * <p>
 * Times each hold as the JDBC service does, {@link ConnectionHold#METRIC}: from the
 * connection acquired to its close completed. With {@code lab.hold.*} set it pads each
 * hold to the one drawn for it, while the connection is held (after an auto-commit read,
 * before a transaction's commit): {@code pg_sleep} on the connection, or a
 * {@link Mono#delay delay} that blocks no thread, since on an event loop a request never
 * blocks one.
 */
@Component
public class Connections {

	/**
	 * Time from asking the pool for a connection to having one, successful acquisitions
	 * only ({@code r2dbc_connections_acquire_seconds} in Prometheus).
	 */
	public static final String ACQUIRE_METRIC = "r2dbc.connections.acquire";

	private final ConnectionFactory factory;

	private final MeterRegistry registry;

	private final Timer acquire;

	private final Timer holds;

	private final @Nullable HoldPadding padding;

	/**
	 * @param factory the twin's {@link ResizableConnectionPool}, or Spring Boot's
	 * unpooled connection factory when the pool is disabled
	 */
	Connections(ConnectionFactory factory, MeterRegistry registry, HoldProperties hold) {
		this.factory = factory;
		this.registry = registry;
		this.acquire = Timer.builder(ACQUIRE_METRIC)
			.description("Time to acquire a connection from the r2dbc-pool, measured by the service")
			.register(registry);
		this.holds = ConnectionHold.register(registry);
		if (hold.uses() != 1) {
			// One use per request here: a further use would need a chain of its own.
			throw new InvalidConfigurationPropertyValueException(ConnectionHold.PROPERTIES_PREFIX + ".uses",
					hold.uses(),
					"the reactive twin takes one connection use per request; only the JDBC service takes more");
		}
		this.padding = HoldPadding.of(hold, registry).orElse(null);
	}

	/**
	 * Runs the work on one pooled connection, in auto-commit.
	 * @param work what to do with the connection, e.g. run a statement and read its rows
	 * @param <T> what the work emits
	 * @return the work's output; a {@link NoConnection} error when no connection came, or
	 * the connection was lost under the work
	 */
	public <T> Flux<T> use(Function<Connection, Publisher<T>> work) {
		return hold((held) -> Flux.from(work.apply(held.connection)).concatWith(pad(held).then(Mono.empty())));
	}

	/**
	 * Runs the work on one pooled connection in a transaction: begun before it, committed
	 * after it (and after the emulated hold), rolled back when it fails.
	 * @param work what to do in the transaction
	 * @param <T> what the work emits
	 * @return the work's value, once committed; errors as {@link #use}'s
	 */
	public <T> Mono<T> inTransaction(Function<Connection, Mono<T>> work) {
		return hold((held) -> {
			Connection connection = held.connection;
			Mono<Void> commit = pad(held).then(Mono.defer(() -> Mono.from(connection.commitTransaction())));
			return Mono.from(connection.beginTransaction())
				.then(work.apply(connection))
				.flatMap((value) -> commit.thenReturn(value))
				.switchIfEmpty(commit.then(Mono.empty()))
				.onErrorResume((ex) -> Mono.from(connection.rollbackTransaction()).then(Mono.error(ex)));
		}).singleOrEmpty();
	}

	private <T> Flux<T> hold(Function<Held, Publisher<T>> work) {
		return Flux.usingWhen(acquire(), work, this::close)
			.onErrorMap(Connections::lostConnection,
					(ex) -> new NoConnection(Refusals.Reason.DATABASE_UNAVAILABLE, ex));
	}

	/**
	 * Holds the connection on to the hold drawn for it, if one is set; drawn when
	 * subscribed.
	 */
	private Mono<Void> pad(Held held) {
		HoldPadding padding = this.padding;
		if (padding == null) {
			return Mono.empty();
		}
		return Mono.defer(() -> {
			long targetNanos = padding.drawNanos();
			long waitNanos = padding.waitNanos(targetNanos, System.nanoTime() - held.startNanos);
			if (waitNanos <= 0) {
				return Mono.empty();
			}
			held.targetNanos = targetNanos;
			if (padding.place() == HoldPlace.APPLICATION) {
				return Mono.delay(Duration.ofNanos(waitNanos)).then();
			}
			// pg_sleep wakes on whole milliseconds and may sleep one more: it is asked
			// for
			// the whole milliseconds that end well before the wait does, and a timer
			// waits
			// out the rest, as the JDBC service's thread does (HoldPadding).
			long deadlineNanos = System.nanoTime() + waitNanos;
			long sleepNanos = HoldPadding.databaseSleepNanos(waitNanos);
			Mono<Void> sleep = (sleepNanos <= 0) ? Mono.empty()
					: Flux
						.from(held.connection.createStatement("SELECT pg_sleep($1)")
							.bind(0, HoldPadding.seconds(sleepNanos))
							.execute())
						.flatMap(Result::getRowsUpdated)
						.then();
			return sleep.then(Mono.defer(() -> {
				long leftNanos = deadlineNanos - System.nanoTime();
				return (leftNanos > 0) ? Mono.delay(Duration.ofNanos(leftNanos)).then() : Mono.<Void>empty();
			}));
		});
	}

	/** Closes the connection, then times its hold, however the close ends. */
	private Mono<Void> close(Held held) {
		return Mono.from(held.connection.close()).doOnTerminate(held::record).doOnCancel(held::record);
	}

	/**
	 * The pool's occupancy now, for a refusal's problem body; {@code null} without a
	 * pool.
	 */
	public @Nullable PoolMetrics state() {
		return (this.factory instanceof ResizableConnectionPool pool) ? pool.metrics() : null;
	}

	private Mono<Held> acquire() {
		return Mono.defer(() -> {
			Timer.Sample sample = Timer.start(this.registry);
			return Mono.<Connection>from(this.factory.create()).map((connection) -> {
				sample.stop(this.acquire);
				return new Held(connection, System.nanoTime());
			});
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
			if (t instanceof R2dbcException r2dbc
					&& DatabaseVendor.tooManyConnections(r2dbc.getSqlState(), r2dbc.getErrorCode())) {
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

	/** A connection held: since when, and the hold drawn for it. */
	private final class Held {

		final Connection connection;

		final long startNanos;

		/** Nanoseconds, 0 unless padded; set and read in one reactive sequence. */
		long targetNanos;

		Held(Connection connection, long startNanos) {
			this.connection = connection;
			this.startNanos = startNanos;
		}

		void record() {
			long heldNanos = System.nanoTime() - this.startNanos;
			Connections.this.holds.record(heldNanos, TimeUnit.NANOSECONDS);
			if (Connections.this.padding != null && this.targetNanos > 0) {
				Connections.this.padding.held(this.targetNanos, heldNanos);
			}
		}

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
