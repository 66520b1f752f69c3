package org.poollab.bench;

import java.util.Locale;

/**
 * What each request does: the read the paper measures, or the write-heavy request of seed
 * 003 (100 rows inserted in one transaction).
 */
enum Workload {

	/** {@code GET /roles}: one join, read-only transaction. */
	READ("roles.jmx", "GET /roles"),

	/** {@code POST /roles/{id}/audit}: 100 rows inserted in one batched transaction. */
	WRITE("write.jmx", "POST /roles/1/audit");

	final String plan;

	final String request;

	Workload(String plan, String request) {
		this.plan = plan;
		this.request = request;
	}

	String label() {
		return name().toLowerCase(Locale.ROOT) + " (" + this.request + ")";
	}

}
