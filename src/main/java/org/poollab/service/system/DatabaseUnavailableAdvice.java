package org.poollab.service.system;

import java.net.URI;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * {@code 500}).
 */
@RestControllerAdvice
class DatabaseUnavailableAdvice {

	static final Duration RETRY_AFTER = Duration.ofSeconds(1);

	private static final Logger logger = LoggerFactory.getLogger(DatabaseUnavailableAdvice.class);

	private final DataSource dataSource;

	DatabaseUnavailableAdvice(DataSource dataSource) {
		this.dataSource = dataSource;
	}

	@ExceptionHandler({ CannotGetJdbcConnectionException.class, CannotCreateTransactionException.class,
			DataAccessResourceFailureException.class, TransientDataAccessResourceException.class })
	ResponseEntity<ProblemDetail> databaseUnavailable(Exception ex) {
		Throwable cause = NestedExceptionUtils.getMostSpecificCause(ex);
		Kind kind = Kind.of(ex);
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, cause.getMessage());
		problem.setTitle(kind.title);
		problem.setType(URI.create(kind.type));
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
	 * The database went away inside a transaction: the query failed and so did the
	 * rollback, whose exception is the one that surfaces. Only a lost connection is a
	 * 503; anything else stays a server error.
	 */
	@ExceptionHandler(TransactionSystemException.class)
	ResponseEntity<ProblemDetail> transactionFailed(TransactionSystemException ex) throws TransactionSystemException {
		if (!lostConnection(ex) && !lostConnection(ex.getApplicationException())) {
			throw ex;
		}
		return databaseUnavailable(ex);
	}

	private static boolean lostConnection(Throwable ex) {
		for (Throwable t = ex; t != null; t = t.getCause()) {
			if (t instanceof SQLException sql && sql.getSQLState() != null
					&& (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"))) {
				return true;
			}
		}
		return false;
	}

	private ResponseEntity<ProblemDetail> unavailable(ProblemDetail problem) {
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, String.valueOf(RETRY_AFTER.toSeconds()))
			.body(problem);
	}

	/**
	 * Why no connection: the database at its connection limit is named as such (SQLSTATE
	 * 53300, "too many clients"), apart from a pool that ran dry and a database that is
	 * down.
	 */
	enum Kind {

		TOO_MANY_CLIENTS("Database at its connection limit (too many clients)", "urn:poollab:too-many-clients"),

		POOL_TIMEOUT("No database connection available in time", "urn:poollab:pool-timeout"),

		UNAVAILABLE("Database unavailable", "urn:poollab:database-unavailable");

		final String title;

		final String type;

		Kind(String title, String type) {
			this.title = title;
			this.type = type;
		}

		static Kind of(Throwable ex) {
			boolean timeout = false;
			for (Throwable t = ex; t != null; t = t.getCause()) {
				if (t instanceof SQLException sql && "53300".equals(sql.getSQLState())) {
					return TOO_MANY_CLIENTS;
				}
				timeout |= t instanceof SQLTransientConnectionException;
			}
			return timeout ? POOL_TIMEOUT : UNAVAILABLE;
		}

	}

}
