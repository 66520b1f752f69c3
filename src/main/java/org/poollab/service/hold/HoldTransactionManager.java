package org.poollab.service.hold;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import javax.sql.DataSource;

import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.datasource.JdbcTransactionObjectSupport;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.DefaultTransactionStatus;

/**
 * Spring Boot's JDBC transaction manager, timing every transaction's connection hold as
 * {@link ConnectionHold#METRIC}: from the transaction begun on its connection, just
 * checked out, to the connection's return, on commit and on rollback alike. With
 * {@code lab.hold.*} set it pads each committing transaction, before its commit, to the
 * hold drawn for it: the database sleeps on the transaction's own connection
 * ({@code sleepStatement}) for the whole milliseconds it can sleep without overrunning
 * the hold and the thread waits out the rest to the microsecond
 * ({@link HoldPadding#databaseSleepNanos(long)}), or the thread waits it all. With
 * {@code lab.hold.cpu} set each committing transaction first costs the database that much
 * CPU ({@link CpuHold}), on top of the padding.
 * <p>
 * A request is one transaction on one thread, so the hold in flight is the thread's: set
 * at the begin, removed at the end, however the transaction ends.
 * <p>
 * With {@code lab.hold.uses} above 1, a committed request then takes the pool again, as
 * many more times as {@link HoldPadding#extraUsesDrawn()} says, one after another on its
 * thread: each use checks a connection out, holds it in a transaction of its own for a
 * hold drawn for it, commits and returns it, timed as the first from the checkout on.
 * Each runs one statement, the sleep, however short its hold: a real use is at least its
 * statement's round trip, and one that ran none would hold its connection for a few
 * microseconds, which no service's use does. Separate checkouts, because that is what
 * HikariCP counts as uses (a request that kept one connection throughout, open-in-view,
 * counts one long use): each use waits for the pool on its own, as a service calling two
 * repositories does. The database CPU ({@code lab.hold.cpu}) is the first use's alone.
 */
class HoldTransactionManager extends JdbcTransactionManager {

	private final ThreadLocal<Checkout> checkout = new ThreadLocal<>();

	private final Timer holds;

	private final @Nullable HoldPadding padding;

	private final String sleepStatement;

	private final @Nullable CpuHold cpu;

	/**
	 * @param sleepStatement the database's sleep, one parameter: seconds
	 */
	HoldTransactionManager(DataSource dataSource, Timer holds, @Nullable HoldPadding padding, String sleepStatement) {
		this(dataSource, holds, padding, sleepStatement, null);
	}

	/**
	 * @param sleepStatement the database's sleep, one parameter: seconds
	 * @param cpu the database CPU each committing transaction costs first, besides its
	 * padding; {@code null} for none
	 */
	HoldTransactionManager(DataSource dataSource, Timer holds, @Nullable HoldPadding padding, String sleepStatement,
			@Nullable CpuHold cpu) {
		super(dataSource);
		this.holds = holds;
		this.padding = padding;
		this.sleepStatement = sleepStatement;
		this.cpu = cpu;
	}

	@Override
	protected void doBegin(Object transaction, TransactionDefinition definition) {
		super.doBegin(transaction, definition);
		this.checkout.set(new Checkout(System.nanoTime()));
	}

	@Override
	protected void doCommit(DefaultTransactionStatus status) {
		Checkout checkout = this.checkout.get();
		if (this.cpu != null && checkout != null) {
			long start = System.nanoTime();
			burn(this.cpu, status);
			checkout.burnNanos = System.nanoTime() - start;
		}
		if (this.padding != null && checkout != null) {
			pad(this.padding, checkout, status);
		}
		super.doCommit(status);
		if (checkout != null) {
			checkout.committed = true;
		}
	}

	@Override
	protected void doCleanupAfterCompletion(Object transaction) {
		Checkout checkout = this.checkout.get();
		try {
			super.doCleanupAfterCompletion(transaction);
		}
		finally {
			this.checkout.remove();
			if (checkout != null) {
				long heldNanos = System.nanoTime() - checkout.startNanos;
				this.holds.record(heldNanos, TimeUnit.NANOSECONDS);
				if (this.padding != null && checkout.targetNanos > 0) {
					this.padding.held(checkout.targetNanos, heldNanos - checkout.burnNanos);
				}
			}
		}
		if (this.padding != null && checkout != null && checkout.committed) {
			for (int use = this.padding.extraUsesDrawn(); use > 0; use--) {
				extraUse(this.padding);
			}
		}
	}

