package org.poollab.service.system;

import java.net.URI;
import java.util.Arrays;
import java.util.List;

/**
 * Requests the service answers with 503 for want of a database connection, counted by
 * reason: the one home of the counter's name and its reasons, which the service counts
 * ({@link DatabaseUnavailableAdvice}) and the lab scrapes, records and reports.
 */
public final class Refusals {

	/** The Micrometer counter, tagged {@code reason}. */
	public static final String METRIC = "roles.requests.refused";

	/** {@link #METRIC} as Prometheus exposes it. */
	public static final String PROMETHEUS_NAME = "roles_requests_refused_total";

	private Refusals() {
	}

	/** Why a request got no connection, as the counter's {@code reason} tag. */
	public enum Reason {

		/**
		 * The database at its connection limit: PostgreSQL's SQLSTATE 53300 ("too many
		 * clients"), MariaDB's and MySQL's error 1040 ("Too many connections"). One
		 * reason for both, so the results' columns do not depend on the database.
		 */
		TOO_MANY_CLIENTS("too-many-clients", "Database at its connection limit (too many clients)"),

		/** The pool ran dry: HikariCP's {@code connection-timeout} passed. */
		POOL_TIMEOUT("pool-timeout", "No database connection available in time"),

		/** The database is down or dropped the connection. */
		DATABASE_UNAVAILABLE("database-unavailable", "Database unavailable");

		private final String tag;

		private final String title;

		Reason(String tag, String title) {
			this.tag = tag;
			this.title = title;
		}

		public String tag() {
			return this.tag;
		}

		/** The 503 problem's {@code title}. */
		public String title() {
			return this.title;
		}

		/** The 503 problem's {@code type}, e.g. {@code urn:poollab:pool-timeout}. */
		public URI problemType() {
			return URI.create("urn:poollab:" + this.tag);
		}

		/** Every reason's tag, in this order (the results' columns follow it). */
		public static List<String> tags() {
			return Arrays.stream(values()).map(Reason::tag).toList();
		}

	}

}
