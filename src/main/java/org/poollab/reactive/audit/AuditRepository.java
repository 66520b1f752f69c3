package org.poollab.reactive.audit;

import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.Result;
import io.r2dbc.spi.Statement;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.poollab.reactive.database.Connections;

import org.springframework.stereotype.Repository;

/**
 * Writes audit events as the JDBC service does: the role's existence checked, then 100
 * rows in one multi-row INSERT, in one transaction on one pooled connection. The JDBC
 * service batches 100 single-row INSERTs and pgjdbc ({@code reWriteBatchedInserts}) sends
 * them as multi-row INSERTs; r2dbc-postgresql has no such rewrite and runs a statement
 * bound 100 times as 100 executions. With those the twin's pooled write points failed at
 * 400 rps (pool 10: 292 of 400 rps, p99 2.1 s, 724 pool timeouts) where the JDBC
 * service's held a p99 of 4 ms; with this statement the same points hold a p99 of 5 ms
 * (src/site/markdown/measurements.md, JDBC vs R2DBC). So the twin writes the multi-row
 * statement itself: the same rows, in one execution, with PostgreSQL's {@code $n}
 * placeholders, which R2DBC needs where JDBC has {@code ?}.
 */
@Repository
class AuditRepository {

	/**
	 * Rows one request inserts, as in the write-heavy benchmark of Kamal, "Configuring
	 * Connection Pooling with Spring R2DBC", and on the JDBC service.
	 */
	static final int EVENTS_PER_REQUEST = 100;

	private static final String ROLE_EXISTS = "SELECT count(*) FROM roles WHERE id = $1";

	/** One row per event: {@code ($1, $2), ($3, $4), …}. */
	private static final String INSERT = IntStream.range(0, EVENTS_PER_REQUEST)
		.mapToObj((i) -> "($" + (2 * i + 1) + ", $" + (2 * i + 2) + ")")
		.collect(Collectors.joining(", ", "INSERT INTO role_audit (role_id, event) VALUES ", ""));

	private final Connections connections;

	AuditRepository(Connections connections) {
		this.connections = connections;
	}

	/**
	 * @return how many rows were inserted, or 0 when the role does not exist
	 */
	Mono<Long> record(long roleId) {
		return this.connections
			.inTransaction((connection) -> roleExists(connection, roleId)
				.flatMap((exists) -> exists ? insert(connection, roleId) : Mono.just(0L)))
			.single();
	}

	private static Mono<Boolean> roleExists(Connection connection, long roleId) {
		return Flux.from(connection.createStatement(ROLE_EXISTS).bind(0, roleId).execute())
			.flatMap((result) -> result.map((row) -> row.get(0, Long.class)))
			.single()
			.map((count) -> count > 0);
	}

	private static Mono<Long> insert(Connection connection, long roleId) {
		Statement insert = connection.createStatement(INSERT);
		for (int i = 0; i < EVENTS_PER_REQUEST; i++) {
			insert.bind(2 * i, roleId).bind(2 * i + 1, "load-test-event-" + i);
		}
		return Flux.from(insert.execute()).flatMap(Result::getRowsUpdated).reduce(0L, Long::sum);
	}

}
