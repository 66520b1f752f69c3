package org.poollab.service.hold;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import javax.sql.DataSource;

import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

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
 * ({@code sleepStatement}), or the thread waits. With {@code lab.hold.cpu} set each
 * committing transaction first costs the database that much CPU ({@link CpuHold}), on top
 * of the padding.
 * <p>
 * A request is one transaction on one thread, so the hold in flight is the thread's: set
 * at the begin, removed at the end, however the transaction ends.
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
	}

	@Override
	protected void doCleanupAfterCompletion(Object transaction) {
		try {
			super.doCleanupAfterCompletion(transaction);
		}
		finally {
			Checkout checkout = this.checkout.get();
			this.checkout.remove();
			if (checkout != null) {
				long heldNanos = System.nanoTime() - checkout.startNanos;
				this.holds.record(heldNanos, TimeUnit.NANOSECONDS);
				if (this.padding != null && checkout.targetNanos > 0) {
					this.padding.held(checkout.targetNanos, heldNanos - checkout.burnNanos);
				}
			}
		}
	}

	private void pad(HoldPadding padding, Checkout checkout, DefaultTransactionStatus status) {
		long targetNanos = padding.drawNanos();
		// The CPU hold comes on top of the waiting one, however long contention made it.
		long waitNanos = padding.waitNanos(targetNanos, System.nanoTime() - checkout.startNanos - checkout.burnNanos);
		if (waitNanos <= 0) {
			return;
		}
		checkout.targetNanos = targetNanos;
		if (padding.place() == HoldPlace.APPLICATION) {
			park(waitNanos);
		}
		else {
			sleepInTheDatabase(waitNanos, status);
		}
	}

	private void burn(CpuHold cpu, DefaultTransactionStatus status) {
		try {
			cpu.burn(((JdbcTransactionObjectSupport) status.getTransaction()).getConnectionHolder().getConnection());
		}
		catch (SQLException ex) {
			throw translateException("Emulated database CPU", ex);
		}
	}

	private void sleepInTheDatabase(long waitNanos, DefaultTransactionStatus status) {
		Connection connection = ((JdbcTransactionObjectSupport) status.getTransaction()).getConnectionHolder()
			.getConnection();
		try (PreparedStatement sleep = connection.prepareStatement(this.sleepStatement)) {
			sleep.setBigDecimal(1, HoldPadding.seconds(waitNanos));
			sleep.execute();
		}
		catch (SQLException ex) {
			throw translateException("Emulated connection hold", ex);
		}
	}

	/**
	 * Waits to the microsecond, where {@code Thread.sleep} rounds up to the millisecond
	 * on Java 17; an interrupt ends the wait.
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

		/** Nanoseconds, 0 unless padded. */
		long targetNanos;

		/** Nanoseconds the CPU hold's statement took, 0 without one. */
		long burnNanos;

		Checkout(long startNanos) {
			this.startNanos = startNanos;
		}

	}

}
