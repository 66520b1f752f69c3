package org.poollab.reactive.database;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.pool.PoolMetrics;
import io.r2dbc.spi.Closeable;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.context.properties.PropertyMapper;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcProperties;

/**
 * The twin's one {@link ConnectionFactory}: an r2dbc-pool whose size can change while
 * requests run, so that the lab sweeps pool sizes on one running instance, as it does
 * with HikariCP. r2dbc-pool fixes a pool's size when it is built, so a resize builds a
 * new {@link ConnectionPool} over the same unpooled connection factory with the same
 * {@code spring.r2dbc.pool.*} settings, opens its connections, and only then puts it in
 * the old one's place; the old pool is disposed once its borrowers have given their
 * connections back.
 * <p>
 * Why nothing in flight fails: a connection keeps the pool it came from, so one borrowed
 * from the old pool goes back to it (and is closed if the old pool is gone by then); a
 * request still waiting for one of the old pool's connections when it is disposed asks
 * the new pool instead ({@link #create()}).
 */
public final class ResizableConnectionPool implements ConnectionFactory, Closeable {

	/**
	 * The bean's name, Spring Boot's for the pool it would have built: the pool's gauges
	 * keep their {@code name="connectionFactory"} tag.
	 */
	public static final String BEAN_NAME = "connectionFactory";

	private static final Duration DRAIN_POLL = Duration.ofMillis(10);

	private static final Logger logger = LoggerFactory.getLogger(ResizableConnectionPool.class);

	private final ConnectionFactory unpooled;

	private final R2dbcProperties.Pool settings;

	private final AtomicReference<Sized> current;

	/**
	 * A pool as Spring Boot's r2dbc-pool auto-configuration builds it.
	 * @param unpooled opens the database connections
	 * @param settings {@code spring.r2dbc.pool.*}
	 */
	ResizableConnectionPool(ConnectionFactory unpooled, R2dbcProperties.Pool settings) {
		this.unpooled = unpooled;
		this.settings = settings;
		this.current = new AtomicReference<>(
				build(new Sizes(settings.getMaxSize(), settings.getInitialSize(), settings.getMinIdle())));
	}

	/**
	 * A connection from the current pool. When the pool it asked is replaced and disposed
	 * before it hands one out (PoolShutdownException), it asks the pool now in place.
	 */
	@Override
	public Mono<Connection> create() {
		return Mono.defer(() -> {
			ConnectionPool pool = current().pool();
			return pool.create().onErrorResume((ex) -> retired(pool), (ex) -> create());
		});
	}

	/** The pool in use: set at construction and replaced, never cleared. */
	private Sized current() {
		return Objects.requireNonNull(this.current.get());
	}

	private boolean retired(ConnectionPool pool) {
		return pool.isDisposed() && current().pool() != pool;
	}

	@Override
	public ConnectionFactoryMetadata getMetadata() {
		return this.unpooled.getMetadata();
	}

	/** The current pool's occupancy and size. */
	public PoolMetrics metrics() {
		return current().metrics();
	}

	/** The sizes the current pool was built with. */
	public Sizes sizes() {
		return current().sizes();
	}

	/**
	 * Opens the current pool's {@code initial-size} connections (r2dbc-pool opens them
	 * only on the first acquisition otherwise).
	 * @return the number of connections opened
	 */
	Mono<Integer> warmup() {
		return current().pool().warmup();
	}

	/**
	 * Opens one connection outside the pool and closes it again, with no timeout of its
	 * own: not r2dbc-pool's {@code max-create-connection-time}, which bounds each
	 * connection the pool opens.
	 */
	Mono<Void> openOneOutsideThePool() {
		return Mono.usingWhen(this.unpooled.create(), (connection) -> Mono.empty(), Connection::close);
	}

