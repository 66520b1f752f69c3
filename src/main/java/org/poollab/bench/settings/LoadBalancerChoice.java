package org.poollab.bench.settings;

/**
 * What spreads the load over the instances of the multi-instance topology.
 */
public enum LoadBalancerChoice {

	/** nginx when it is installed, otherwise the plan's own round robin. */
	AUTO,

	/** nginx, and fail when it is not installed. */
	NGINX,

	/** The JMeter plan spreads requests over the instances itself. */
	CLIENT

}
