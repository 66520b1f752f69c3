package org.poollab.service.role;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * Reads roles with their permissions in one statement per call: a request holds exactly
 * one pooled connection for one round trip of SQL, which is what the lab measures. No
 * caching, on purpose: a cache would take the pool out of the experiment.
 */
@Repository
class RoleRepository {

	private final JdbcClient jdbc;

	RoleRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Transactional(readOnly = true)
	List<Role> findAll() {
		return this.jdbc.sql(RoleQueries.ALL_ROLES).query(RoleRepository::foldRoles);
	}

	@Transactional(readOnly = true)
	Optional<Role> findById(long id) {
		List<Role> roles = this.jdbc.sql(RoleQueries.ONE_ROLE).param("id", id).query(RoleRepository::foldRoles);
		return roles.stream().findFirst();
	}

	/**
	 * Folds the join's rows (one per role and permission, ordered by role) into roles.
	 * Columns by index: with 200 rows a request, pgjdbc's by-name lookup showed in
	 * profiles.
	 */
	private static List<Role> foldRoles(ResultSet rs) throws SQLException {
		Map<Long, Role> roles = new LinkedHashMap<>();
		while (rs.next()) {
			long roleId = rs.getLong(1);
			Role role = roles.computeIfAbsent(roleId, (id) -> newRole(rs, id));
			long permissionId = rs.getLong(4);
			if (!rs.wasNull()) {
				role.permissions().add(new Permission(permissionId, rs.getString(5)));
			}
		}
		return List.copyOf(roles.values());
	}

	private static Role newRole(ResultSet rs, long id) {
		try {
			return new Role(id, rs.getString(2), rs.getString(3), new ArrayList<>());
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not read role " + id, ex);
		}
	}

}