	/**
	 * Replaces the pool with one fixed at {@code size} connections ({@code max-size},
	 * {@code initial-size} and {@code min-idle} all {@code size}), the other settings
	 * unchanged. Nothing changes when the pool already is that and holds that many.
	 * @param size the new size
	 * @param timeout how long opening the new pool and draining the old one may take
	 * @return completes once the new pool holds {@code size} connections and the old one
	 * is disposed; fails, leaving the old pool in place, when the new one could not open
	 * them all within {@code timeout} (e.g. the database's connection limit)
	 */
	public Mono<Void> resize(int size, Duration timeout) {
		return Mono.defer(() -> {
			Sizes sizes = new Sizes(size, size, size);
			Sized before = current();
			if (before.sizes().equals(sizes) && before.metrics().allocatedSize() == size) {
				return Mono.empty();
			}
			long deadlineNanos = System.nanoTime() + timeout.toNanos();
			Sized next = build(sizes);
			return next.pool()
				.warmup()
				.timeout(timeout)
				.filter((opened) -> next.metrics().allocatedSize() == size)
				.switchIfEmpty(Mono.error(() -> new IllegalStateException(
						"opened %d of %d connections".formatted(next.metrics().allocatedSize(), size))))
				.onErrorResume((ex) -> next.pool().disposeLater().then(Mono.error(ex)))
				.then(Mono.defer(() -> retire(this.current.getAndSet(next), remaining(deadlineNanos))));
		});
	}

	/**
	 * Disposes a pool taken out of use once no request holds or waits for one of its
	 * connections, or when {@code timeout} has passed: then the connections still
	 * borrowed close when they are given back, and the waiting requests ask the new pool.
	 */
	private Mono<Void> retire(Sized old, Duration timeout) {
		PoolMetrics metrics = old.metrics();
		return Flux.interval(Duration.ZERO, DRAIN_POLL)
			.filter((tick) -> metrics.acquiredSize() == 0 && metrics.pendingAcquireSize() == 0)
			.next()
			.timeout(timeout, Mono.fromRunnable(() -> logger.info(
					"Disposing the pool of {} connections with {} still borrowed and {} requests waiting, after {} ms",
					old.sizes().maxSize(), metrics.acquiredSize(), metrics.pendingAcquireSize(), timeout.toMillis())))
			.then(old.pool().disposeLater());
	}

	private static Duration remaining(long deadlineNanos) {
		return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
	}

	/**
	 * Spring Boot's mapping of {@code spring.r2dbc.pool.*} onto r2dbc-pool (its
	 * {@code ConnectionFactoryConfigurations.PoolConfiguration}), with the sizes given.
	 */
	private Sized build(Sizes sizes) {
		PropertyMapper map = PropertyMapper.get();
		ConnectionPoolConfiguration.Builder builder = ConnectionPoolConfiguration.builder(this.unpooled);
		map.from(this.settings.getMaxIdleTime()).to(builder::maxIdleTime);
		map.from(this.settings.getMaxLifeTime()).to(builder::maxLifeTime);
		map.from(this.settings.getMaxAcquireTime()).to(builder::maxAcquireTime);
		map.from(this.settings.getAcquireRetry()).to(builder::acquireRetry);
		map.from(this.settings.getMaxCreateConnectionTime()).to(builder::maxCreateConnectionTime);
		map.from(sizes.initialSize()).to(builder::initialSize);
		map.from(sizes.maxSize()).to(builder::maxSize);
		map.from(this.settings.getValidationQuery()).whenHasText().to(builder::validationQuery);
		map.from(this.settings.getValidationDepth()).to(builder::validationDepth);
		map.from(sizes.minIdle()).to(builder::minIdle);
		map.from(this.settings.getMaxValidationTime()).to(builder::maxValidationTime);
		return new Sized(new ConnectionPool(builder.build()), sizes);
	}

	/** Disposes the current pool; for the application's shutdown. */
	@Override
	public Mono<Void> close() {
		return Mono.defer(() -> current().pool().disposeLater());
	}

	/**
	 * A pool's {@code spring.r2dbc.pool.max-size}, {@code initial-size} and
	 * {@code min-idle}.
	 */
	public record Sizes(int maxSize, int initialSize, int minIdle) {
	}

	private record Sized(ConnectionPool pool, Sizes sizes) {

		PoolMetrics metrics() {
			return this.pool.getMetrics().orElseThrow();
		}

	}

}
