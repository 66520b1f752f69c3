package org.poollab.service.hold;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;

import org.poollab.vendor.DatabaseVendor;

import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

/**
 * What the JDBC service's transaction manager does to a connection, on mocks: where the
 * pad goes and that every hold is timed, however the transaction ends. The holds
 * themselves are measured on real databases by the services' integration tests.
 */
class HoldTransactionManagerTests {

	private static final Duration HOLD = Duration.ofMillis(5);

	/**
	 * The database pad is only what remains of the hold when the commit comes, and only
	 * its whole milliseconds but the last one or two go to the database: 200 ms always
	 * leaves some, where 5 ms did not on a busy CI machine (no pad, so no statement to
	 * verify). The statement is a mock that returns at once; the thread waits out the
	 * rest.
	 */
	private static final Duration PADDED_HOLD = Duration.ofMillis(200);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final DataSource dataSource = mock();

	private final Connection connection = mock();

	private final PreparedStatement sleep = mock();

	@BeforeEach
	void connect() throws SQLException {
		given(this.dataSource.getConnection()).willReturn(this.connection);
		given(this.connection.prepareStatement("SELECT pg_sleep(?)")).willReturn(this.sleep);
	}

	@Test
	void commitIsPaddedInTheTransactionOnItsOwnConnection() throws SQLException {
		new TransactionTemplate(manager(HoldPlace.DATABASE, PADDED_HOLD)).executeWithoutResult((status) -> {
		});
		InOrder order = inOrder(this.connection, this.sleep);
		order.verify(this.connection).prepareStatement("SELECT pg_sleep(?)");
		order.verify(this.sleep).setBigDecimal(eq(1), argThat(HoldTransactionManagerTests::atMostTheHold));
		order.verify(this.sleep).execute();
		order.verify(this.connection).commit();
		order.verify(this.connection).close();
		assertThat(holds().count()).isOne();
	}

	@Test
	void aPadTooShortForTheDatabasesWholeMillisecondsIsWaitedOnTheThread() throws SQLException {
		Duration hold = Duration.ofMillis(1);
		new TransactionTemplate(manager(HoldPlace.DATABASE, hold)).executeWithoutResult((status) -> {
		});
		verify(this.connection, never()).prepareStatement(anyString());
		verify(this.connection).commit();
		assertThat(holds().totalTime(TimeUnit.NANOSECONDS)).isGreaterThanOrEqualTo(hold.toNanos());
	}

	@Test
	void aFurtherUseRunsOneStatementHoweverShortItsHold() throws SQLException {
		for (HoldPlace place : HoldPlace.values()) {
			new TransactionTemplate(manager(place, HoldTime.SHORTEST, 3)).executeWithoutResult((status) -> {
			});
		}
		verify(this.connection, times(4)).prepareStatement("SELECT pg_sleep(?)");
		verify(this.sleep, times(4)).setBigDecimal(eq(1), argThat((seconds) -> seconds.signum() == 0));
		verify(this.sleep, times(4)).execute();
		assertThat(holds().count()).isEqualTo(6);
	}

	/**
	 * A hold is checkout to return, as HikariCP's usage is: the wait for the pool is not
	 * part of it. A second checkout that takes a second, against holds of a millisecond.
	 */
	@Test
	void aFurtherUseIsHeldFromItsCheckout() throws SQLException {
		Duration checkout = Duration.ofSeconds(1);
		given(this.dataSource.getConnection()).willReturn(this.connection).willAnswer((invocation) -> {
			Thread.sleep(checkout.toMillis());
			return this.connection;
		});
		new TransactionTemplate(manager(HoldPlace.APPLICATION, Duration.ofMillis(1), 2))
			.executeWithoutResult((status) -> {
			});
		assertThat(holds().count()).isEqualTo(2);
		assertThat(holds().max(TimeUnit.MILLISECONDS)).isLessThan(checkout.toMillis());
	}

