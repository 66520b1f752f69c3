package org.poollab.reactive.audit;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.Result;
import io.r2dbc.spi.Statement;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.poollab.reactive.database.Connections;

import org.springframework.stereotype.Repository;

/**
 * Writes audit events as the JDBC service does: the role's existence checked, then 100
 * rows in one batched statement, in one transaction on one pooled connection. The SQL is
 * the JDBC service's with PostgreSQL's {@code $n} placeholders, which R2DBC needs where
 * JDBC has {@code ?}. The batch is one prepared statement bound 100 times, sent in one
 * pipeline (where pgjdbc's {@code reWriteBatchedInserts} sends multi-row INSERTs).
 */
@Repository
class AuditRepository {

	/**
	 * Rows one request inserts, as in the write-heavy benchmark of Kamal, "Configuring
	 * Connection Pooling with Spring R2DBC", and on the JDBC service.
	 */
	static final int EVENTS_PER_REQUEST = 100;

	private static final String ROLE_EXISTS = "SELECT count(*) FROM roles WHERE id = $1";

	private static final String INSERT = "INSERT INTO role_audit (role_id, event) VALUES ($1, $2)";

	private final Connections connections;

	AuditRepository(Connections connections) {
		this.connections = connections;
	}

	/**
	 * @return how many rows were inserted, or 0 when the role does not exist
	 */
	Mono<Long> record(long roleId) {
		return this.connections
			.use((connection) -> Mono.from(connection.beginTransaction())
				.then(roleExists(connection, roleId))
				.flatMap((exists) -> exists ? insert(connection, roleId) : Mono.just(0L))
				.flatMap((inserted) -> Mono.from(connection.commitTransaction()).thenReturn(inserted))
				.onErrorResume((ex) -> Mono.from(connection.rollbackTransaction()).then(Mono.error(ex))))
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
			if (i > 0) {
				insert.add();
			}
			insert.bind(0, roleId).bind(1, "load-test-event-" + i);
		}
		return Flux.from(insert.execute()).flatMap(Result::getRowsUpdated).reduce(0L, Long::sum);
	}

}
