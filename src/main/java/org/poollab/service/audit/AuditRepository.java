package org.poollab.service.audit;

import java.util.List;
import java.util.stream.IntStream;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * Writes audit events in one batched statement per request, in one transaction: the
 * write-heavy workload, where a request holds its connection much longer than a read.
 */
@Repository
class AuditRepository {

	/**
	 * Rows one request inserts, as in the write-heavy benchmark of Kamal, "Configuring
	 * Connection Pooling with Spring R2DBC".
	 */
	static final int EVENTS_PER_REQUEST = 100;

	private static final String INSERT = "INSERT INTO role_audit (role_id, event) VALUES (?, ?)";

	private final JdbcTemplate jdbc;

	AuditRepository(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * @return how many rows were inserted, or 0 when the role does not exist
	 */
	@Transactional
	int record(long roleId) {
		Integer roles = this.jdbc.queryForObject("SELECT count(*) FROM roles WHERE id = ?", Integer.class, roleId);
		if (roles == null || roles == 0) {
			return 0;
		}
		List<Object[]> rows = IntStream.range(0, EVENTS_PER_REQUEST)
			.mapToObj((i) -> new Object[] { roleId, "load-test-event-" + i })
			.toList();
		return this.jdbc.batchUpdate(INSERT, rows).length;
	}

}
