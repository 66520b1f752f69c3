package org.poollab.reactive.system;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.pool.PoolMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.poollab.reactive.database.Connections;
import org.poollab.reactive.database.Connections.NoConnection;
import org.poollab.service.system.Refusals;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Turns "no connection in time" and "database unreachable" into {@code 503} with the
 * pool's state, as the JDBC service does, so that load results can tell saturation from
 * bugs (which stay {@code 500}). Every refusal counts in the JDBC service's counter
 * ({@link Refusals#METRIC}) under its reason: {@code pool-timeout} when r2dbc-pool's
 * {@code max-acquire-time} (the analogue of HikariCP's {@code connection-timeout})
 * passed. The titles and problem types are the JDBC service's.
 */
@RestControllerAdvice
class DatabaseUnavailableAdvice {

	static final Duration RETRY_AFTER = Duration.ofSeconds(1);

	private static final Logger logger = LoggerFactory.getLogger(DatabaseUnavailableAdvice.class);

	private final Connections connections;

	private final Map<Refusals.Reason, Counter> refused = new EnumMap<>(Refusals.Reason.class);

	DatabaseUnavailableAdvice(Connections connections, MeterRegistry registry) {
		this.connections = connections;
		// Registered at start, so every reason is scraped as 0 before its first refusal
		// (a delta over a window needs both ends).
		for (Refusals.Reason reason : Refusals.Reason.values()) {
			this.refused.put(reason,
					Counter.builder(Refusals.METRIC)
						.description("Requests answered 503 because no database connection could be had")
						.tag("reason", reason.tag())
						.register(registry));
		}
	}

	@ExceptionHandler(NoConnection.class)
	ResponseEntity<ProblemDetail> databaseUnavailable(NoConnection ex) {
		Refusals.Reason reason = ex.reason();
		// Every reason's counter is registered in the constructor.
		Objects.requireNonNull(this.refused.get(reason)).increment();
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, ex.getMessage());
		problem.setTitle(reason.title());
		problem.setType(reason.problemType());
		// The JDBC service's names for HikariCP's numbers, from r2dbc-pool's (none
		// without a pool, as on the JDBC service without one).
		PoolMetrics pool = this.connections.state();
		if (pool != null) {
			problem.setProperty("total", pool.allocatedSize());
			problem.setProperty("active", pool.acquiredSize());
			problem.setProperty("idle", pool.idleSize());
			problem.setProperty("waiting", pool.pendingAcquireSize());
		}
		logger.debug("Answering 503: {}", ex.getMessage());
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, String.valueOf(RETRY_AFTER.toSeconds()))
			.body(problem);
	}

}
