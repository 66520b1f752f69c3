package org.poollab.service.database;

import java.sql.SQLException;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

import org.poollab.vendor.DatabaseVendor;

/**
 * A short answer instead of a wall of stack trace when the configured database
 * (PostgreSQL, or MariaDB with {@code lab.database=mariadb}) cannot be reached or refuses
 * the login at start-up. The URL is shown without its query string, which is where a
 * password could be.
 */
class DatabaseConnectionFailureAnalyzer extends AbstractFailureAnalyzer<SQLException> {

	private final Environment environment;

	DatabaseConnectionFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, SQLException cause) {
		if (!isConnectionFailure(cause.getSQLState())) {
			return null;
		}
		String product = DatabaseVendor.of(this.environment).product();
		String url = this.environment.getProperty("spring.datasource.url", "(embedded %s)".formatted(product));
		String reason = cause.getMessage();
		return new FailureAnalysis(
				"Could not connect to %s at %s (spring.datasource.url): %s".formatted(product, withoutQuery(url),
						reason),
				("Check that %s is running and reachable at that address and that the user and password "
						+ "(spring.datasource.username / spring.datasource.password) are right, or leave "
						+ "SPRING_DATASOURCE_URL unset to let the lab start an embedded %s.")
					.formatted(product, product),
				cause);
	}

	/**
	 * SQLSTATE classes 08 (connection exception), 28 (invalid authorization) and 3D000
	 * (database does not exist): the failures a user fixes in the URL or the server.
	 */
	private static boolean isConnectionFailure(String sqlState) {
		return sqlState != null && (sqlState.startsWith("08") || sqlState.startsWith("28") || sqlState.equals("3D000"));
	}

	static String withoutQuery(String url) {
		int query = url.indexOf('?');
		return (query >= 0) ? url.substring(0, query) : url;
	}

}