	@Test
	void applicationHoldWaitsOnTheThreadWithoutAStatement() throws SQLException {
		new TransactionTemplate(manager(HoldPlace.APPLICATION)).executeWithoutResult((status) -> {
		});
		verify(this.connection, never()).prepareStatement(anyString());
		verify(this.connection).commit();
		assertThat(holds().count()).isOne();
		assertThat(holds().totalTime(TimeUnit.NANOSECONDS)).isGreaterThanOrEqualTo(HOLD.toNanos());
	}

	@Test
	void rollbackIsTimedAndNotPadded() throws SQLException {
		TransactionTemplate transactions = new TransactionTemplate(manager(HoldPlace.DATABASE));
		assertThatIllegalStateException().isThrownBy(() -> transactions.executeWithoutResult((status) -> {
			throw new IllegalStateException("the request failed");
		}));
		transactions.executeWithoutResult((status) -> status.setRollbackOnly());
		verify(this.connection, never()).prepareStatement(anyString());
		verify(this.connection, never()).commit();
		assertThat(holds().count()).isEqualTo(2);
	}

	/**
	 * Padded on the thread, a rollback would wait out most of a 10 s hold: far more than
	 * any busy machine adds to two rollbacks on a mock, so the bound cannot fail by
	 * chance (a 5 ms hold against a 5 ms bound did, on a busy machine).
	 */
	@Test
	void rollbackDoesNotWaitOutAnApplicationHold() {
		Duration hold = Duration.ofSeconds(10);
		TransactionTemplate transactions = new TransactionTemplate(manager(HoldPlace.APPLICATION, hold));
		assertThatIllegalStateException().isThrownBy(() -> transactions.executeWithoutResult((status) -> {
			throw new IllegalStateException("the request failed");
		}));
		transactions.executeWithoutResult((status) -> status.setRollbackOnly());
		assertThat(holds().count()).isEqualTo(2);
		assertThat(holds().totalTime(TimeUnit.MILLISECONDS)).isLessThan(hold.toMillis() / 2);
	}

	@Test
	void furtherUsesAreSeparateCheckoutsEachTimedAsAHold() throws SQLException {
		new TransactionTemplate(manager(HoldPlace.APPLICATION, Duration.ofMillis(1), 3))
			.executeWithoutResult((status) -> {
			});
		verify(this.dataSource, times(3)).getConnection();
		verify(this.connection, times(3)).commit();
		verify(this.connection, times(3)).close();
		assertThat(holds().count()).isEqualTo(3);
	}

	@Test
	void aRolledBackRequestTakesNoFurtherUse() throws SQLException {
		new TransactionTemplate(manager(HoldPlace.APPLICATION, Duration.ofMillis(1), 3))
			.executeWithoutResult((status) -> status.setRollbackOnly());
		verify(this.dataSource, times(1)).getConnection();
		assertThat(holds().count()).isOne();
	}

	@Test
	void withoutAHoldNothingWaits() throws SQLException {
		new TransactionTemplate(manager(null)).executeWithoutResult((status) -> {
		});
		verify(this.connection, never()).prepareStatement(anyString());
		assertThat(holds().count()).isOne();
	}

	private HoldTransactionManager manager(@Nullable HoldPlace place) {
		return manager(place, HOLD);
	}

	private HoldTransactionManager manager(@Nullable HoldPlace place, Duration hold) {
		return manager(place, hold, 1);
	}

	private HoldTransactionManager manager(@Nullable HoldPlace place, Duration hold, double uses) {
		HoldProperties properties = new HoldProperties((place != null) ? hold : null, null,
				(place != null) ? place : HoldPlace.DATABASE, 1, null, null, uses);
		return new HoldTransactionManager(this.dataSource, ConnectionHold.register(this.registry),
				HoldPadding.of(properties).orElse(null), DatabaseVendor.POSTGRESQL.sleepStatement());
	}

	private Timer holds() {
		return this.registry.get(ConnectionHold.METRIC).timer();
	}

	/** Whole milliseconds, at least one, within the hold. */
	private static boolean atMostTheHold(BigDecimal seconds) {
		return seconds.signum() > 0 && seconds.compareTo(BigDecimal.valueOf(PADDED_HOLD.toNanos(), 9)) <= 0
				&& seconds.movePointRight(3).stripTrailingZeros().scale() <= 0;
	}

}
