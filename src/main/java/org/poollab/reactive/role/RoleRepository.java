package org.poollab.reactive.role;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.r2dbc.spi.Readable;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.poollab.reactive.database.Connections;
import org.poollab.service.role.RoleQueries;

import org.springframework.stereotype.Repository;

/**
 * Reads roles with their permissions in one statement per call, the JDBC service's
 * ({@link RoleQueries#ALL_ROLES}): a request holds exactly one pooled connection for one
 * round trip of SQL. No caching, on purpose: a cache would take the pool out of the
 * experiment.
 * <p>
 * Unlike the JDBC service's read-only transaction (its {@code BEGIN READ ONLY} travels
 * with the query, its {@code COMMIT} is a round trip of its own), the statement runs in
 * auto-commit: one round trip a request.
 */
@Repository
class RoleRepository {

	private final Connections connections;

	RoleRepository(Connections connections) {
		this.connections = connections;
	}

	Mono<List<Role>> findAll() {
		return this.connections
			.use((connection) -> Flux.from(connection.createStatement(RoleQueries.ALL_ROLES).execute())
				.flatMap((result) -> result.map(RoleRepository::row)))
			.collectList()
			.map(RoleRepository::foldRoles);
	}

	/** Columns by index, as the JDBC service reads them. */
	private static RoleRow row(Readable row) {
		return new RoleRow(row.get(0, Long.class), row.get(1, String.class), row.get(2, String.class),
				row.get(3, Long.class), row.get(4, String.class));
	}

	/**
	 * Folds the join's rows (one per role and permission, ordered by role and permission)
	 * into roles, as the JDBC service does.
	 */
	private static List<Role> foldRoles(List<RoleRow> rows) {
		Map<Long, Role> roles = new LinkedHashMap<>();
		for (RoleRow row : rows) {
			Role role = roles.computeIfAbsent(row.roleId(),
					(id) -> new Role(id, row.roleName(), row.roleDescription(), new ArrayList<>()));
			if (row.permissionId() != null) {
				// A permission's name is NOT NULL: only a role without permissions has
				// none.
				role.permissions()
					.add(new Permission(row.permissionId(), Objects.requireNonNull(row.permissionName())));
			}
		}
		return List.copyOf(roles.values());
	}

	/** One row of the join; no permission when the role has none (LEFT JOIN). */
	private record RoleRow(long roleId, String roleName, String roleDescription, @Nullable Long permissionId,
			@Nullable String permissionName) {
	}

}
