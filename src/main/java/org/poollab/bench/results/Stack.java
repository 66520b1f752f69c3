package org.poollab.bench.results;

/**
 * {@code bench.stack}: which service answers the load, a dimension of the grid. The two
 * share the schema, the seed data, the {@code GET /roles} statement and its JSON; each
 * has its own pool.
 */
public enum Stack {

	/**
	 * {@code org.poollab.service}: Spring MVC on Tomcat, JDBC through HikariCP
	 * ({@code spring.datasource.hikari.maximum-pool-size}).
	 */
	JDBC("JDBC (Spring MVC, HikariCP)", "", "maximum-pool-size"),

	/**
	 * {@code org.poollab.reactive}: WebFlux on Reactor Netty, r2dbc-postgresql through
	 * r2dbc-pool ({@code spring.r2dbc.pool.max-size}).
	 */
	R2DBC("R2DBC (WebFlux, r2dbc-pool)", "-r2dbc", "max-size");

	private final String title;

	private final String labelSuffix;

	private final String poolSizeKey;

	Stack(String title, String labelSuffix, String poolSizeKey) {
		this.title = title;
		this.labelSuffix = labelSuffix;
		this.poolSizeKey = poolSizeKey;
	}

	/**
	 * The pool-size setting's key in the stack's block: {@code maximum-pool-size}
	 * ({@code spring.datasource.hikari.*}) or {@code max-size}
	 * ({@code spring.r2dbc.pool.*}).
	 */
	public String poolSizeKey() {
		return this.poolSizeKey;
	}

	/** For the console and the report, e.g. {@code R2DBC (WebFlux, r2dbc-pool)}. */
	public String title() {
		return this.title;
	}

	/** How deployment labels go on after the topology: empty or {@code -r2dbc}. */
	public String labelSuffix() {
		return this.labelSuffix;
	}

	/** {@code jdbc} or {@code r2dbc}, as {@code bench.stack} and the CSV write it. */
	public String value() {
		return name().toLowerCase(java.util.Locale.ROOT);
	}

}
