package org.poollab.bench;

/**
 * How the service is deployed for a point.
 */
enum Topology {

	/** One instance, load sent to it directly. */
	SINGLE,

	/** Several instances sharing one database, behind a load balancer. */
	MULTI;

	String label() {
		return name().toLowerCase(java.util.Locale.ROOT);
	}

}
