package org.poollab.bench.grid;

import java.util.Locale;

/**
 * How the service is deployed for a point.
 */
public enum Topology {

	/** One instance, load sent to it directly. */
	SINGLE,

	/** Several instances sharing one database, behind a load balancer. */
	MULTI,

	/**
	 * Several instances behind a load balancer, connecting through pgbouncer in
	 * transaction mode (as in "Improve database performance with connection pooling",
	 * Stack Overflow blog, 2020): the swept pool size is pgbouncer's.
	 */
	PGBOUNCER;

	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

}
