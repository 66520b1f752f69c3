package org.poollab.reactive.database;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Result;
import io.r2dbc.spi.Statement;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.poollab.service.hold.ConnectionHold;
import org.poollab.service.hold.HoldPlace;
import org.poollab.service.hold.HoldProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willAnswer;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

/**
 * What the reactive twin does to a connection it holds, on stand-ins, as
 * HoldTransactionManagerTests shows it for the JDBC service: the hold is padded once per
 * request, by what remains of it, while the connection is held, and timed once. The holds
 * themselves are measured on real databases by the services' integration tests, which
 * then need no upper bound tight enough to catch a hold padded twice.
 */
class ConnectionsTests {

	/**
	 * Long enough that a pad always remains, however slow the machine; the sleep is a
	 * stand-in that returns at once, so no test waits for it.
	 */
	private static final Duration PADDED_HOLD = Duration.ofSeconds(10);

	private static final String SLEEP = "SELECT pg_sleep($1)";

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final ConnectionFactory database = mock(ConnectionFactory.class);

	private final Connection connection = StandIns.connection();

	private final Statement sleep = mock(Statement.class);

	ConnectionsTests() {
		willAnswer((invocation) -> Mono.just(this.connection)).given(this.database).create();
		given(this.connection.createStatement(SLEEP)).willReturn(this.sleep);
		given(this.sleep.bind(eq(0), argThat(ConnectionsTests::atMostTheHold))).willReturn(this.sleep);
		Result slept = mock(Result.class);
		willAnswer((invocation) -> Mono.just(1L)).given(slept).getRowsUpdated();
		willAnswer((invocation) -> Mono.just(slept)).given(this.sleep).execute();
		willAnswer((invocation) -> Mono.empty()).given(this.connection).beginTransaction();
		willAnswer((invocation) -> Mono.empty()).given(this.connection).commitTransaction();
	}

	@Test
	void anAutoCommitReadIsPaddedOnceAfterItsRowsBeforeTheConnectionIsGivenBack() {
		Connections connections = connections(HoldPlace.DATABASE, PADDED_HOLD);

		assertThat(connections.use((held) -> Flux.just("row")).collectList().block()).containsExactly("row");

		InOrder order = inOrder(this.connection, this.sleep);
		order.verify(this.connection).createStatement(SLEEP);
		order.verify(this.sleep).execute();
		order.verify(this.connection).close();
		verify(this.connection, times(1)).createStatement(anyString());
		verify(this.sleep, times(1)).execute();
		assertThat(holds().count()).isOne();
	}

	@Test
	void aTransactionIsPaddedOnceBeforeItsCommit() {
		Connections connections = connections(HoldPlace.DATABASE, PADDED_HOLD);

		assertThat(connections.inTransaction((held) -> Mono.just("written")).block()).isEqualTo("written");

		InOrder order = inOrder(this.connection, this.sleep);
		order.verify(this.connection).beginTransaction();
		order.verify(this.sleep).execute();
		order.verify(this.connection).commitTransaction();
		order.verify(this.connection).close();
		verify(this.connection, times(1)).createStatement(anyString());
		verify(this.sleep, times(1)).execute();
		assertThat(holds().count()).isOne();
	}

	@Test
	void anApplicationHoldWaitsWithoutAStatement() {
		Duration hold = Duration.ofMillis(20);
		Connections connections = connections(HoldPlace.APPLICATION, hold);

		connections.use((held) -> Flux.just("row")).blockLast();

		verify(this.connection, never()).createStatement(anyString());
		assertThat(holds().count()).isOne();
		assertThat(holds().totalTime(TimeUnit.NANOSECONDS)).isGreaterThanOrEqualTo(hold.toNanos());
	}

	private Connections connections(HoldPlace place, Duration hold) {
		return new Connections(this.database, this.registry, new HoldProperties(hold, null, place, 1, null));
	}

	private Timer holds() {
		return this.registry.get(ConnectionHold.METRIC).timer();
	}

	private static boolean atMostTheHold(Object seconds) {
		return seconds instanceof BigDecimal wait && wait.signum() > 0
				&& wait.compareTo(BigDecimal.valueOf(PADDED_HOLD.toNanos(), 9)) <= 0;
	}

}
