package org.poollab.service.role;

/**
 * The statements behind {@code GET /roles}: the service runs them, and the lab runs the
 * same one against the database alone to measure how the database scales with concurrent
 * connections ({@code DatabaseScaling}), so that both measure one statement. Plain SQL
 * that PostgreSQL and MariaDB read alike, rows in the same order (a role without
 * permissions has one row, so where a vendor sorts NULL does not matter): one statement
 * for both vendors.
 */
public final class RoleQueries {

	private static final String SELECT_ROLES = """
			SELECT r.id AS role_id, r.name AS role_name, r.description AS role_description,
			       p.id AS permission_id, p.name AS permission_name
			FROM roles r
			LEFT JOIN role_permissions rp ON rp.role_id = r.id
			LEFT JOIN permissions p ON p.id = rp.permission_id
			""";

	/** {@code GET /roles}: every role with its permissions, five columns a row. */
	public static final String ALL_ROLES = SELECT_ROLES + "ORDER BY r.id, p.id";

	/** {@code GET /roles/{id}}: one role, the named parameter {@code :id}. */
	static final String ONE_ROLE = SELECT_ROLES + "WHERE r.id = :id ORDER BY p.id";

	private RoleQueries() {
	}

}
