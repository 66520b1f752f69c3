package org.poollab.service.system;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.poollab.vendor.DatabaseVendor;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Turns "no connection in time" and "database unreachable" into {@code 503} with the
 * pool's state, so that load results can tell saturation from bugs (which stay
 * {@code 500}). Every refusal counts in {@value #REFUSED_METRIC} by its {@link Kind#tag
 * reason}, which the sweep scrapes before and after each measured window.
 */
@RestControllerAdvice
class DatabaseUnavailableAdvice {

	static final Duration RETRY_AFTER = Duration.ofSeconds(1);

	/** {@code roles_requests_refused_total{reason="..."}} in Prometheus. */
	static final String REFUSED_METRIC = Refusals.METRIC;

	/** HikariCP's message for a call on a connection it has closed (ProxyConnection). */
	static final String HIKARI_CLOSED_CONNECTION = "Connection is closed";

	private static final Logger logger = LoggerFactory.getLogger(DatabaseUnavailableAdvice.class);

	private final DataSource dataSource;

	private final Map<Kind, Counter> refused = new EnumMap<>(Kind.class);

	DatabaseUnavailableAdvice(DataSource dataSource, MeterRegistry registry) {
		this.dataSource = dataSource;
		// Registered at start, so every reason is scraped as 0 before its first refusal
		// (a delta over a window needs both ends), and built once, so a refusal under
		// overload costs an increment, not a registry lookup.
		for (Kind kind : Kind.values()) {
			this.refused.put(kind,
					Counter.builder(REFUSED_METRIC)
						.description("Requests answered 503 because no database connection could be had")
						.tag("reason", kind.reason.tag())
						.register(registry));
		}
	}

	@ExceptionHandler({ CannotGetJdbcConnectionException.class, CannotCreateTransactionException.class,
			DataAccessResourceFailureException.class, TransientDataAccessResourceException.class })
	ResponseEntity<ProblemDetail> databaseUnavailable(Exception ex) {
		Throwable cause = NestedExceptionUtils.getMostSpecificCause(ex);
		Kind kind = Kind.of(ex);
		// Every kind's counter is registered in the constructor.
		Objects.requireNonNull(this.refused.get(kind)).increment();
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, cause.getMessage());
		problem.setTitle(kind.reason.title());
		problem.setType(kind.reason.problemType());
		if (this.dataSource instanceof HikariDataSource hikari && hikari.getHikariPoolMXBean() != null) {
			HikariPoolMXBean pool = hikari.getHikariPoolMXBean();
			problem.setProperty("pool", hikari.getPoolName());
			problem.setProperty("total", pool.getTotalConnections());
			problem.setProperty("active", pool.getActiveConnections());
			problem.setProperty("idle", pool.getIdleConnections());
			problem.setProperty("waiting", pool.getThreadsAwaitingConnection());
		}
		logger.debug("Answering 503: {}", cause.getMessage());
		return unavailable(problem);
	}

	/**
	 * The database went away inside a transaction: the query or the commit failed and so
	 * did the rollback, whose exception is the one that surfaces. Only a lost connection
	 * is a 503; anything else stays a server error.
	 */
	@ExceptionHandler(TransactionSystemException.class)
	ResponseEntity<ProblemDetail> transactionFailed(TransactionSystemException ex) throws TransactionSystemException {
		if (!lostConnection(ex) && !lostConnection(ex.getApplicationException())) {
			throw ex;
		}
		return databaseUnavailable(ex);
	}

	private static boolean lostConnection(@Nullable Throwable ex) {
		for (Throwable t = ex; t != null; t = t.getCause()) {
			if (t instanceof SQLException sql && (lostConnection(sql) || closedByPool(sql))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * HikariCP closes a connection as soon as it sees it break (SQLSTATE 08, 57P01...)
	 * and answers every later call on it with this, without an SQLSTATE. When the commit
	 * fails that way, Spring's rollback on the same connection gets this answer and
	 * reports it instead of the commit's failure.
	 */
	private static boolean closedByPool(SQLException ex) {
		return ex.getSQLState() == null && HIKARI_CLOSED_CONNECTION.equals(ex.getMessage());
	}

	/**
	 * SQLSTATE class 08 (connection exception) or 57P (the server shutting down or not
	 * yet up).
	 */
	static boolean lostConnection(SQLException ex) {
		String state = ex.getSQLState();
		return state != null && (state.startsWith("08") || state.startsWith("57P"));
	}

	private ResponseEntity<ProblemDetail> unavailable(ProblemDetail problem) {
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, String.valueOf(RETRY_AFTER.toSeconds()))
			.body(problem);
	}

	/**
	 * Why no connection: the database at its connection limit is named as such
	 * (PostgreSQL's SQLSTATE 53300, "too many clients"; MariaDB's and MySQL's error 1040,
	 * "Too many connections"), apart from a pool that ran dry and a database that is
	 * down. HikariCP's timeout carries the pool's last failure to connect, so a wait that
	 * timed out while the database refused or dropped connections is the database's
	 * doing, not the pool's size.
	 */
	enum Kind {

		TOO_MANY_CLIENTS(Refusals.Reason.TOO_MANY_CLIENTS),

		POOL_TIMEOUT(Refusals.Reason.POOL_TIMEOUT),

		UNAVAILABLE(Refusals.Reason.DATABASE_UNAVAILABLE);

		/** Its tag, title and problem type (one home, shared with the reactive twin). */
		final Refusals.Reason reason;

		Kind(Refusals.Reason reason) {
			this.reason = reason;
		}

		static Kind of(Throwable ex) {
			boolean timeout = false;
			boolean databaseLost = false;
			for (Throwable t = ex; t != null; t = t.getCause()) {
				if (t instanceof SQLException sql && tooManyClients(sql)) {
					return TOO_MANY_CLIENTS;
				}
				timeout |= t instanceof SQLTransientConnectionException;
				databaseLost |= t instanceof SQLException sql && lostConnection(sql);
			}
			return (timeout && !databaseLost) ? POOL_TIMEOUT : UNAVAILABLE;
		}

		/** Some vendor's refusal at its connection limit. */
		private static boolean tooManyClients(SQLException ex) {
			return DatabaseVendor.tooManyConnections(ex.getSQLState(), ex.getErrorCode());
		}

	}

}
