package org.poollab.reactive.database;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.R2dbcPermissionDeniedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.r2dbc.autoconfigure.R2dbcProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.mockito.BDDMockito.willAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;

/**
 * Opening the twin's pool at start-up, on a connection factory of stand-ins whose
 * r2dbc-pool gives each connection 200 ms ({@code max-create-connection-time}).
 */
class PoolStarterTests {

	private static final Duration BLOCK = Duration.ofSeconds(30);

	private static final Duration MAX_CREATE_CONNECTION_TIME = Duration.ofMillis(200);

	private final ConnectionFactory database = mock(ConnectionFactory.class);

	private final AtomicInteger attempts = new AtomicInteger();

	private final List<Connection> opened = new CopyOnWriteArrayList<>();

	/** What the database does with an opening, given its number (from 1). */
	private volatile Opening opening = (attempt) -> Mono.fromSupplier(this::connection);

	private final ResizableConnectionPool pool;

	PoolStarterTests() {
		// r2dbc-pool asks the factory once and subscribes again for every connection.
		willAnswer((invocation) -> Mono.defer(() -> this.opening.open(this.attempts.incrementAndGet())))
			.given(this.database)
			.create();
		R2dbcProperties.Pool settings = StandIns.fixedSize(2);
		settings.setMaxCreateConnectionTime(MAX_CREATE_CONNECTION_TIME);
		this.pool = new ResizableConnectionPool(this.database, settings);
	}

	@AfterEach
	void close() {
		Mono.from(this.pool.close()).block(BLOCK);
	}

	/**
	 * The JVM's first connection, slower than the pool allows one (it starts the driver),
	 * is opened outside the pool: the pool then opens both of its own, and serves both.
	 */
	@Test
	void aFirstConnectionSlowerThanMaxCreateConnectionTimeDoesNotStopStartUp() {
		this.opening = (attempt) -> {
			Mono<Connection> connection = Mono.fromSupplier(this::connection);
			return (attempt == 1) ? connection.delaySubscription(MAX_CREATE_CONNECTION_TIME.multipliedBy(3))
					: connection;
		};
		PoolStarter.open(this.pool, BLOCK, BLOCK);
		assertThat(this.attempts).hasValue(3);
		verify(this.opened.get(0)).close();
		assertThat(this.pool.metrics().allocatedSize()).isEqualTo(2);
		assertThat(this.pool.metrics().idleSize()).isEqualTo(2);
		Supplier<Connection> borrow = () -> this.pool.create().block(BLOCK);
		assertThat(List.of(borrow.get(), borrow.get())).doesNotHaveDuplicates()
			.allSatisfy((connection) -> assertThat(connection).isNotNull());
	}

	@Test
	void aRefusedConnectionStopsStartUpWithNothingTriedAgain() {
		this.opening = (attempt) -> Mono
			.error(new R2dbcPermissionDeniedException("password authentication failed for user \"lab\""));
		assertThatIllegalStateException().isThrownBy(() -> PoolStarter.open(this.pool, BLOCK, BLOCK))
			.withMessage("Could not start the connection pool: password authentication failed for user \"lab\"");
		assertThat(this.attempts).hasValue(1);
	}

	@Test
	void aDatabaseThatNeverAnswersStopsStartUpAfterTheFirstConnectionsTimeout() {
		this.opening = (attempt) -> Mono.never();
		assertThatIllegalStateException()
			.isThrownBy(() -> PoolStarter.open(this.pool, MAX_CREATE_CONNECTION_TIME, BLOCK))
			.withMessageEndingWith("no first connection to the database within 200 ms");
		assertThat(this.attempts).hasValue(1);
	}

	private Connection connection() {
		Connection connection = StandIns.connection();
		this.opened.add(connection);
		return connection;
	}

	@FunctionalInterface
	private interface Opening {

		Mono<Connection> open(int attempt);

	}

}