	/**
	 * One more use of the pool: checkout, a transaction held for a drawn hold, return.
	 */
	private void extraUse(HoldPadding padding) {
		DataSource dataSource = obtainDataSource();
		Connection connection;
		try {
			connection = dataSource.getConnection();
		}
		catch (SQLException ex) {
			throw new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection for a further use", ex);
		}
		// Held from the checkout, as the first use and HikariCP's usage are: the wait for
		// the pool is not part of the hold.
		long startNanos = System.nanoTime();
		long targetNanos = padding.drawNanos();
		try {
			connection.setAutoCommit(false);
			long waitNanos = padding.waitNanos(targetNanos, System.nanoTime() - startNanos);
			waitOut(padding, connection, Math.max(0, waitNanos), true);
			connection.commit();
			connection.setAutoCommit(true);
		}
		catch (SQLException ex) {
			throw translateException("Emulated further connection use", ex);
		}
		finally {
			try {
				connection.close();
			}
			catch (SQLException ex) {
				logger.debug("Could not close a further use's connection", ex);
			}
			long heldNanos = System.nanoTime() - startNanos;
			this.holds.record(heldNanos, TimeUnit.NANOSECONDS);
			padding.held(targetNanos, heldNanos);
		}
	}

	private void pad(HoldPadding padding, Checkout checkout, DefaultTransactionStatus status) {
		long targetNanos = padding.drawNanos();
		// The CPU hold comes on top of the waiting one, however long contention made it.
		long waitNanos = padding.waitNanos(targetNanos, System.nanoTime() - checkout.startNanos - checkout.burnNanos);
		checkout.targetNanos = targetNanos;
		if (waitNanos <= 0) {
			return;
		}
		try {
			waitOut(padding, connection(status), waitNanos, false);
		}
		catch (SQLException ex) {
			throw translateException("Emulated connection hold", ex);
		}
	}

	/**
	 * Waits {@code waitNanos} holding {@code connection}: in the database the whole
	 * milliseconds its sleep can take without overrunning the wait, then on the thread up
	 * to the wait's end.
	 * @param statement whether the sleep statement runs even with no whole millisecond
	 * for it: a further use's one statement
	 */
	private void waitOut(HoldPadding padding, Connection connection, long waitNanos, boolean statement)
			throws SQLException {
		long deadlineNanos = System.nanoTime() + waitNanos;
		long sleepNanos = (padding.place() == HoldPlace.DATABASE) ? HoldPadding.databaseSleepNanos(waitNanos) : 0;
		if (sleepNanos > 0 || statement) {
			sleep(connection, sleepNanos);
		}
		park(deadlineNanos - System.nanoTime());
	}

	private void burn(CpuHold cpu, DefaultTransactionStatus status) {
		try {
			cpu.burn(connection(status));
		}
		catch (SQLException ex) {
			throw translateException("Emulated database CPU", ex);
		}
	}

	/** The transaction's own connection. */
	private static Connection connection(DefaultTransactionStatus status) {
		return ((JdbcTransactionObjectSupport) status.getTransaction()).getConnectionHolder().getConnection();
	}

	private void sleep(Connection connection, long waitNanos) throws SQLException {
		try (PreparedStatement sleep = connection.prepareStatement(this.sleepStatement)) {
			sleep.setBigDecimal(1, HoldPadding.seconds(waitNanos));
			sleep.execute();
		}
	}

	/**
	 * Waits to the microsecond, where {@code Thread.sleep} rounds up to the millisecond
	 * on Java 17; an interrupt ends the wait, and none is waited at or below 0.
	 */
	private static void park(long waitNanos) {
		long deadline = System.nanoTime() + waitNanos;
		for (long left = waitNanos; left > 0
				&& !Thread.currentThread().isInterrupted(); left = deadline - System.nanoTime()) {
			LockSupport.parkNanos(left);
		}
	}

	/** A transaction's connection: since when it is held, and the hold drawn for it. */
	private static final class Checkout {

		final long startNanos;

		/** Nanoseconds, 0 until the commit draws it. */
		long targetNanos;

		/** Nanoseconds the CPU hold's statement took, 0 without one. */
		long burnNanos;

		/** Whether it committed: a request that did takes its further uses. */
		boolean committed;

		Checkout(long startNanos) {
			this.startNanos = startNanos;
		}

	}

}
