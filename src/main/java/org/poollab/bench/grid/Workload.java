package org.poollab.bench.grid;

import java.util.Locale;

/**
 * What each request does: the read the JOIV paper measures, or the write-heavy request of
 * Kamal, "Configuring Connection Pooling with Spring R2DBC" (100 rows inserted in one
 * transaction).
 */
public enum Workload {

	/** {@code GET /roles}: one join, read-only transaction. */
	READ("roles.jmx", "GET /roles", "/roles"),

	/** {@code POST /roles/{id}/audit}: 100 rows inserted in one batched transaction. */
	WRITE("write.jmx", "POST /roles/1/audit", "/roles/{id}/audit");

	public final String plan;

	final String request;

	/**
	 * The request's {@code uri} tag in the service's {@code http.server.requests} timer:
	 * Spring MVC's URI template, not the path sent.
	 */
	public final String uri;

	Workload(String plan, String request, String uri) {
		this.plan = plan;
		this.request = request;
		this.uri = uri;
	}

	public String label() {
		return name().toLowerCase(Locale.ROOT) + " (" + this.request + ")";
	}

}
